#include "course/submission_names.h"

#include <cctype>
#include <filesystem>
#include <regex>

namespace course {

namespace {
std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}
}  // namespace

std::optional<DownloadName> parse_download_name(const std::string& file_name) {
  static const std::regex canvas(R"(^([a-z0-9]+)(_late)?_([0-9]+)_([0-9]+)_(.+)$)", std::regex::icase);
  static const std::regex moodle(R"(^(.+)_([0-9]+)_assignsubmission_[a-z]+_(.+)$)");
  std::smatch m;
  if (std::regex_match(file_name, m, moodle)) return DownloadName{m[1], m[2], "moodle", false, m[3]};
  if (std::regex_match(file_name, m, canvas)) return DownloadName{m[1], m[3], "canvas", m[2].matched, m[5]};
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> parse_moodle_folder(const std::string& folder_name) {
  static const std::regex moodle(R"(^(.+)_([0-9]+)_assignsubmission_[a-z]+_?$)");
  std::smatch m;
  if (!std::regex_match(folder_name, m, moodle)) return std::nullopt;
  return std::make_pair(m[1].str(), m[2].str());
}

long copy_number(const std::string& name, const std::string& exercise) {
  const std::filesystem::path wanted(exercise);
  const std::string stem = lower(wanted.stem().string()), extension = lower(wanted.extension().string());
  const std::string n = lower(name);
  if (n.size() < stem.size() + extension.size() || n.compare(0, stem.size(), stem) != 0 ||
      n.compare(n.size() - extension.size(), extension.size(), extension) != 0)
    return -1;
  const std::string middle = n.substr(stem.size(), n.size() - stem.size() - extension.size());
  if (middle.empty()) return 0;
  static const std::regex numbered(R"(^(?:-([0-9]{1,6})| ?\(([0-9]{1,6})\))$)");
  std::smatch m;
  if (!std::regex_match(middle, m, numbered)) return -1;
  return std::stol(m[1].matched ? m[1].str() : m[2].str());
}

}  // namespace course
