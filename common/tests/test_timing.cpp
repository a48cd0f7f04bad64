// Tests of the timing statistics and the CPU timer: medians, warm-up and repetitions, untimed preparation.
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
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
  REQUIRE(t.min_ms == 1.0);
  REQUIRE(t.max_ms == 10.0);
  REQUIRE(t.reps == 4);
}

TEST_CASE("from_samples is not moved by one outlier") {
  auto t = course::TimingStats::from_samples({2.0, 2.1, 1.9, 2.0, 500.0});
  REQUIRE(t.median_ms == 2.0);
  REQUIRE(t.max_ms == 500.0);
  REQUIRE(t.min_ms == 1.9);
}

TEST_CASE("from_samples of one sample is that sample") {
  auto t = course::TimingStats::from_samples({0.25});
  REQUIRE(t.median_ms == 0.25);
  REQUIRE(t.min_ms == 0.25);
  REQUIRE(t.max_ms == 0.25);
  REQUIRE(t.reps == 1);
  auto two = course::TimingStats::from_samples({7.0, 7.0});
  REQUIRE(two.median_ms == 7.0);
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

TEST_CASE("time_cpu prepares before every run and never twice in a row") {
  course::TimingOptions options;
  options.warmup = 1;
  options.reps = 3;
  std::string order;
  course::time_cpu([&] { order += 'r'; }, options, [&] { order += 'p'; });
  REQUIRE(order == "prprprpr");
}

TEST_CASE("time_cpu works without preparation or warm-up") {
  course::TimingOptions options;
  options.warmup = 0;
  options.reps = 1;
  int runs = 0;
  auto t = course::time_cpu([&] { ++runs; }, options);
  REQUIRE(runs == 1);
  REQUIRE(t.reps == 1);
}

TEST_CASE("time_cpu measures the run in milliseconds") {
  course::TimingOptions options;
  options.warmup = 0;
  options.reps = 3;
  auto t = course::time_cpu([] { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }, options);
  REQUIRE(t.min_ms >= 3.0);  // a sleep lasts at least as long as asked
  REQUIRE(t.median_ms < 1000.0);  // milliseconds, not microseconds
}

TEST_CASE("time_cpu does not time the preparation") {
  course::TimingOptions options;
  options.warmup = 0;
  options.reps = 5;
  auto t = course::time_cpu([] {}, options, [] { std::this_thread::sleep_for(std::chrono::milliseconds(3)); });
  REQUIRE(t.median_ms < 1.5);
}

TEST_CASE("time_cpu rejects zero repetitions and negative warm-up without running") {
  course::TimingOptions options;
  int runs = 0;
  options.reps = 0;
  REQUIRE_THROWS_AS(course::time_cpu([&] { ++runs; }, options), std::invalid_argument);
  options.reps = -3;
  REQUIRE_THROWS_AS(course::time_cpu([&] { ++runs; }, options), std::invalid_argument);
  options.reps = 1;
  options.warmup = -1;
  REQUIRE_THROWS_AS(course::time_cpu([&] { ++runs; }, options), std::invalid_argument);
  REQUIRE(runs == 0);
}
