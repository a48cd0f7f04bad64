// Grading test of exercise 02-B (minimum and maximum in one pass). Built twice: against
// solutions/02-max-reduction/min_max.cu (every case must pass) and against your
// exercises/02-max-reduction/min_max.cu.
// Run it with:   ./course grade 02 min_max
#include <catch2/catch.hpp>

#include <cfloat>
#include <vector>

#include "course/test_sizes.h"
#include "exercise_support.h"
#include "min_max.h"

using exercise02::MinMax;
using exercise02::MinMaxExercise;

namespace {

void require_min_max(const std::vector<float>& values, std::size_t offset = 0) {
  const MinMax expected = MinMaxExercise::reference(values);
  const MinMax got = course::run_once<MinMaxExercise>({values, offset});
  INFO("n = " << values.size() << ", array starting " << offset << " floats past a 16-byte boundary: expected min "
              << expected.min << " and max " << expected.max << ", got min " << got.min << " and max " << got.max);
  REQUIRE(got.min == expected.min);
  REQUIRE(got.max == expected.max);
}

}  // namespace

TEST_CASE("min_max: awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) require_min_max(course::uniform_floats(n, -1.0f, 1.0f, seed));
}

TEST_CASE("min_max: the default size") { require_min_max(course::uniform_floats(40960000, -1.0f, 1.0f, 9)); }

TEST_CASE("min_max: arrays that do not start on a 16-byte boundary") {
  for (std::size_t offset : {1, 2, 3})
    for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(33), std::size_t(999983)})
      require_min_max(course::uniform_floats(n, -1.0f, 1.0f, 10 + offset), offset);
}

TEST_CASE("min_max: extremes in the first and the last element") {
  auto values = course::uniform_floats(1001, -1.0f, 1.0f, 6);
  values.front() = 3.0f;
  values.back() = -3.0f;
  require_min_max(values);
  values.front() = -4.0f;
  values.back() = 4.0f;
  require_min_max(values);
}

TEST_CASE("min_max: negative, equal and extreme values") {
  require_min_max(course::uniform_floats(1000, -9.0f, -2.0f, 8));
  require_min_max(std::vector<float>(257, 0.75f));
  require_min_max(std::vector<float>{FLT_MAX, -FLT_MAX, 0.0f, -0.0f, FLT_MIN});
}
