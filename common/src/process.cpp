#include "course/process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

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

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) lines.push_back(line);
  return lines;
}

std::string first_line(const std::string& text) {
  const auto lines = lines_of(text);
  return lines.empty() ? "" : lines.front();
}

std::vector<ManifestEntry> read_manifest(const std::string& bin) {
  std::ifstream manifest(bin + "/course_manifest.tsv");
  if (!manifest) throw UsageError(bin + "/course_manifest.tsv: missing; build the course first");
  std::vector<ManifestEntry> entries;
  std::string line;
  while (std::getline(manifest, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream s(line);
    ManifestEntry e;
    std::getline(s, e.lesson, '\t');
    std::getline(s, e.table, '\t');
    std::getline(s, e.target, '\t');
    std::getline(s, e.args);
    entries.push_back(e);
  }
  return entries;
}

std::string step_key(const std::string& target) {
  const auto underscore = target.find('_');
  if (underscore != std::string::npos && target.size() >= underscore + 3) return target.substr(underscore + 1, 2);
  return target;
}

}  // namespace course
