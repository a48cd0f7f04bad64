// Tests of the seeded input data: reproducible, strictly inside open intervals, inclusive integer
// ranges, roughly uniform, and invalid ranges rejected.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

#include "course/data.h"

namespace {
constexpr std::int64_t kMin64 = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax64 = std::numeric_limits<std::int64_t>::max();

// Counts of @p values in @p bins equal slices of (low, high).
template <class T>
std::vector<std::size_t> histogram(const std::vector<T>& values, double low, double high, std::size_t bins) {
  std::vector<std::size_t> counts(bins);
  for (T x : values) {
    auto b = static_cast<std::size_t>((static_cast<double>(x) - low) / (high - low) * bins);
    ++counts[std::min(b, bins - 1)];
  }
  return counts;
}
}  // namespace

TEST_CASE("the same seed gives the same floats") {
  REQUIRE(course::uniform_floats(1000, -1.0f, 1.0f, 42) == course::uniform_floats(1000, -1.0f, 1.0f, 42));
  REQUIRE(course::uniform_doubles(1000, 0.0, 5.0, 42) == course::uniform_doubles(1000, 0.0, 5.0, 42));
  REQUIRE(course::uniform_integers(1000, -9, 9, 42) == course::uniform_integers(1000, -9, 9, 42));
}

TEST_CASE("different seeds give different data") {
  auto a = course::uniform_floats(1000, -1.0f, 1.0f, 42);
  auto b = course::uniform_floats(1000, -1.0f, 1.0f, 43);
  std::size_t same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  REQUIRE(same < 5);
  auto c = course::uniform_integers(1000, kMin64, kMax64, 1);
  auto d = course::uniform_integers(1000, kMin64, kMax64, 2);
  REQUIRE(c != d);
}

TEST_CASE("doubles drawn are all distinct") {
  auto v = course::uniform_doubles(10000, 0.0, 1.0, 17);
  REQUIRE(std::set<double>(v.begin(), v.end()).size() == v.size());
}

TEST_CASE("a prefix of a longer array is the shorter array") {
  auto shorter = course::uniform_floats(100, -1.0f, 1.0f, 7);
  auto longer = course::uniform_floats(1000, -1.0f, 1.0f, 7);
  REQUIRE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
}

TEST_CASE("no elements asked gives an empty array") {
  REQUIRE(course::uniform_floats(0, 0.0f, 1.0f, 1).empty());
  REQUIRE(course::uniform_integers(0, 0, 1, 1).empty());
}

TEST_CASE("floats stay strictly inside the open interval and spread over it") {
  const float low = 2.0f, high = 3.0f;
  auto v = course::uniform_floats(200000, low, high, 3);
  double sum = 0;
  std::size_t outside = 0;
  for (float x : v) {
    outside += !(x > low && x < high);
    sum += x;
  }
  REQUIRE(outside == 0);
  REQUIRE(sum / v.size() == Approx(2.5).margin(0.005));
  // Each tenth of the interval holds about a tenth of the values (expected 20000, sd about 134).
  for (std::size_t count : histogram(v, low, high, 10)) {
    REQUIRE(count > 19000);
    REQUIRE(count < 21000);
  }
}

TEST_CASE("floats around zero fill both halves of the interval") {
  auto v = course::uniform_floats(100000, -1.0f, 1.0f, 4);
  auto below_zero = std::count_if(v.begin(), v.end(), [](float x) { return x < 0; });
  REQUIRE(below_zero > 49000);
  REQUIRE(below_zero < 51000);
  REQUIRE(*std::min_element(v.begin(), v.end()) < -0.999f);
  REQUIRE(*std::max_element(v.begin(), v.end()) > 0.999f);
}

TEST_CASE("an interval holding only a few floats yields only those floats") {
  // Only two floats lie strictly between these bounds, so rounding often lands on a bound.
  const float low = 1.0f;
  const float inside1 = std::nextafter(low, 2.0f);
  const float inside2 = std::nextafter(inside1, 2.0f);
  const float high = std::nextafter(inside2, 2.0f);
  auto v = course::uniform_floats(10000, low, high, 5);
  REQUIRE(std::all_of(v.begin(), v.end(), [&](float x) { return x == inside1 || x == inside2; }));
  REQUIRE(std::count(v.begin(), v.end(), inside1) > 1000);
  REQUIRE(std::count(v.begin(), v.end(), inside2) > 1000);
}

TEST_CASE("an interval holding a single float yields that float") {
  const float low = -1.0f, middle = std::nextafter(low, 0.0f), high = std::nextafter(middle, 0.0f);
  auto v = course::uniform_floats(1000, low, high, 6);
  REQUIRE(std::all_of(v.begin(), v.end(), [&](float x) { return x == middle; }));
}

TEST_CASE("an interval with no float strictly inside is rejected") {
  const float high = std::nextafter(1.0f, 2.0f);
  REQUIRE_THROWS_AS(course::uniform_floats(10, 1.0f, high, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_floats(10, 0.0f, std::numeric_limits<float>::denorm_min(), 1),
                    std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_doubles(10, 1.0, std::nextafter(1.0, 2.0), 1), std::invalid_argument);
}

TEST_CASE("floats over the widest finite interval are finite and take both signs") {
  const float big = std::numeric_limits<float>::max();
  auto v = course::uniform_floats(1000, -big, big, 8);
  REQUIRE(std::all_of(v.begin(), v.end(), [&](float x) { return std::isfinite(x) && x > -big && x < big; }));
  REQUIRE(std::any_of(v.begin(), v.end(), [](float x) { return x < 0; }));
  REQUIRE(std::any_of(v.begin(), v.end(), [](float x) { return x > 0; }));
}

TEST_CASE("doubles stay strictly inside the open interval and spread over it") {
  auto v = course::uniform_doubles(100000, -10.0, 30.0, 9);
  REQUIRE(std::all_of(v.begin(), v.end(), [](double x) { return x > -10.0 && x < 30.0; }));
  double mean = 0;
  for (double x : v) mean += x / v.size();
  REQUIRE(mean == Approx(10.0).margin(0.2));
  for (std::size_t count : histogram(v, -10.0, 30.0, 4)) {
    REQUIRE(count > 24000);
    REQUIRE(count < 26000);
  }
}

TEST_CASE("integers hit both ends of the closed range and never leave it") {
  auto v = course::uniform_integers(70000, -3, 3, 11);
  REQUIRE(*std::min_element(v.begin(), v.end()) == -3);
  REQUIRE(*std::max_element(v.begin(), v.end()) == 3);
  // Each of the seven values about 10000 times (sd about 93).
  for (std::int64_t k = -3; k <= 3; ++k) {
    auto count = std::count(v.begin(), v.end(), k);
    REQUIRE(count > 9500);
    REQUIRE(count < 10500);
  }
}

TEST_CASE("a range of one integer yields that integer") {
  auto single = course::uniform_integers(10, 5, 5, 1);
  REQUIRE(single == std::vector<std::int64_t>(10, 5));
  auto top = course::uniform_integers(10, kMax64, kMax64, 1);
  REQUIRE(top == std::vector<std::int64_t>(10, kMax64));
}

TEST_CASE("integers at the ends of the 64-bit range hit both values") {
  auto top = course::uniform_integers(1000, kMax64 - 1, kMax64, 12);
  REQUIRE(std::count(top.begin(), top.end(), kMax64) > 400);
  REQUIRE(std::count(top.begin(), top.end(), kMax64 - 1) > 400);
  auto bottom = course::uniform_integers(1000, kMin64, kMin64 + 1, 12);
  REQUIRE(std::count(bottom.begin(), bottom.end(), kMin64) > 400);
  REQUIRE(std::count(bottom.begin(), bottom.end(), kMin64 + 1) > 400);
}

TEST_CASE("integers over the full 64-bit range take both signs evenly") {
  auto v = course::uniform_integers(10000, kMin64, kMax64, 13);
  auto negative = std::count_if(v.begin(), v.end(), [](std::int64_t x) { return x < 0; });
  REQUIRE(negative > 4700);
  REQUIRE(negative < 5300);
  REQUIRE(std::set<std::int64_t>(v.begin(), v.end()).size() == v.size());
  // Values near both ends occur: the top and bottom eighths of the range.
  REQUIRE(std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x > kMax64 - (kMax64 >> 3); }));
  REQUIRE(std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x < kMin64 - (kMin64 >> 3); }));
}

TEST_CASE("empty or reversed ranges are rejected") {
  REQUIRE_THROWS_AS(course::uniform_floats(1, 1.0f, 1.0f, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_floats(1, 2.0f, 1.0f, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_floats(1, 0.0f, NAN, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_doubles(1, 2.0, 1.0, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_doubles(1, NAN, 1.0, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_integers(1, 2, 1, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_integers(1, kMax64, kMin64, 1), std::invalid_argument);
}

TEST_CASE("open_unit is never 0 nor 1 and averages one half") {
  course::CounterRng rng(0);
  std::size_t outside = 0;
  double sum = 0;
  const std::uint64_t n = 100000;
  for (std::uint64_t i = 0; i < n; ++i) {
    double u = rng.open_unit(i);
    outside += !(u > 0.0 && u < 1.0);
    sum += u;
  }
  REQUIRE(outside == 0);
  REQUIRE(sum / n == Approx(0.5).margin(0.005));
}

TEST_CASE("CounterRng depends on the seed and the index alone") {
  course::CounterRng a(5), b(5), c(6);
  REQUIRE(a.bits(123) == b.bits(123));
  REQUIRE(a.bits(123) != c.bits(123));
  REQUIRE(a.bits(123) != a.bits(124));
  REQUIRE(a.open_unit(9) == b.open_unit(9));
}

TEST_CASE("mix is a bijection on a sample of inputs") {
  std::set<std::uint64_t> seen;
  for (std::uint64_t x = 0; x < 10000; ++x) seen.insert(course::CounterRng::mix(x));
  REQUIRE(seen.size() == 10000);
}
