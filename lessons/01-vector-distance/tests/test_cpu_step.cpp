// Tests of one CPU step of lesson 01, built once per step: C against the reference on small awkward
// shapes, both element types, several seeds.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "course/test_sizes.h"
#include "course/verify.h"
#include "distance.h"

using distance::kThisStep;

namespace {

// M x K x N shapes: cubes of awkward sizes, then lopsided ones.
const std::vector<std::array<std::size_t, 3>> kShapes{
    {1, 1, 1}, {2, 2, 2}, {17, 17, 17}, {33, 33, 33}, {1, 4097, 3}, {100, 99, 65}, {65, 1, 100}, {3, 5, 1000}};

template <class T>
void require_step_matches(const distance::Problem<T>& p) {
  std::vector<T> c(p.m * p.k, static_cast<T>(-1));
  if constexpr (std::is_same<T, float>::value) kThisStep.cpu_float(p.a.data(), p.b.data(), c.data(), p.m, p.k, p.n);
  else kThisStep.cpu_int(p.a.data(), p.b.data(), c.data(), p.m, p.k, p.n);
  const course::Verdict v = distance::check(p, c, distance::reference(p), kThisStep.form);
  INFO("step " << kThisStep.number << ", " << p.m << " x " << p.k << " x " << p.n << ": " << v.describe(p.k));
  REQUIRE(v.pass);
}

}  // namespace

TEST_CASE("float32: matches the reference on awkward shapes and several seeds") {
  for (const auto& s : kShapes)
    for (auto seed : course::test_seeds()) require_step_matches(distance::make_problem<float>(s[0], s[1], s[2], seed));
}

TEST_CASE("int32: matches the reference exactly on awkward shapes and several seeds") {
  for (const auto& s : kShapes)
    for (auto seed : course::test_seeds())
      require_step_matches(distance::make_problem<std::int32_t>(s[0], s[1], s[2], seed));
}

TEST_CASE("vectors far from the origin") {
  require_step_matches(distance::make_problem<float>(40, 30, 200, 4, 100.0));
  require_step_matches(distance::make_problem<std::int32_t>(40, 30, 200, 4, 100000.0));
}
