// Grading test of exercise 03-A (stream compaction). Built twice: against
// solutions/03-segmented-scan/compact.cu (every case must pass) and against your
// exercises/03-segmented-scan/compact.cu.
// Run it with:   ./course grade 03 compact
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "compact.h"
#include "course/data.h"
#include "course/test_sizes.h"
#include "exercise_support.h"

using exercise03::CompactExercise;

namespace {
void require_compaction(const std::vector<float>& values, const char* what) {
  const std::vector<float> expected = CompactExercise::reference(values);
  const exercise03::Compaction got = course::run_once<CompactExercise>(values);
  INFO(what << ", n = " << values.size() << ": count " << got.count << ", expected " << expected.size());
  REQUIRE(got.count == expected.size());
  const course::Verdict v = course::compare_exact(got.kept.data(), expected.data(), expected.size());
  INFO("kept elements: " << v.describe());
  REQUIRE(v.pass);
}
}  // namespace

TEST_CASE("compact_positive: awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) require_compaction(course::uniform_floats(n, -1.0f, 1.0f, seed), "random");
}

TEST_CASE("compact_positive: everything kept, or almost nothing") {
  for (std::size_t n : {std::size_t{1}, std::size_t{1025}, std::size_t{999983}}) {
    require_compaction(course::uniform_floats(n, 0.5f, 1.0f, 4), "all positive");
    std::vector<float> one(n, -1.0f);
    one[n / 2] = 2.0f;
    require_compaction(one, "one positive");
  }
}

TEST_CASE("compact_positive: zeros are not kept, and runs of kept and dropped elements") {
  std::vector<float> values(100003);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = (i / 777) % 2 ? static_cast<float>(i) : (i % 3 ? -1.0f : 0.0f);
  require_compaction(values, "runs");
}

TEST_CASE("compact_positive: 60 million elements") {
  require_compaction(course::uniform_floats(segscan::kDefaultCount, -1.0f, 1.0f, 5), "random");
}
