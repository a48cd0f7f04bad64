// Tests of one GPU step of lesson 01, built once per step (lesson01_NN_..._test): C must match the
// reference (float32 within the lesson's tolerance, int32 exactly) on awkward shapes, several seeds and
// both element types, and at the default size.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "course/test_sizes.h"
#include "course/verify.h"
#include "distance.h"

using distance::kThisStep;

namespace {

template <class T>
void require_step_matches(const distance::Problem<T>& p, bool scalar_loads = false) {
  const std::vector<T> c = distance::run_gpu_once(kThisStep, p, scalar_loads);
  const course::Verdict v = distance::check(p, c, distance::reference(p), kThisStep.form);
  INFO("step " << kThisStep.number << ", " << p.m << " x " << p.k << " x " << p.n
               << (scalar_loads ? ", 4-byte accesses" : "") << ": " << v.describe(p.k));
  REQUIRE(v.pass);
}

// M x K x N shapes: cubes of awkward sizes (none a multiple of a tile), then lopsided ones, with N
// both a multiple of 4 (16-byte loads) and not.
const std::vector<std::array<std::size_t, 3>> kShapes{
    {1, 1, 1},     {2, 2, 2},       {17, 17, 17},  {33, 33, 33},   {1000, 1000, 1000}, {1, 4097, 3},
    {4097, 1, 3},  {1000, 999, 65}, {129, 130, 4}, {127, 255, 12}, {3, 5, 4097},      {300, 257, 1}};

bool has_int_kernel() { return kThisStep.gpu_int != nullptr; }

}  // namespace

TEST_CASE("float32: matches the reference on awkward shapes and several seeds") {
  for (const auto& s : kShapes)
    for (auto seed : course::test_seeds()) require_step_matches(distance::make_problem<float>(s[0], s[1], s[2], seed));
}

TEST_CASE("int32: matches the reference exactly on awkward shapes and several seeds") {
  if (!has_int_kernel()) {  // a float32-only step (TF32, or cuBLAS, which has no int32 product) says so
    REQUIRE_THROWS_AS(distance::run_gpu_once(kThisStep, distance::make_problem<std::int32_t>(2, 2, 2, 1)),
                      std::logic_error);
    return;
  }
  for (const auto& s : kShapes)
    for (auto seed : course::test_seeds())
      require_step_matches(distance::make_problem<std::int32_t>(s[0], s[1], s[2], seed));
}

TEST_CASE("matches the reference at the default size") {
  require_step_matches(distance::make_problem<float>(distance::kDefaultSize, distance::kDefaultSize,
                                                     distance::kDefaultSize, 7));
}

TEST_CASE("vectors far from the origin, within the step's tolerance") {
  require_step_matches(distance::make_problem<float>(300, 200, 1024, 8, 100.0));
  if (has_int_kernel()) require_step_matches(distance::make_problem<std::int32_t>(300, 200, 1024, 8, 1000000.0));
}

TEST_CASE("int32: exact at the widest value range, where the sums come closest to overflow") {
  if (!has_int_kernel()) {
    REQUIRE(kThisStep.gpu_float != nullptr);  // a float32-only step
    return;
  }
  // With N = 5000 the values span int_value_width(5000) = 655, so a distance may reach 5000 x 655^2,
  // 2.1e9, just under 2^31. Rows of B copied from A give distances of exactly 0 too.
  distance::Problem<std::int32_t> p = distance::make_problem<std::int32_t>(70, 90, 5000, 9);
  for (std::size_t x = 0; x < p.n; ++x) {
    p.a[x] = -327;  // row 0 of A at one end of the range, row 0 of B at the other
    p.b[x] = 328;
  }
  std::copy(p.a.begin() + 5 * p.n, p.a.begin() + 6 * p.n, p.b.begin() + 7 * p.n);
  distance::validate_values(p, "test");
  require_step_matches(p);
}

TEST_CASE("4-byte accesses (--scalar-loads) give the same answer") {
  // Only step 06 takes the option; the other steps ignore it and must still be right. N and K both
  // multiples of 4, where step 06 would otherwise use 16-byte loads and stores.
  require_step_matches(distance::make_problem<float>(300, 260, 132, 15), true);
  if (has_int_kernel()) require_step_matches(distance::make_problem<std::int32_t>(300, 260, 132, 15), true);
}

TEST_CASE("TF32 steps: the error is TF32's, beyond the float32 bound that step 10 keeps") {
  if (kThisStep.form != distance::Form::NormExpansionTf32) return;  // held to a float32 bound: above
  // Inputs rounded to TF32 (2^-11) move a 1024-element dot product far more than float32's 2^-24 would:
  // if this passed the float32 bound, the step would not be computing in TF32 at all.
  const distance::Problem<float> p = distance::make_problem<float>(500, 400, 1024, 11);
  const std::vector<float> c = distance::run_gpu_once(kThisStep, p);
  const std::vector<double> expected = distance::reference(p);
  REQUIRE(distance::check(p, c, expected, distance::Form::NormExpansionTf32).pass);
  REQUIRE_FALSE(distance::check(p, c, expected, distance::Form::NormExpansion).pass);
}

TEST_CASE("TF32 steps round to the nearest TF32: their errors do not lean one way") {
  if (kThisStep.form != distance::Form::NormExpansionTf32) return;
  // At offset 1 every element is positive (1 + uniform(-1, 1)). Inputs truncated to TF32 (the last 13
  // bits dropped, as wgmma reads a plain float) make every product smaller: a.b comes out short and
  // every distance long, on average by about 2e-3 of the distance here. Rounded inputs err both ways,
  // and over 60000 distances the mean relative error cancels to about 1e-5.
  const distance::Problem<float> p = distance::make_problem<float>(300, 200, 1024, 12, 1.0);
  const std::vector<float> c = distance::run_gpu_once(kThisStep, p);
  const std::vector<double> expected = distance::reference(p);
  double lean = 0;
  for (std::size_t e = 0; e < c.size(); ++e) lean += (c[e] - expected[e]) / expected[e];
  lean /= static_cast<double>(c.size());
  INFO("step " << kThisStep.number << ": mean relative error " << lean);
  REQUIRE(std::abs(lean) < 2e-4);
}
