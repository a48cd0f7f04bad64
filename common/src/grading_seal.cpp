#include "course/grading_seal.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace course {

namespace {
std::string& seal() {
  static std::string word;
  return word;
}
}  // namespace

void take_grading_seal() {
  if (!seal().empty()) return;
  if (const char* word = std::getenv("COURSE_GRADE_SEAL")) seal() = word;
  unsetenv("COURSE_GRADE_SEAL");
}

int print_grading_seal(int exit_code, std::FILE* out) {
  if (!seal().empty()) {
    std::fflush(stderr);
    std::fprintf(out, "\ncourse-grade-seal: %s exit %d\n", seal().c_str(), exit_code);
    std::fflush(out);
  }
  return exit_code;
}

}  // namespace course
