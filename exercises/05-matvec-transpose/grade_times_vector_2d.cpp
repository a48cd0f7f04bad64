// Grading test of exercise 05-B (y = A x with 2D blocks). Built twice: against
// solutions/05-matvec-transpose/times_vector_2d.cu (every case must pass) and against your
// exercises/05-matvec-transpose/times_vector_2d.cu.
// Run it with:   ./course grade 05 times_vector_2d
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "exercise_support.h"
#include "times_vector_2d.h"

using exercise05::TimesVector2dExercise;

namespace {
void require_product(std::size_t rows, std::size_t columns, std::uint64_t seed) {
  const matvec::Problem p = TimesVector2dExercise::problem(rows, columns, seed);
  const course::CheckResult result = TimesVector2dExercise::check(p, course::run_once<TimesVector2dExercise>(p));
  INFO("A " << rows << " x " << columns << ", seed " << seed << ": " << result.detail);
  REQUIRE(result.pass);
}
}  // namespace

TEST_CASE("times_vector_2d: awkward shapes and several seeds") {
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{1, 1}, {1, 1000}, {1000, 1}, {33, 1000}, {999, 1001}})
    for (std::uint64_t seed : {1, 2, 3}) require_product(m, n, seed);
}

TEST_CASE("times_vector_2d: the default size") { require_product(16384, 16384, 4); }

TEST_CASE("times_vector_2d: more rows than 65535 blocks of 8 can take at once") { require_product(600000, 3, 5); }
