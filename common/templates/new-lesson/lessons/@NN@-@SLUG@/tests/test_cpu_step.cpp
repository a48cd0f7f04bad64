// Tests of lesson @NN@'s CPU steps: each must equal the reference exactly.
#include <catch2/catch.hpp>

#include "@FILE@.h"
#include "course/data.h"
#include "course/test_sizes.h"
#include "course/verify.h"

using @FILE@::kThisStep;

TEST_CASE("matches the reference on awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) {
      const std::vector<float> x = course::uniform_floats(n, -1.0f, 1.0f, seed);
      std::vector<float> y(n);
      kThisStep.run_cpu(x.data(), y.data(), n);
      const std::vector<float> expected = @FILE@::reference(x);
      const course::Verdict v = course::compare_exact(y.data(), expected.data(), n);
      INFO("n = " << n << ", seed " << seed << ": " << v.describe());
      REQUIRE(v.pass);
    }
}
