// Tests of one GPU step of lesson @NN@, built once per step: its answer must equal the reference
// exactly (y has one rounding however it is computed), on awkward sizes, several seeds and launches.
#include <catch2/catch.hpp>

#include "@FILE@.h"
#include "course/data.h"
#include "course/test_sizes.h"
#include "course/verify.h"

using @FILE@::kThisStep;

namespace {
void require_step_matches(const std::vector<float>& x, const @FILE@::LaunchPlan& requested = {}) {
  const std::vector<float> got = @FILE@::run_gpu_once(kThisStep, x, requested);
  const std::vector<float> expected = @FILE@::reference(x);
  // A Verdict names the worst wrong element; REQUIRE(got == expected) would print both vectors whole.
  const course::Verdict v = course::compare_exact(got.data(), expected.data(), expected.size());
  INFO("step " << kThisStep.number << ", n = " << x.size() << ", threads " << requested.threads << ": " << v.describe());
  REQUIRE(v.pass);
}
}  // namespace

TEST_CASE("matches the reference on awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) require_step_matches(course::uniform_floats(n, -1.0f, 1.0f, seed));
}

TEST_CASE("matches the reference at the default size") {
  require_step_matches(course::uniform_floats(@FILE@::kDefaultCount, -1.0f, 1.0f, 7));
}

TEST_CASE("any block size gives the same answer") {
  const auto x = course::uniform_floats(1000003, -1.0f, 1.0f, 13);
  for (int threads : {32, 96, 256, 1024}) {
    @FILE@::LaunchPlan requested;
    requested.threads = threads;
    require_step_matches(x, requested);
  }
}
