#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "course/data.h"

TEST_CASE("the same seed gives the same data and another seed other data") {
  auto a = course::uniform_floats(1000, -1.0f, 1.0f, 42);
  auto b = course::uniform_floats(1000, -1.0f, 1.0f, 42);
  auto c = course::uniform_floats(1000, -1.0f, 1.0f, 43);
  REQUIRE(a == b);
  REQUIRE(a != c);
}

TEST_CASE("a prefix of a longer array is the shorter array") {
  auto shorter = course::uniform_floats(100, -1.0f, 1.0f, 7);
  auto longer = course::uniform_floats(1000, -1.0f, 1.0f, 7);
  REQUIRE(std::equal(shorter.begin(), shorter.end(), longer.begin()));
}

TEST_CASE("floats stay strictly inside the open interval and spread over it") {
  auto v = course::uniform_floats(200000, -1.0f, 1.0f, 3);
  double sum = 0;
  std::size_t below_zero = 0;
  std::size_t outside = 0;
  for (float x : v) {
    outside += !(x > -1.0f && x < 1.0f);
    sum += x;
    below_zero += x < 0;
  }
  REQUIRE(outside == 0);
  REQUIRE(std::fabs(sum / v.size()) < 0.01);
  REQUIRE(below_zero > 99000);
  REQUIRE(below_zero < 101000);
}

TEST_CASE("a narrow interval never yields its bounds") {
  // Only a few floats lie strictly between these bounds, so rounding often lands on a bound.
  const float low = 1.0f, high = std::nextafter(std::nextafter(std::nextafter(1.0f, 2.0f), 2.0f), 2.0f);
  auto v = course::uniform_floats(10000, low, high, 5);
  REQUIRE(std::all_of(v.begin(), v.end(), [&](float x) { return x > low && x < high; }));
}

TEST_CASE("doubles stay strictly inside the open interval") {
  auto v = course::uniform_doubles(10000, 2.0, 3.0, 9);
  REQUIRE(std::all_of(v.begin(), v.end(), [](double x) { return x > 2.0 && x < 3.0; }));
}

TEST_CASE("integers cover the closed range and never leave it") {
  auto v = course::uniform_integers(10000, -3, 3, 11);
  REQUIRE(*std::min_element(v.begin(), v.end()) == -3);
  REQUIRE(*std::max_element(v.begin(), v.end()) == 3);
  auto single = course::uniform_integers(10, 5, 5, 1);
  REQUIRE(std::all_of(single.begin(), single.end(), [](std::int64_t x) { return x == 5; }));
}

TEST_CASE("integers over the full 64-bit range take both signs") {
  auto v = course::uniform_integers(1000, std::numeric_limits<std::int64_t>::min(),
                                    std::numeric_limits<std::int64_t>::max(), 13);
  REQUIRE(std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x < 0; }));
  REQUIRE(std::any_of(v.begin(), v.end(), [](std::int64_t x) { return x > 0; }));
}

TEST_CASE("empty or reversed ranges are rejected") {
  REQUIRE_THROWS_AS(course::uniform_floats(1, 1.0f, 1.0f, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_doubles(1, 2.0, 1.0, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(course::uniform_integers(1, 2, 1, 1), std::invalid_argument);
}

TEST_CASE("open_unit is never 0 nor 1") {
  course::CounterRng rng(0);
  std::size_t outside = 0;
  for (std::uint64_t i = 0; i < 100000; ++i) {
    double u = rng.open_unit(i);
    outside += !(u > 0.0 && u < 1.0);
  }
  REQUIRE(outside == 0);
}
