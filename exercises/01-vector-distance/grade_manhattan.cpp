// Grading test of exercise 01-A (Manhattan distances). Built twice: against
// solutions/01-vector-distance/manhattan.cu (every case must pass) and against your
// exercises/01-vector-distance/manhattan.cu.
// Run it with:   ./course grade 01 manhattan
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "exercise_support.h"
#include "manhattan.h"

using exercise01::ManhattanExercise;

namespace {
void require_manhattan(const exercise01::Problem<float>& p) {
  // Within the lesson's direct-form tolerance (ManhattanExercise::check).
  const course::CheckResult result = ManhattanExercise::check(p, course::run_once<ManhattanExercise>(p));
  INFO("A " << p.m << " x " << p.n << ", B " << p.k << " x " << p.n << ": " << result.detail);
  REQUIRE(result.pass);
}
}  // namespace

TEST_CASE("manhattan: awkward and lopsided shapes, several seeds") {
  const std::vector<std::array<std::size_t, 3>> shapes{{1, 1, 1},    {2, 2, 2},       {17, 17, 17},
                                                       {33, 33, 33}, {1, 4097, 3},    {4097, 1, 3},
                                                       {1000, 999, 65}, {3, 5, 4097}, {1000, 1000, 1000}};
  for (const auto& s : shapes)
    for (std::uint64_t seed : {1, 2, 3}) require_manhattan(distance::make_problem<float>(s[0], s[1], s[2], seed));
}

TEST_CASE("manhattan: vectors far from the origin") {
  require_manhattan(distance::make_problem<float>(300, 200, 1024, 4, 100.0));
}

TEST_CASE("manhattan: identical rows are at distance 0") {
  distance::Problem<float> p = distance::make_problem<float>(40, 30, 77, 5);
  std::copy(p.a.begin(), p.a.begin() + 10 * 77, p.b.begin() + 5 * 77);  // rows 0-9 of A are rows 5-14 of B
  require_manhattan(p);
}

TEST_CASE("manhattan: the default size") {
  require_manhattan(distance::make_problem<float>(distance::kDefaultSize, distance::kDefaultSize,
                                                 distance::kDefaultSize, 6));
}
