// Tests of one GPU step of lesson 02, built once per step (lesson02_NN_..._test): the step's answer
// must equal the CPU reference exactly (a maximum involves no rounding) on awkward sizes, several
// seeds, and the inputs where reductions typically go wrong.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <vector>

#include "course/data.h"
#include "course/device.h"
#include "course/test_sizes.h"
#include "max_reduction.h"

using max_reduction::kThisStep;
using max_reduction::reference_max;
using max_reduction::run_gpu_once;

namespace {
void require_step_matches(const std::vector<float>& values, const max_reduction::LaunchPlan& requested = {},
                          std::size_t offset = 0) {
  const float expected = reference_max(values.data(), values.size());
  const float got = run_gpu_once(kThisStep, values, requested, offset);
  INFO("step " << kThisStep.number << ", n = " << values.size() << ", threads " << requested.threads
               << ", blocks " << requested.blocks << ", array " << offset << " floats past a 16-byte boundary");
  REQUIRE(got == expected);
}
}  // namespace

TEST_CASE("matches the CPU on awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) {
      INFO("seed " << seed);
      require_step_matches(course::uniform_floats(n, -1.0f, 1.0f, seed));
    }
}

TEST_CASE("matches the CPU at the default size") {
  require_step_matches(course::uniform_floats(max_reduction::kDefaultCount, -1.0f, 1.0f, 7));
}

TEST_CASE("all values negative") {
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(100003)})
    require_step_matches(course::uniform_floats(n, -1000.0f, -1.0f, 11));
}

TEST_CASE("all values equal") {
  for (float value : {0.25f, -3.5f, 0.0f}) {
    INFO("value " << value);
    require_step_matches(std::vector<float>(4097, value));
  }
}

TEST_CASE("the maximum in the first or the last element") {
  for (std::size_t n : {std::size_t(2), std::size_t(1000), std::size_t(999983)}) {
    auto values = course::uniform_floats(n, -1.0f, 1.0f, 5);
    values.front() = 2.0f;
    require_step_matches(values);
    values.front() = -2.0f;
    values.back() = 2.0f;
    require_step_matches(values);
  }
}

TEST_CASE("extreme finite values and signed zeros") {
  std::vector<float> values{-FLT_MAX, -0.0f, -FLT_MIN, -1e-40f, 0.0f, FLT_MIN, FLT_MAX, -FLT_MAX};
  require_step_matches(values);
  values[6] = -1.0f;  // now the largest is FLT_MIN, the smallest positive normal float
  require_step_matches(values);
  require_step_matches(std::vector<float>(77, -FLT_MAX));
  require_step_matches(std::vector<float>(5, -0.0f));
}

TEST_CASE("any launch configuration gives the same answer") {
  const auto values = course::uniform_floats(1000003, -1.0f, 1.0f, 13);
  const int sms = course::query_device().multiprocessors;
  for (int threads : {32, 96, 256, 1024})
    for (int blocks : {0, 1, 4, sms}) {
      max_reduction::LaunchPlan requested;
      requested.threads = threads;
      requested.blocks = blocks;
      require_step_matches(values, requested);
    }
}

TEST_CASE("arrays that do not start on a 16-byte boundary") {
  for (std::size_t offset : {1, 2, 3})
    for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(1000), std::size_t(999983)}) {
      auto values = course::uniform_floats(n, -1.0f, 1.0f, 30 + offset);
      values[n - 1] = 1.5f;  // the maximum in the tail, after the last whole vector
      require_step_matches(values, {}, offset);
      values[n - 1] = -1.5f;
      values[0] = 1.5f;  // and in the head, before the first 16-byte boundary
      require_step_matches(values, {}, offset);
    }
}
