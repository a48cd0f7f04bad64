// Tests of lesson 01's problems, files, reference and check (no GPU needed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

#include "course/binary_file.h"
#include "course/errors.h"
#include "course/verify.h"
#include "distance.h"

using Catch::Matchers::Contains;

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("lesson01_" + std::to_string(::getpid()) + "_" + name)).string();
}

// C in float, pair by pair in plain order: what a correct step computes, rounding and all.
std::vector<float> float_distances(const distance::Problem<float>& p) {
  std::vector<float> c(p.m * p.k);
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t j = 0; j < p.k; ++j) {
      float sum = 0;
      for (std::size_t x = 0; x < p.n; ++x) {
        const float d = p.a[i * p.n + x] - p.b[j * p.n + x];
        sum += d * d;
      }
      c[i * p.k + j] = sum;
    }
  return c;
}

// C by the norm expansion in float, as step 07 computes it.
std::vector<float> float_norm_expansion(const distance::Problem<float>& p) {
  auto norm = [&](const std::vector<float>& x, std::size_t row) {
    float s = 0;
    for (std::size_t e = 0; e < p.n; ++e) s += x[row * p.n + e] * x[row * p.n + e];
    return s;
  };
  std::vector<float> c(p.m * p.k);
  for (std::size_t i = 0; i < p.m; ++i)
    for (std::size_t j = 0; j < p.k; ++j) {
      float dot = 0;
      for (std::size_t x = 0; x < p.n; ++x) dot += p.a[i * p.n + x] * p.b[j * p.n + x];
      c[i * p.k + j] = std::max(std::fma(-2.0f, dot, norm(p.a, i) + norm(p.b, j)), 0.0f);
    }
  return c;
}

template <class T>
void write_arrays(const std::string& path, const std::vector<T>& a, std::size_t m, std::size_t n,
                  const std::vector<T>& b, std::size_t k, std::size_t n_b) {
  course::BinaryWriter w(path);
  w.write(a.data(), m, n);
  w.write(b.data(), k, n_b);
  w.close();
}

}  // namespace

TEST_CASE("problems survive a round trip through a file, float32 and int32") {
  const std::string path = temp_path("roundtrip.bin");
  const distance::Problem<float> p = distance::make_problem<float>(17, 5, 23, 4);
  distance::write_problem(path, p);
  const distance::Problem<float> q = distance::read_problem<float>(path);
  REQUIRE((q.m == 17 && q.k == 5 && q.n == 23));
  REQUIRE(q.a == p.a);
  REQUIRE(q.b == p.b);
  const distance::Problem<std::int32_t> pi = distance::make_problem<std::int32_t>(3, 9, 31, 5);
  distance::write_problem(path, pi);
  const distance::Problem<std::int32_t> qi = distance::read_problem<std::int32_t>(path);
  std::remove(path.c_str());
  REQUIRE((qi.m == 3 && qi.k == 9 && qi.n == 31));
  REQUIRE(qi.a == pi.a);
  REQUIRE(qi.b == pi.b);
}

TEST_CASE("files with mismatched, missing, extra or wrongly typed arrays are rejected") {
  const std::string path = temp_path("bad.bin");
  const distance::Problem<float> p = distance::make_problem<float>(3, 2, 4, 1);
  write_arrays(path, p.a, 3, 4, std::vector<float>(10, 1.0f), 2, 5);  // B rows of 5 for A rows of 4
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("must have the same number of elements"));
  {
    course::BinaryWriter w(path);
    w.write(p.a.data(), 3, 4);  // no B
    w.close();
  }
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("truncated"));
  {
    course::BinaryWriter w(path);
    w.write(p.a.data(), 3, 4);
    w.write(p.b.data(), 2, 4);
    w.write(p.b.data(), 2, 4);  // something after B
    w.close();
  }
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("unexpected bytes"));
  const std::vector<std::int32_t> ints(8, 1);
  {
    course::BinaryWriter w(path);
    w.write(p.a.data(), 3, 4);
    w.write(ints.data(), 2, 4);  // A float32, B int32
    w.close();
  }
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("holds int32"));
  {
    course::BinaryWriter w(path);
    std::vector<double> wrong(12, 1.0);
    w.write(wrong.data(), 3, 4);
    w.close();
  }
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("holds float64"));
  std::remove(path.c_str());
}

TEST_CASE("int32 files whose values could overflow a distance are rejected, the limit itself is not") {
  const std::string path = temp_path("range.bin");
  // N = 2: N x (max - min)^2 <= 2^31 - 1 allows a span of at most 32767.
  write_arrays<std::int32_t>(path, {0, 32767}, 1, 2, {0, 0}, 1, 2);
  REQUIRE(distance::read_problem<std::int32_t>(path).n == 2);
  write_arrays<std::int32_t>(path, {0, 32768}, 1, 2, {0, 0}, 1, 2);
  REQUIRE_THROWS_WITH(distance::read_problem<std::int32_t>(path), Contains("could overflow int32"));
  write_arrays<std::int32_t>(path, {-2000000000, 0}, 1, 2, {2000000000, 0}, 1, 2);  // span beyond 32 bits
  REQUIRE_THROWS_WITH(distance::read_problem<std::int32_t>(path), Contains("could overflow int32"));
  std::remove(path.c_str());
}

TEST_CASE("float32 files with values that are not finite or could overflow are rejected") {
  const std::string path = temp_path("floats.bin");
  write_arrays<float>(path, {0.0f, NAN}, 1, 2, {0.0f, 0.0f}, 1, 2);
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("not finite"));
  write_arrays<float>(path, {0.0f, 1e30f}, 1, 2, {-1e30f, 0.0f}, 1, 2);
  REQUIRE_THROWS_WITH(distance::read_problem<float>(path), Contains("could overflow float32"));
  std::remove(path.c_str());
}

TEST_CASE("the int32 generator's range keeps every distance within int32") {
  for (std::size_t n : {1ull, 2ull, 3ull, 100ull, 4096ull, 5000ull, 1000000ull, 2147483647ull}) {
    const std::int64_t w = distance::int_value_width(n);
    INFO("N = " << n << ", width " << w);
    REQUIRE(w >= 1);
    REQUIRE(w <= 2000);
    REQUIRE(static_cast<std::int64_t>(n) * w * w <= std::numeric_limits<std::int32_t>::max());
    // Either the cap binds, or one more would overflow.
    REQUIRE((w == 2000 || static_cast<std::int64_t>(n) * (w + 1) * (w + 1) > std::numeric_limits<std::int32_t>::max()));
  }
  REQUIRE(distance::int_value_width(2147483648ull) == 0);
  const distance::Problem<std::int32_t> p = distance::make_problem<std::int32_t>(50, 60, 4096, 3, 1000.0);
  const auto [low, high] = std::minmax_element(p.a.begin(), p.a.end());
  REQUIRE(*high - *low <= distance::int_value_width(4096));
  REQUIRE(*high - *low >= distance::int_value_width(4096) - 2);  // the whole range is used
  REQUIRE_NOTHROW(distance::validate_values(p, "generated"));
}

TEST_CASE("the reference computes squared distances") {
  distance::Problem<float> p;
  p.m = 2;
  p.k = 3;
  p.n = 2;
  p.a = {1, 2, 3, 4};
  p.b = {0, 0, 1, 1, 3, 5};
  // Rows of A: (1, 2), (3, 4); rows of B: (0, 0), (1, 1), (3, 5).
  REQUIRE(distance::reference(p) == std::vector<double>{5, 1, 13, 25, 13, 1});
  distance::Problem<std::int32_t> q;
  q.m = 2;
  q.k = 3;
  q.n = 2;
  q.a = {1, 2, 3, 4};
  q.b = {0, 0, 1, 1, 3, -5};
  REQUIRE(distance::reference(q) == std::vector<std::int32_t>{5, 1, 53, 25, 13, 81});
}

TEST_CASE("the direct-form tolerance passes float rounding and fails a lost term") {
  const distance::Problem<float> p = distance::make_problem<float>(60, 70, 3000, 5);
  const std::vector<double> expected = distance::reference(p);
  std::vector<float> c = float_distances(p);
  REQUIRE(distance::check(p, c, expected, distance::Form::Direct).pass);
  // Forgetting the largest of the 3000 terms of one pair (a few times C / N).
  float largest = 0;
  for (std::size_t x = 0; x < p.n; ++x) {
    const float d = p.a[2 * p.n + x] - p.b[3 * p.n + x];
    largest = std::max(largest, d * d);
  }
  c[2 * p.k + 3] -= largest;
  const course::Verdict v = distance::check(p, c, expected, distance::Form::Direct);
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.worst_index == 2 * p.k + 3);
}

TEST_CASE("the norm expansion's tolerance passes its own rounding, far from the origin too") {
  for (double offset : {0.0, 100.0}) {
    const distance::Problem<float> p = distance::make_problem<float>(40, 50, 2000, 6, offset);
    const std::vector<double> expected = distance::reference(p);
    const std::vector<float> c = float_norm_expansion(p);
    INFO("offset " << offset);
    REQUIRE(distance::check(p, c, expected, distance::Form::NormExpansion).pass);
    if (offset > 0) {
      // Far from the origin the expansion's error is beyond what the direct form is allowed.
      REQUIRE_FALSE(distance::check(p, c, expected, distance::Form::Direct).pass);
      REQUIRE(distance::max_relative_error(c, expected) > 1e-4);
    }
  }
}

TEST_CASE("NaN, a poisoned result, never passes, and int32 results must be exact") {
  const distance::Problem<float> p = distance::make_problem<float>(5, 6, 7, 7);
  std::vector<float> c = float_distances(p);
  c[13] = NAN;
  REQUIRE_FALSE(distance::check(p, c, distance::reference(p), distance::Form::NormExpansion).pass);
  const distance::Problem<std::int32_t> q = distance::make_problem<std::int32_t>(5, 6, 7, 7);
  std::vector<std::int32_t> ci = distance::reference(q);
  REQUIRE(distance::check(q, ci, distance::reference(q), distance::Form::Direct).pass);
  ci[29] += 1;
  REQUIRE_FALSE(distance::check(q, ci, distance::reference(q), distance::Form::NormExpansion).pass);
}
