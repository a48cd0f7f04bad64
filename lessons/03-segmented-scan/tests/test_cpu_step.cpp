// Tests of lesson 03's CPU step: the sequential scan must pass the lesson's check for every element
// type, operator and segment pattern, and give the worked example of the README exactly.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "course/test_sizes.h"
#include "segmented_scan.h"

using segscan::kThisStep;
using segscan::Pattern;

TEST_CASE("every type, operator and segment pattern on awkward sizes") {
  for (auto type : {segscan::ValueType::Int32, segscan::ValueType::UInt32, segscan::ValueType::Float,
                    segscan::ValueType::Double, segscan::ValueType::Int64, segscan::ValueType::UInt64})
    for (auto op : {segscan::Operator::Sum, segscan::Operator::Max, segscan::Operator::Min, segscan::Operator::Product})
      segscan::with_scan_types(segscan::Scan{type, op}, [&](auto value, auto o) {
        using T = decltype(value);
        using Op = decltype(o);
        for (Pattern pattern : {Pattern::Random, Pattern::Single, Pattern::Ones, Pattern::Mixed})
          for (std::size_t n : course::awkward_sizes()) {
            const segscan::Problem<T> p = segscan::make_problem<T>(n, op, pattern, n + 3);
            const std::vector<T> got = segscan::run_cpu_once<T, Op>(kThisStep, p);
            const course::Verdict v = segscan::check<T, Op>(p, got.data());
            INFO(segscan::name_of(type) << " " << segscan::name_of(op) << ", n = " << n << ", "
                                        << segscan::name_of(pattern) << ": " << v.describe());
            REQUIRE(v.pass);
          }
      });
}

TEST_CASE("the worked example: four segments, summed") {
  segscan::Problem<std::int32_t> p;
  p.values = {10, 3, 2, 1, 3, 4, 9, 5, 0, 11};
  p.flags = {1, 0, 0, 1, 0, 0, 0, 1, 0, 1};
  REQUIRE(segscan::run_cpu_once<std::int32_t, segscan::Sum>(kThisStep, p) ==
          std::vector<std::int32_t>{10, 13, 15, 1, 4, 8, 17, 5, 5, 11});
  REQUIRE(segscan::run_cpu_once<std::int32_t, segscan::Max>(kThisStep, p) ==
          std::vector<std::int32_t>{10, 10, 10, 1, 3, 4, 9, 5, 5, 11});
}

TEST_CASE("the first element starts a segment whatever its flag") {
  segscan::Problem<float> p;
  p.values = {2.0f, 3.0f, 4.0f};
  p.flags = {0, 0, 1};
  REQUIRE(segscan::run_cpu_once<float, segscan::Product>(kThisStep, p) == std::vector<float>{2.0f, 6.0f, 4.0f});
}
