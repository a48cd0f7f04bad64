// Grading test of exercise 01-B (nearest neighbours, fused). Built twice: against
// solutions/01-vector-distance/nearest_neighbour.cu (every case must pass) and against your
// exercises/01-vector-distance/nearest_neighbour.cu.
// Run it with:   ./course grade 01 nearest_neighbour
#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "exercise_support.h"
#include "nearest_neighbour.h"

using exercise01::NearestNeighbourExercise;

namespace {
void require_nearest(const exercise01::Problem<std::int32_t>& p) {
  const exercise01::Nearest got = course::run_once<NearestNeighbourExercise>(p);
  const std::string wrong = NearestNeighbourExercise::compare(got, NearestNeighbourExercise::reference(p));
  INFO("A " << p.m << " x " << p.n << ", B " << p.k << " x " << p.n << ": " << wrong);
  REQUIRE(wrong.empty());
}

// Copies row `from` of `source` over row `to` of `target` (vectors of n elements).
void copy_row(const std::vector<std::int32_t>& source, std::size_t from, std::vector<std::int32_t>& target,
              std::size_t to, std::size_t n) {
  std::copy_n(source.begin() + static_cast<std::ptrdiff_t>(from * n), n,
              target.begin() + static_cast<std::ptrdiff_t>(to * n));
}
}  // namespace

TEST_CASE("nearest_neighbour: awkward and lopsided shapes, several seeds") {
  const std::vector<std::array<std::size_t, 3>> shapes{{1, 1, 1},    {2, 2, 2},       {17, 17, 17},
                                                       {33, 33, 33}, {1, 4097, 3},    {4097, 1, 3},
                                                       {1000, 999, 65}, {3, 5, 4097}, {1000, 1000, 1000}};
  for (const auto& s : shapes)
    for (std::uint64_t seed : {1, 2, 3}) require_nearest(distance::make_problem<std::int32_t>(s[0], s[1], s[2], seed));
}

TEST_CASE("nearest_neighbour: ties go to the smaller index") {
  // Only 7 different rows in B, each repeated: the nearest is always one of the first 7.
  exercise01::Problem<std::int32_t> p = distance::make_problem<std::int32_t>(500, 300, 20, 7);
  for (std::size_t j = 7; j < p.k; ++j) copy_row(p.b, j % 7, p.b, j, p.n);
  require_nearest(p);
  // Short vectors of few values: many rows of B at the same distance.
  require_nearest(distance::make_problem<std::int32_t>(300, 400, 1, 8));
}

TEST_CASE("nearest_neighbour: rows of A that are in B are at distance 0") {
  exercise01::Problem<std::int32_t> p = distance::make_problem<std::int32_t>(64, 200, 33, 9);
  for (std::size_t i = 0; i < 64; ++i) copy_row(p.a, i, p.b, 3 * i + 5, p.n);  // row i of A is row 3 i + 5 of B
  require_nearest(p);
}

TEST_CASE("nearest_neighbour: all values equal, every distance 0, so row 0 of B everywhere") {
  exercise01::Problem<std::int32_t> p = distance::make_problem<std::int32_t>(50, 70, 19, 10);
  std::fill(p.a.begin(), p.a.end(), 42);
  std::fill(p.b.begin(), p.b.end(), 42);
  require_nearest(p);
}

TEST_CASE("nearest_neighbour: the default size") {
  require_nearest(distance::make_problem<std::int32_t>(distance::kDefaultSize, distance::kDefaultSize,
                                                       distance::kDefaultSize, 11));
}
