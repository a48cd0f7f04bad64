// Tests of lesson 05's CPU step against the double-precision reference.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "course/test_sizes.h"
#include "course/verify.h"
#include "matvec.h"

TEST_CASE("matches the reference on awkward shapes and several seeds") {
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {1, 1000}, {1000, 1}, {33, 1000}, {999, 1001}})
    for (auto seed : course::test_seeds()) {
      const matvec::Problem p = matvec::make_problem(m, n, seed);
      std::vector<float> c(n, -1.0f);
      matvec::kThisStep.run_cpu(p.a.data(), p.v.data(), c.data(), m, n);
      const std::vector<double> expected = matvec::reference(p);
      const course::Verdict v = course::compare_close(c.data(), expected.data(), n, matvec::tolerance(p, expected));
      INFO(m << " x " << n << ", seed " << seed << ": " << v.describe());
      REQUIRE(v.pass);
    }
}
