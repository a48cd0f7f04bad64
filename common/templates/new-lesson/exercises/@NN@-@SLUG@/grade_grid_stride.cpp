// Grading test of exercise @NN@-A (grid stride). Built twice: against
// solutions/@NN@-@SLUG@/grid_stride.cu (every case must pass) and against your
// exercises/@NN@-@SLUG@/grid_stride.cu.
// Run it with:   ./course grade @NN@ grid_stride
#include <catch2/catch.hpp>

#include <vector>

#include "course/test_sizes.h"
#include "course/verify.h"
#include "exercise_support.h"

using exercise@NN@::GridStrideExercise;

namespace {
void require_grid_stride(const std::vector<float>& x) {
  const std::vector<float> expected = @FILE@::reference(x);
  const std::vector<float> got = course::run_once<GridStrideExercise>(x);
  // A Verdict names the worst wrong element; REQUIRE(got == expected) would print both vectors whole.
  const course::Verdict v = course::compare_exact(got.data(), expected.data(), expected.size());
  INFO("n = " << x.size() << ": " << v.describe());
  REQUIRE(v.pass);
}
}  // namespace

TEST_CASE("grid_stride: awkward sizes and several seeds") {
  for (std::size_t n : course::awkward_sizes())
    for (auto seed : course::test_seeds()) require_grid_stride(course::uniform_floats(n, -1.0f, 1.0f, seed));
}

TEST_CASE("grid_stride: the default size, more elements than threads in the grid") {
  require_grid_stride(course::uniform_floats(@FILE@::kDefaultCount, -1.0f, 1.0f, 9));
}
