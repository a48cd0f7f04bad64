#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "course/timing.h"

TEST_CASE("from_samples takes the middle of an odd count") {
  auto t = course::TimingStats::from_samples({5.0, 1.0, 3.0});
  REQUIRE(t.median_ms == 3.0);
  REQUIRE(t.min_ms == 1.0);
  REQUIRE(t.max_ms == 5.0);
  REQUIRE(t.reps == 3);
}

TEST_CASE("from_samples averages the middle two of an even count") {
  auto t = course::TimingStats::from_samples({4.0, 1.0, 2.0, 10.0});
  REQUIRE(t.median_ms == 3.0);
  REQUIRE(t.reps == 4);
}

TEST_CASE("from_samples rejects an empty set") {
  REQUIRE_THROWS_AS(course::TimingStats::from_samples({}), std::invalid_argument);
}

TEST_CASE("time_cpu runs warm-up and repetitions and prepares each run") {
  course::TimingOptions options;
  options.warmup = 2;
  options.reps = 5;
  int runs = 0, preparations = 0;
  auto t = course::time_cpu([&] { ++runs; }, options, [&] { ++preparations; });
  REQUIRE(runs == 7);
  REQUIRE(preparations == 7);
  REQUIRE(t.reps == 5);
  REQUIRE(t.min_ms >= 0.0);
  REQUIRE(t.min_ms <= t.median_ms);
  REQUIRE(t.median_ms <= t.max_ms);
}

TEST_CASE("time_cpu rejects zero repetitions and negative warm-up") {
  course::TimingOptions options;
  options.reps = 0;
  REQUIRE_THROWS_AS(course::time_cpu([] {}, options), std::invalid_argument);
  options.reps = 1;
  options.warmup = -1;
  REQUIRE_THROWS_AS(course::time_cpu([] {}, options), std::invalid_argument);
}
