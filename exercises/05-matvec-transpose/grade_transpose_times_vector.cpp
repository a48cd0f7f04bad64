// Grading test of exercise 05-A (y = A^T x, coalesced). Built twice: against
// solutions/05-matvec-transpose/transpose_times_vector.cu (every case must pass) and against your
// exercises/05-matvec-transpose/transpose_times_vector.cu.
// Run it with:   ./course grade 05 transpose_times_vector
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "exercise_support.h"
#include "transpose_times_vector.h"

using exercise05::TransposeTimesVectorExercise;

namespace {
void require_product(std::size_t rows, std::size_t columns, std::uint64_t seed) {
  const matvec::Problem p = TransposeTimesVectorExercise::problem(rows, columns, seed);
  const course::CheckResult result =
      TransposeTimesVectorExercise::check(p, course::run_once<TransposeTimesVectorExercise>(p));
  INFO("A " << rows << " x " << columns << ", seed " << seed << ": " << result.detail);
  REQUIRE(result.pass);
}
}  // namespace

TEST_CASE("transpose_times_vector: awkward shapes and several seeds") {
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {1, 1000}, {1000, 1}, {33, 1000}, {999, 1001}})
    for (std::uint64_t seed : {1, 2, 3}) require_product(m, n, seed);
}

TEST_CASE("transpose_times_vector: the default size") { require_product(16384, 16384, 4); }

TEST_CASE("transpose_times_vector: tall and wide matrices") {
  require_product(100000, 7, 5);
  require_product(5, 50000, 6);
}
