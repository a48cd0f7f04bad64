// Tests of result verification: exact and tolerant comparisons, the worst element they report, NaN
// never passing, and the one-line description.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "course/verify.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("compare_exact passes equal integers") {
  std::vector<std::int32_t> a{1, -2, 3}, b{1, -2, 3};
  auto v = course::compare_exact(a.data(), b.data(), a.size());
  REQUIRE(v.pass);
  REQUIRE(v.checked == 3);
  REQUIRE(v.mismatches == 0);
}

TEST_CASE("compare_exact passes an empty comparison") {
  auto v = course::compare_exact<int>(nullptr, nullptr, 0);
  REQUIRE(v.pass);
  REQUIRE(v.checked == 0);
}

TEST_CASE("compare_exact finds the worst of several integer mismatches") {
  std::vector<std::int64_t> got{0, 10, 2, 7, 4}, expected{0, 1, 2, 3, 4};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.checked == 5);
  REQUIRE(v.mismatches == 2);
  REQUIRE(v.worst_index == 1);
  REQUIRE(v.got == 10);
  REQUIRE(v.expected == 1);
  REQUIRE(v.error == 9);
  REQUIRE(v.allowed == 0);
}

TEST_CASE("compare_exact measures unsigned errors in either direction") {
  std::vector<std::uint32_t> got{5, 0}, expected{3, 4000000000u};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE(v.mismatches == 2);
  REQUIRE(v.worst_index == 1);
  REQUIRE(v.got == 0);
  REQUIRE(v.expected == 4000000000.0);
  REQUIRE(v.error == 4000000000.0);
}

TEST_CASE("compare_exact passes equal floats and fails one unit in the last place") {
  std::vector<float> expected{1.5f, -0.0f, 3e38f};
  std::vector<float> same{1.5f, 0.0f, 3e38f};  // -0 and +0 compare equal
  REQUIRE(course::compare_exact(same.data(), expected.data(), 3).pass);
  std::vector<float> off{1.5f, 0.0f, std::nextafter(3e38f, 0.0f)};
  auto v = course::compare_exact(off.data(), expected.data(), 3);
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.worst_index == 2);
  REQUIRE(v.got == static_cast<double>(off[2]));
  REQUIRE(v.expected == static_cast<double>(3e38f));
}

TEST_CASE("compare_exact fails NaN even against NaN") {
  std::vector<float> got{1.0f, NAN}, expected{1.0f, NAN};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.worst_index == 1);
  REQUIRE(std::isinf(v.error));
}

TEST_CASE("compare_exact reports a NaN as worse than any finite mismatch") {
  std::vector<double> got{1e300, NAN, 0.0}, expected{-1e300, 0.0, 1.0};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE(v.mismatches == 3);
  REQUIRE(v.worst_index == 1);
  REQUIRE(std::isnan(v.got));
  REQUIRE_THAT(v.describe(), Contains("got nan"));
}

TEST_CASE("compare_exact fails 64-bit integers that differ though they round to the same double") {
  const std::int64_t big = (std::int64_t{1} << 60) + 1;
  std::vector<std::int64_t> got{big, 5}, expected{big - 1, 5};  // both are 2^60 as doubles
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.worst_index == 0);
}

TEST_CASE("Verdict::add keeps the largest error over its allowance, the larger error among equal shares") {
  course::Verdict v;
  v.add(0, 1.0, 1.0, 0.5);    // share 0
  v.add(1, 1.4, 1.0, 1.0);    // share 0.4
  v.add(2, 3.0, 1.0, 10.0);   // share 0.2: a larger error, a smaller share
  REQUIRE(v.pass);
  REQUIRE(v.worst_index == 1);
  v.add(3, 2.0, 1.0, 0.0);    // a mismatch with no allowance: share infinite
  v.add(4, 5.0, 1.0, 0.0);    // as infinite, with the larger error
  v.add(5, 9.0, 10.0, 0.0);   // as infinite, a smaller error
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 3);
  REQUIRE(v.worst_index == 4);
  REQUIRE(v.error == 4.0);
  REQUIRE(v.allowed == 0.0);
  v.add(6, 1.0, 1.0, 0.0, std::nan(""));  // an error the caller computed as NaN is a mismatch, the worst
  REQUIRE(v.mismatches == 4);
  REQUIRE(v.worst_index == 6);
  REQUIRE(std::isinf(v.error));
}

TEST_CASE("compare_close passes values within the absolute tolerance near zero") {
  std::vector<double> expected{0.0, 0.0};
  std::vector<float> got{1e-6f, -9e-6f};
  auto v = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{1e-5, 0.0});
  REQUIRE(v.pass);
  REQUIRE(v.mismatches == 0);
  REQUIRE(v.worst_index == 1);
  REQUIRE(v.error == Approx(9e-6));
}

TEST_CASE("compare_close applies absolute and relative tolerance together") {
  std::vector<double> expected{0.0, 100.0};
  course::Tolerance tol{1e-5, 1e-4};  // allowed: 1e-5 at zero, 1e-5 + 0.01 at 100
  std::vector<float> inside{1e-6f, 100.0f + 0.009f};
  REQUIRE(course::compare_close(inside.data(), expected.data(), 2, tol).pass);
  std::vector<float> outside_absolute{2e-5f, 100.0f};
  auto v = course::compare_close(outside_absolute.data(), expected.data(), 2, tol);
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.worst_index == 0);
  REQUIRE(v.allowed == Approx(1e-5));
  std::vector<float> outside_relative{0.0f, 100.02f};
  auto w = course::compare_close(outside_relative.data(), expected.data(), 2, tol);
  REQUIRE_FALSE(w.pass);
  REQUIRE(w.worst_index == 1);
  REQUIRE(w.allowed == Approx(0.01001));
}

TEST_CASE("compare_close scales the relative tolerance by the reference magnitude") {
  std::vector<double> expected{-1000.0, 1000.0};
  std::vector<double> got{-1000.9, 1000.9};  // 0.9 off, 1.0 allowed, whatever the sign
  REQUIRE(course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.0, 1e-3}).pass);
  REQUIRE_FALSE(course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.0, 1e-4}).pass);
}

TEST_CASE("compare_close picks the worst element relative to its allowance") {
  // Element 0 is off by 0.5 with an allowance of about 1 (ratio 0.5); element 1 by 0.02 with 0.01 (ratio 2).
  std::vector<double> expected{1000.0, 0.0};
  std::vector<double> got{1000.5, 0.02};
  auto v = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.01, 0.00099});
  REQUIRE(v.worst_index == 1);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.got == 0.02);
  REQUIRE(v.expected == 0.0);
  REQUIRE(v.error == Approx(0.02));
  REQUIRE(v.allowed == Approx(0.01));
}

TEST_CASE("compare_close counts every element outside the tolerance") {
  std::vector<double> expected(10, 1.0);
  std::vector<double> got{1.0, 2.0, 1.0, 3.0, 1.0, 1.0, 0.0, 1.0, 1.05, 1.0};
  auto v = course::compare_close(got.data(), expected.data(), got.size(), course::Tolerance{0.1, 0.0});
  REQUIRE(v.checked == 10);
  REQUIRE(v.mismatches == 3);
  REQUIRE(v.worst_index == 3);
}

TEST_CASE("compare_close fails NaN results and NaN references") {
  std::vector<double> expected{1.0, 2.0};
  std::vector<double> got{NAN, 2.5};
  auto v = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.5, 0.0});
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.worst_index == 0);
  REQUIRE(std::isinf(v.error));
  std::vector<double> nan_reference{NAN};
  std::vector<float> one{1.0f};
  REQUIRE_FALSE(course::compare_close(one.data(), nan_reference.data(), 1, course::Tolerance{1e9, 1.0}).pass);
}

TEST_CASE("compare_close fails an infinite result against a finite reference") {
  std::vector<double> expected{1.0};
  std::vector<float> got{std::numeric_limits<float>::infinity()};
  REQUIRE_FALSE(course::compare_close(got.data(), expected.data(), 1, course::Tolerance{1e30, 1.0}).pass);
}

TEST_CASE("compare_close passes an error exactly on the boundary") {
  // Values chosen so every error and allowance is exact in binary.
  std::vector<double> expected{2.0, 4.0};
  std::vector<double> on_absolute{2.5, 4.0};
  REQUIRE(course::compare_close(on_absolute.data(), expected.data(), 2, course::Tolerance{0.5, 0.0}).pass);
  std::vector<double> on_relative{2.0, 3.0};  // 0.25 of 4 is 1
  REQUIRE(course::compare_close(on_relative.data(), expected.data(), 2, course::Tolerance{0.0, 0.25}).pass);
  std::vector<double> on_both{2.0, 5.5};  // 0.5 + 0.25 * 4
  REQUIRE(course::compare_close(on_both.data(), expected.data(), 2, course::Tolerance{0.5, 0.25}).pass);
  std::vector<double> beyond{std::nextafter(2.5, 3.0), 4.0};
  REQUIRE_FALSE(course::compare_close(beyond.data(), expected.data(), 2, course::Tolerance{0.5, 0.0}).pass);
}

TEST_CASE("compare_close with zero tolerance demands equality") {
  std::vector<double> expected{1.0, 2.0};
  std::vector<double> same{1.0, 2.0};
  std::vector<double> off{1.0, std::nextafter(2.0, 3.0)};
  REQUIRE(course::compare_close(same.data(), expected.data(), 2, course::Tolerance{}).pass);
  auto v = course::compare_close(off.data(), expected.data(), 2, course::Tolerance{});
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.worst_index == 1);
}

TEST_CASE("describe says PASS with the count for an exact match") {
  std::vector<int> a{1, 2, 3};
  REQUIRE(course::compare_exact(a.data(), a.data(), 3).describe() == "PASS (3 values checked, exact)");
  REQUIRE(course::compare_exact(a.data(), a.data(), 1).describe() == "PASS (1 value checked, exact)");
}

TEST_CASE("describe gives the worst error of a tolerant pass") {
  std::vector<double> expected{1.0, 2.0}, got{1.0, 2.25};
  auto text = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.5, 0.0}).describe();
  REQUIRE_THAT(text, StartsWith("PASS (2 values checked") && Contains("within tolerance") && Contains("0.25"));
}

TEST_CASE("describe names the worst element of an exact failure") {
  std::vector<std::int64_t> got{0, 10, 2, 7}, expected{0, 1, 2, 3};
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE(v.describe() == "FAIL: 2 of 4 differ; worst at [1]: got 10, expected 1");
}

TEST_CASE("describe gives the error and the tolerance of a tolerant failure") {
  std::vector<double> expected{1.0, 2.0}, got{1.0, 3.5};
  auto text = course::compare_close(got.data(), expected.data(), 2, course::Tolerance{0.5, 0.0}).describe();
  REQUIRE_THAT(text, StartsWith("FAIL: 1 of 2 differ; worst at [1]: got 3.5, expected 2") &&
                         Contains("1.5") && Contains("tolerance 0.5"));
}

TEST_CASE("describe shows matrix positions as row and column") {
  std::vector<int> got{0, 0, 0, 0, 0, 9}, expected(6, 0);
  auto v = course::compare_exact(got.data(), expected.data(), got.size());
  REQUIRE_THAT(v.describe(3), Contains("worst at [1][2]"));
  REQUIRE_THAT(v.describe(2), Contains("worst at [2][1]"));
  REQUIRE_THAT(v.describe(6), Contains("worst at [0][5]"));
  REQUIRE_THAT(v.describe(), Contains("worst at [5]"));
}
