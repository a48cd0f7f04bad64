// Grading test of exercise 02-A (argmax). Built twice: against solutions/02-max-reduction/argmax.cu
// (every case must pass) and against your exercises/02-max-reduction/argmax.cu.
// Run it with:   ./course grade 02 argmax
#include <catch2/catch.hpp>

#include <cfloat>
#include <vector>

#include "argmax.h"
#include "course/test_sizes.h"
#include "exercise_support.h"

using exercise02::ArgMax;
using exercise02::ArgmaxExercise;

namespace {

void require_argmax(const std::vector<float>& values, std::size_t offset = 0) {
  const ArgMax expected = ArgmaxExercise::reference(values);
  const ArgMax got = course::run_once<ArgmaxExercise>({values, offset});
  INFO("n = " << values.size() << ", array starting " << offset << " floats past a 16-byte boundary: expected value " << expected.value << " at index " << expected.index
              << ", got value " << got.value << " at index " << got.index);
  REQUIRE(got.value == expected.value);
  REQUIRE(got.index == expected.index);
}

}  // namespace

TEST_CASE("argmax: awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) require_argmax(course::uniform_floats(n, -1.0f, 1.0f, seed));
}

TEST_CASE("argmax: the default size") { require_argmax(course::uniform_floats(40960000, -1.0f, 1.0f, 9)); }

TEST_CASE("argmax: a repeated maximum is reported at its first index") {
  auto values = course::uniform_floats(999983, -1.0f, 1.0f, 4);
  for (std::size_t i : {std::size_t(777777), std::size_t(5000), std::size_t(999982), std::size_t(123456)})
    values[i] = 1.5f;
  require_argmax(values);  // first occurrence: 5000
}

TEST_CASE("argmax: arrays that do not start on a 16-byte boundary") {
  for (std::size_t offset : {1, 2, 3})
    for (std::size_t n : {std::size_t(1), std::size_t(6), std::size_t(1000), std::size_t(999983)}) {
      auto values = course::uniform_floats(n, -1.0f, 1.0f, 20 + offset);
      values[n / 2] = 1.0f;
      values[n - 1] = 1.0f;  // a tie: the first of the two must win
      require_argmax(values, offset);
    }
}

TEST_CASE("argmax: all values equal gives index 0") {
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(100000)}) require_argmax(std::vector<float>(n, -0.5f));
}

TEST_CASE("argmax: maximum in the first or the last element") {
  auto values = course::uniform_floats(1000, -1.0f, 1.0f, 6);
  values.front() = 2.0f;
  require_argmax(values);
  values.front() = 0.0f;
  values.back() = 2.0f;
  require_argmax(values);
}

TEST_CASE("argmax: negative and extreme values") {
  require_argmax(course::uniform_floats(31, -100.0f, -50.0f, 8));
  require_argmax(std::vector<float>{-FLT_MAX, -FLT_MAX, -FLT_MAX});
  require_argmax(std::vector<float>{-1.0f, FLT_MAX, FLT_MAX, 0.0f});
}
