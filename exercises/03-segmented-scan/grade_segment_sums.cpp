// Grading test of exercise 03-B (one sum per segment). Built twice: against
// solutions/03-segmented-scan/segment_sums.cu (every case must pass) and against your
// exercises/03-segmented-scan/segment_sums.cu.
// Run it with:   ./course grade 03 segment_sums
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "course/test_sizes.h"
#include "exercise_support.h"
#include "segment_sums.h"

using exercise03::SegmentSumsExercise;
using segscan::Pattern;

namespace {
void require_sums(const segscan::Problem<float>& p, const char* what) {
  const exercise03::SegmentSums expected = SegmentSumsExercise::reference(p);
  const std::vector<float> got = course::run_once<SegmentSumsExercise>(p);
  const course::Verdict v = SegmentSumsExercise::compare(got, expected);
  INFO(what << ", n = " << p.values.size() << ", " << expected.expected.size() << " segments: " << v.describe());
  REQUIRE(v.pass);
}

segscan::Problem<float> problem(std::size_t n, Pattern pattern, std::uint64_t seed) {
  return segscan::make_problem<float>(n, segscan::Operator::Sum, pattern, seed);
}
}  // namespace

TEST_CASE("segment_sums: awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) require_sums(problem(n, Pattern::Random, seed), "random segments");
}

TEST_CASE("segment_sums: one giant segment, all segments of length 1, long and short mixed") {
  for (std::size_t n : {std::size_t{33}, std::size_t{1000}, std::size_t{999983}}) {
    require_sums(problem(n, Pattern::Single, 4), "one segment");
    require_sums(problem(n, Pattern::Ones, 5), "segments of length 1");
    require_sums(problem(n, Pattern::Mixed, 6), "mixed segments");
  }
}

TEST_CASE("segment_sums: segments that start or end on block boundaries") {
  segscan::Problem<float> p = problem(4096 + 3, Pattern::Single, 7);
  for (std::size_t i = 0; i < p.flags.size(); ++i) p.flags[i] = i % 256 == 0 || i % 256 == 255 || i == 1;
  require_sums(p, "heads at 0, 1, 255, 256, ...");
}

TEST_CASE("segment_sums: 60 million elements") {
  require_sums(problem(segscan::kDefaultCount, Pattern::Random, 8), "random segments");
  require_sums(problem(segscan::kDefaultCount, Pattern::Single, 9), "one segment");
}
