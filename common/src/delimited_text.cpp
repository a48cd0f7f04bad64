#include "course/delimited_text.h"

#include <sstream>

namespace course {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::vector<std::string> content_lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (std::string& line : lines_of(text))
    if (!line.empty() && line[0] != '#') lines.push_back(std::move(line));
  return lines;
}

std::vector<std::string> fields_of(const std::string& line, FieldRules rules, std::size_t at_most) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (rules.quotes && c == '"') {
      quoted = true;
    } else if (c == rules.separator && (at_most == 0 || fields.size() < at_most)) {
      fields.emplace_back();
    } else if (!(rules.quotes && c == '\r')) {
      fields.back() += c;
    }
  }
  return fields;
}

std::string csv_field(const std::string& text, Quoting quoting) {
  if (quoting == Quoting::WhereNeeded && text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

}  // namespace course
