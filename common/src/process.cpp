#include "course/process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "course/delimited_text.h"
#include "course/errors.h"

namespace course {

std::string directory_of_this_program() {
  std::vector<char> path(4096);
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  const std::string p(path.data(), static_cast<std::size_t>(n));
  return p.substr(0, p.find_last_of('/'));
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string without_options_of(const std::string& arguments, const std::string& overriding) {
  auto is_option = [](const std::string& word) { return word.rfind("--", 0) == 0; };
  auto name_of = [](const std::string& word) { return word.substr(0, word.find('=')); };
  std::vector<std::string> given;
  for (const std::string& word : words_of(overriding))
    if (is_option(word)) given.push_back(name_of(word));
  const std::vector<std::string> own = words_of(arguments);
  std::string kept;
  for (std::size_t i = 0; i < own.size(); ++i) {
    if (is_option(own[i]) && std::find(given.begin(), given.end(), name_of(own[i])) != given.end()) {
      // its value goes with it, unless it was written --name=VALUE or is a flag (the next word an option)
      if (own[i].find('=') == std::string::npos && i + 1 < own.size() && !is_option(own[i + 1])) ++i;
      continue;
    }
    kept += (kept.empty() ? "" : " ") + own[i];
  }
  return kept;
}

CommandOutcome run_command(const std::string& command) {
  char err_path[] = "/tmp/course_command_XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  CommandOutcome o;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  if (!pipe) {
    std::remove(err_path);
    throw std::runtime_error("cannot run " + command);
  }
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) o.out.append(buffer, got);
  const int status = pclose(pipe);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  o.err = read_text_file(err_path);
  std::remove(err_path);
  return o;
}

std::string first_line(const std::string& text) {
  const auto lines = lines_of(text);
  return lines.empty() ? "" : lines.front();
}

std::vector<ManifestEntry> read_manifest(const std::string& bin) {
  const std::string path = bin + "/course_manifest.tsv";
  if (!std::ifstream(path)) throw UsageError(path + ": missing; build the course first");
  std::vector<ManifestEntry> entries;
  for (const std::string& line : content_lines_of(read_text_file(path))) {
    const auto f = fields_of(line, kTabSeparated, 4);
    if (f.size() != 4)
      throw UsageError(path + ": a line has " + std::to_string(f.size()) +
                       " fields, not 4 (lesson, table, program, arguments): " + line);
    entries.push_back(ManifestEntry{f[0], f[1], f[2], f[3]});
  }
  return entries;
}

std::string step_key(const std::string& target) {
  const auto underscore = target.find('_');
  if (underscore == std::string::npos || target.size() < underscore + 3) return target;
  // A step's number with its letter, where it has one: a rung kept beside step 10 is "10b", not "10".
  std::string key = target.substr(underscore + 1, 2);
  if (std::isdigit(static_cast<unsigned char>(key[0])) == 0) return key;
  for (std::size_t i = underscore + 3; i < target.size() && std::isalpha(static_cast<unsigned char>(target[i])) != 0; ++i)
    key += target[i];
  return key;
}

}  // namespace course
