#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "course/verify.h"

using Catch::Matchers::Contains;

TEST_CASE("compare_exact passes equal integers and reports nothing") {
  std::vector<std::int32_t> a{1, -2, 3}, b{1, -2, 3};
  auto v = course::compare_exact(a.data(), b.data(), a.size());
  REQUIRE(v.pass);
  REQUIRE(v.checked == 3);
  REQUIRE(v.mismatches == 0);
  REQUIRE_THAT(v.describe(), Contains("PASS") && Contains("exact"));
}

TEST_CASE("compare_exact finds the worst of several integer mismatches") {
  std::vector<std::int64_t> got{0, 10, 2, 7}, expected{0, 1, 2, 3};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 2);
  REQUIRE(v.worst_index == 1);
  REQUIRE(v.got == 10);
  REQUIRE(v.expected == 1);
  REQUIRE_THAT(v.describe(), Contains("FAIL") && Contains("2 of 4") && Contains("[1]"));
}

TEST_CASE("compare_exact fails NaN even against NaN") {
  std::vector<float> got{1.0f, NAN}, expected{1.0f, NAN};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.worst_index == 1);
  REQUIRE(std::isinf(v.error));
}

TEST_CASE("compare_close applies absolute and relative tolerance") {
  std::vector<double> expected{0.0, 100.0};
  std::vector<float> inside{1e-6f, 100.0f + 0.009f};
  course::Tolerance tol{1e-5, 1e-4};  // allowed: 1e-5 at zero, 1e-5 + 0.01 at 100
  REQUIRE(course::compare_close(inside.data(), expected.data(), 2, tol).pass);
  std::vector<float> outside{2e-5f, 100.0f};
  auto v = course::compare_close(outside.data(), expected.data(), 2, tol);
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.worst_index == 0);
  REQUIRE(v.allowed == Approx(1e-5));
  REQUIRE_THAT(v.describe(), Contains("tolerance"));
}

TEST_CASE("compare_close picks the worst element relative to its allowance") {
  // Element 0 is off by 0.5 with an allowance of 1 (ratio 0.5); element 1 by 0.02 with 0.01 (ratio 2).
  std::vector<double> expected{1000.0, 0.0};
  std::vector<double> got{1000.5, 0.02};
  auto v = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.01, 0.00099});
  REQUIRE(v.worst_index == 1);
  REQUIRE(v.mismatches == 1);
}

TEST_CASE("compare_close fails NaN and passes the exact boundary") {
  std::vector<double> expected{1.0, 2.0};
  std::vector<double> got{NAN, 2.5};
  auto v = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.5, 0.0});
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.worst_index == 0);
}

TEST_CASE("describe shows matrix positions as row and column") {
  std::vector<int> got{0, 0, 0, 0, 0, 9}, expected(6, 0);
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_THAT(v.describe(3), Contains("[1][2]"));
}
