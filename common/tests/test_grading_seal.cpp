// The grading seal (course/grading_seal.h): taken out of the environment once, printed with the exit
// code, and nothing printed where grade-class set none.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "course/grading_seal.h"

namespace {
// What print_grading_seal(code) writes, read back from a temporary file.
std::string printed_seal(int code) {
  std::FILE* file = std::tmpfile();
  REQUIRE(file != nullptr);
  CHECK(course::print_grading_seal(code, file) == code);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  std::fclose(file);
  return text;
}
}  // namespace

TEST_CASE("grading seal: nothing is printed before a word was taken") {
  unsetenv("COURSE_GRADE_SEAL");
  course::take_grading_seal();
  CHECK(printed_seal(0).empty());
}

TEST_CASE("grading seal: the word leaves the environment and comes back with the exit code") {
  setenv("COURSE_GRADE_SEAL", "5eed", 1);
  course::take_grading_seal();
  CHECK(std::getenv("COURSE_GRADE_SEAL") == nullptr);
  CHECK(printed_seal(1) == "\ncourse-grade-seal: 5eed exit 1\n");
  // A second word (a student's code calling it again) changes nothing.
  setenv("COURSE_GRADE_SEAL", "other", 1);
  course::take_grading_seal();
  CHECK(printed_seal(0) == "\ncourse-grade-seal: 5eed exit 0\n");
}
