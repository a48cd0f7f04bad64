// Tests of one GPU step of lesson 03, built once per step (lesson03_NN_..._test): for every element
// type and operator, on awkward sizes, every segment pattern and several seeds, the step's result must
// pass the lesson's check (integers, max and min exactly; floating-point sums and products within the
// stated tolerance).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "course/test_sizes.h"
#include "segmented_scan.h"

using segscan::kThisStep;
using segscan::Pattern;

namespace {

constexpr segscan::ValueType kTypes[] = {segscan::ValueType::Int32, segscan::ValueType::UInt32,
                                         segscan::ValueType::Float,  segscan::ValueType::Double,
                                         segscan::ValueType::Int64, segscan::ValueType::UInt64};
constexpr segscan::Operator kOperators[] = {segscan::Operator::Sum, segscan::Operator::Max, segscan::Operator::Min,
                                            segscan::Operator::Product};

template <class T, class Op>
void require_step_matches(std::size_t n, Pattern pattern, std::uint64_t seed,
                          const segscan::LaunchPlan& requested = {}) {
  const segscan::Scan scan = segscan::scan_of<T, Op>();
  const segscan::Problem<T> p = segscan::make_problem<T>(n, scan.op, pattern, seed);
  const std::vector<T> got = segscan::run_gpu_once<T, Op>(kThisStep, p, requested);
  const course::Verdict v = segscan::check<T, Op>(p, got.data());
  INFO("step " << kThisStep.number << ", " << segscan::name_of(scan.type) << " " << segscan::name_of(scan.op)
               << ", n = " << n << ", " << segscan::name_of(pattern) << " segments, seed " << seed << ", threads "
               << requested.threads << ", items " << requested.items << ", padding " << requested.padding
               << ", scalar loads " << requested.scalar_loads << ", staged loads " << requested.staged_loads
               << ", prefetch tiles " << requested.prefetch_tiles << ": "
               << v.describe());
  REQUIRE(v.pass);
}

void require_every_type_and_operator(std::size_t n, Pattern pattern, std::uint64_t seed,
                                     const segscan::LaunchPlan& requested = {}) {
  for (segscan::ValueType type : kTypes)
    for (segscan::Operator op : kOperators)
      segscan::with_scan_types(segscan::Scan{type, op}, [&](auto value, auto o) {
        require_step_matches<decltype(value), decltype(o)>(n, pattern, seed, requested);
      });
}

}  // namespace

TEST_CASE("every type and operator on awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds())
      if (n < 100000 || seed == course::test_seeds().front()) require_every_type_and_operator(n, Pattern::Random, seed);
}

TEST_CASE("every type and operator on every segment pattern") {
  for (Pattern pattern : {Pattern::Single, Pattern::Ones, Pattern::Mixed})
    for (std::size_t n : {std::size_t{2}, std::size_t{33}, std::size_t{1000}, std::size_t{999983}})
      require_every_type_and_operator(n, pattern, 4);
}

TEST_CASE("sizes on both sides of tile and level boundaries") {
  // Tiles of the blocked steps hold 512 to 16384 elements; the totals of 2^20 elements need a second
  // level of totals in the three-kernel steps.
  for (std::size_t base : {256, 1024, 2048, 4096, 8192, 16384, 65536, 1 << 20, 1 << 22})
    for (std::size_t n : {base - 1, base, base + 1})
      for (Pattern pattern : {Pattern::Single, Pattern::Random}) {
        require_step_matches<float, segscan::Sum>(n, pattern, 5);
        require_step_matches<std::int32_t, segscan::Sum>(n, pattern, 6);
        require_step_matches<double, segscan::Max>(n, pattern, 7);
      }
}

TEST_CASE("60 million elements: float sums on every pattern, int64 and uint32 on one giant segment") {
  for (Pattern pattern : {Pattern::Random, Pattern::Single, Pattern::Ones, Pattern::Mixed})
    require_step_matches<float, segscan::Sum>(segscan::kDefaultCount, pattern, 8);
  require_step_matches<std::int64_t, segscan::Sum>(segscan::kDefaultCount, Pattern::Single, 9);
  require_step_matches<std::uint32_t, segscan::Product>(segscan::kDefaultCount, Pattern::Single, 10);
}

TEST_CASE("every launch configuration the step accepts gives the same answer") {
  std::vector<segscan::LaunchPlan> plans{segscan::LaunchPlan{}};
  if (kThisStep.options & segscan::kThreadsOption)
    for (int threads : {32, 64, 96, 128, 512, 1024}) {
      segscan::LaunchPlan r;
      r.threads = threads;
      plans.push_back(r);
    }
  if (kThisStep.options & segscan::kItemsOption)
    for (int items : {8, 16, 32}) {
      segscan::LaunchPlan r;
      r.items = items;
      plans.push_back(r);
    }
  if (kThisStep.options & segscan::kPaddingOption) {
    segscan::LaunchPlan r;
    r.padding = false;
    plans.push_back(r);
  }
  if (kThisStep.options & segscan::kScalarLoadsOption)
    for (int items : {8, 32}) {
      segscan::LaunchPlan r;
      r.items = items;
      r.scalar_loads = true;
      plans.push_back(r);
    }
  if (kThisStep.options & segscan::kStagedLoadsOption)
    for (int items : {8, 16, 32}) {
      segscan::LaunchPlan r;
      r.items = items;
      r.staged_loads = true;
      plans.push_back(r);
    }
  if (kThisStep.options & segscan::kPrefetchOption)
    for (int tiles : {0, 1, 7}) {
      segscan::LaunchPlan r;
      r.prefetch_tiles = tiles;
      plans.push_back(r);
    }
  for (const segscan::LaunchPlan& requested : plans)
    for (Pattern pattern : {Pattern::Single, Pattern::Mixed, Pattern::Random}) {
      require_step_matches<std::int32_t, segscan::Sum>(1000003, pattern, 11, requested);
      require_step_matches<double, segscan::Sum>(300007, pattern, 12, requested);
      require_step_matches<std::uint64_t, segscan::Min>(70001, pattern, 13, requested);
    }
}
