// Hidden grading cases of exercise 02-A (argmax): the instructor's, never in a student's copy of the
// course (./course handout leaves solutions/ out). ./course grade-class runs them with the visible
// cases and names each to the student only as "hidden case N", with no detail; the solution must pass
// them and the stub fail them, as for the visible cases (instructor guide, "Hidden test cases").
#include <catch2/catch.hpp>

#include <vector>

#include "argmax.h"
#include "exercise_support.h"

namespace {

// The student's (value, index) beside the reference's, for a case whose data the student never sees.
void check_hidden(const std::vector<float>& values) {
  const exercise02::ArgMax expected = exercise02::ArgmaxExercise::reference(values);
  const exercise02::ArgMax got = course::run_once<exercise02::ArgmaxExercise>({values, 0});
  CHECK(got.value == expected.value);
  CHECK(got.index == expected.index);
}

}  // namespace

TEST_CASE("argmax (hidden): one maximum repeated at the end of every stretch of 1000", "[hidden]") {
  // Ties between the threads and blocks of any split: the first of them, at 999, must win.
  auto values = course::uniform_floats(4000037, -1.0f, 1.0f, 31);
  for (std::size_t i = 999; i < values.size(); i += 1000) values[i] = 3.0f;
  check_hidden(values);
}

TEST_CASE("argmax (hidden): 2^24 + 3 values whose only maximum is the last", "[hidden]") {
  auto values = course::uniform_floats((std::size_t(1) << 24) + 3, -1.0f, 1.0f, 32);
  values.back() = 1.25f;
  check_hidden(values);
}
