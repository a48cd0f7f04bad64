// Tests of lesson 02's CPU step against the standard library's max_element.
#include <catch2/catch.hpp>

#include <cfloat>
#include <vector>

#include "course/data.h"
#include "course/test_sizes.h"
#include "max_reduction.h"

using max_reduction::kThisStep;

TEST_CASE("matches std::max_element on awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) {
      auto values = course::uniform_floats(n, -1.0f, 1.0f, seed);
      INFO("n = " << n << ", seed " << seed);
      REQUIRE(kThisStep.run_cpu(values.data(), n) == max_reduction::reference_max(values.data(), n));
    }
}

TEST_CASE("negative, equal and extreme values, maximum at either end") {
  std::vector<float> negative = course::uniform_floats(1000, -5.0f, -1.0f, 3);
  REQUIRE(kThisStep.run_cpu(negative.data(), negative.size()) ==
          max_reduction::reference_max(negative.data(), negative.size()));
  std::vector<float> equal(31, -2.5f);
  REQUIRE(kThisStep.run_cpu(equal.data(), equal.size()) == -2.5f);
  std::vector<float> extremes{-FLT_MAX, -FLT_MAX};
  REQUIRE(kThisStep.run_cpu(extremes.data(), extremes.size()) == -FLT_MAX);
  std::vector<float> ends = course::uniform_floats(33, -1.0f, 1.0f, 4);
  ends.front() = 3.0f;
  REQUIRE(kThisStep.run_cpu(ends.data(), ends.size()) == 3.0f);
  ends.front() = 0.0f;
  ends.back() = 4.0f;
  REQUIRE(kThisStep.run_cpu(ends.data(), ends.size()) == 4.0f);
}
