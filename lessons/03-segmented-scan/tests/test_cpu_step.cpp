// Tests of one CPU step of lesson 03, built once per step (lesson03_NN_..._test): the scan must pass
// the lesson's check for every element type, operator and segment pattern, and give the worked example
// of the README exactly. The step on every core (step 02) runs each case on 1, 2, 3, 7 and 64 threads,
// so that its chunks meet every kind of boundary, on sizes below the thread count too (then some
// chunks hold one element).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "course/device.h"
#include "course/test_sizes.h"
#include "segmented_scan.h"

using segscan::kThisStep;
using segscan::Pattern;

namespace {

// The thread counts a case runs on: several for the step on every core; one run otherwise, on whatever
// the count is (0 leaves it as it is), as for the sequential step or a build without OpenMP.
std::vector<int> thread_counts() {
#ifdef _OPENMP
  if (segscan::Lesson::every_core(kThisStep)) return {1, 2, 3, 7, 64};
#endif
  return {0};
}

// Sets the CPU steps' thread count for a scope, and gives the previous count back at its end.
class CpuThreads {
 public:
  explicit CpuThreads(int threads) : previous_(course::cpu_threads()) { course::set_cpu_threads(threads); }
  ~CpuThreads() { course::set_cpu_threads(previous_); }
  CpuThreads(const CpuThreads&) = delete;
  CpuThreads& operator=(const CpuThreads&) = delete;

 private:
  int previous_;
};

// The awkward sizes, and sizes around the largest thread count: fewer elements than threads, as many,
// one more.
std::vector<std::size_t> sizes() {
  std::vector<std::size_t> all = course::awkward_sizes();
  for (int n : {3, 6, 7, 8, 63, 64, 65}) all.push_back(static_cast<std::size_t>(n));
  return all;
}

}  // namespace

TEST_CASE("every type, operator and segment pattern on awkward sizes and thread counts") {
  for (auto type : {segscan::ValueType::Int32, segscan::ValueType::UInt32, segscan::ValueType::Float,
                    segscan::ValueType::Double, segscan::ValueType::Int64, segscan::ValueType::UInt64})
    for (auto op : {segscan::Operator::Sum, segscan::Operator::Max, segscan::Operator::Min, segscan::Operator::Product})
      segscan::with_scan_types(segscan::Scan{type, op}, [&](auto value, auto o) {
        using T = decltype(value);
        using Op = decltype(o);
        for (Pattern pattern : {Pattern::Random, Pattern::Single, Pattern::Ones, Pattern::Mixed})
          for (std::size_t n : sizes()) {
            const segscan::Problem<T> p = segscan::make_problem<T>(n, op, pattern, n + 3);
            for (int threads : thread_counts()) {
              const CpuThreads on(threads);
              const std::vector<T> got = segscan::run_cpu_once<T, Op>(kThisStep, p);
              const course::Verdict v = segscan::check<T, Op>(p, got.data());
              INFO("step " << kThisStep.number << ", " << segscan::name_of(type) << " " << segscan::name_of(op)
                           << ", n = " << n << ", " << segscan::name_of(pattern) << ", threads " << threads << ": "
                           << v.describe());
              REQUIRE(v.pass);
            }
          }
      });
}

TEST_CASE("the worked example: four segments, summed") {
  segscan::Problem<std::int32_t> p;
  p.values = {10, 3, 2, 1, 3, 4, 9, 5, 0, 11};
  p.flags = {1, 0, 0, 1, 0, 0, 0, 1, 0, 1};
  for (int threads : thread_counts()) {
    const CpuThreads on(threads);
    INFO("threads " << threads);
    REQUIRE(segscan::run_cpu_once<std::int32_t, segscan::Sum>(kThisStep, p) ==
            std::vector<std::int32_t>{10, 13, 15, 1, 4, 8, 17, 5, 5, 11});
    REQUIRE(segscan::run_cpu_once<std::int32_t, segscan::Max>(kThisStep, p) ==
            std::vector<std::int32_t>{10, 10, 10, 1, 3, 4, 9, 5, 5, 11});
  }
}

TEST_CASE("the first element starts a segment whatever its flag") {
  segscan::Problem<float> p;
  p.values = {2.0f, 3.0f, 4.0f};
  p.flags = {0, 0, 1};
  for (int threads : thread_counts()) {
    const CpuThreads on(threads);
    INFO("threads " << threads);
    REQUIRE(segscan::run_cpu_once<float, segscan::Product>(kThisStep, p) == std::vector<float>{2.0f, 6.0f, 4.0f});
  }
}

TEST_CASE("a segment that runs through several chunks carries its value across each") {
  // One segment of 1000 ones: element i is i + 1 exactly, whatever the chunks; then a head in the middle
  // of it restarts the count there, and the chunks after it continue the new segment.
  segscan::Problem<std::int64_t> p;
  p.values.assign(1000, 1);
  p.flags.assign(1000, 0);
  std::vector<std::int64_t> expected(1000);
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<std::int64_t>(i) + 1;
  for (int threads : thread_counts()) {
    const CpuThreads on(threads);
    INFO("threads " << threads);
    REQUIRE(segscan::run_cpu_once<std::int64_t, segscan::Sum>(kThisStep, p) == expected);
  }
  p.flags[500] = 1;
  for (std::size_t i = 500; i < expected.size(); ++i) expected[i] = static_cast<std::int64_t>(i) - 499;
  for (int threads : thread_counts()) {
    const CpuThreads on(threads);
    INFO("threads " << threads << ", a head at 500");
    REQUIRE(segscan::run_cpu_once<std::int64_t, segscan::Sum>(kThisStep, p) == expected);
  }
}
