// Tests of lesson 05's problems, files, reference and tolerance (no GPU needed).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include "course/binary_file.h"
#include "course/errors.h"
#include "course/verify.h"
#include "matvec.h"

using Catch::Matchers::Contains;

namespace {
std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("lesson05_" + std::to_string(::getpid()) + "_" + name)).string();
}
}  // namespace

TEST_CASE("a problem survives a round trip through a file") {
  const matvec::Problem p = matvec::make_problem(17, 23, 4);
  const std::string path = temp_path("roundtrip.bin");
  matvec::write_problem(path, p);
  const matvec::Problem q = matvec::read_problem(path);
  std::remove(path.c_str());
  REQUIRE(q.rows == 17);
  REQUIRE(q.columns == 23);
  REQUIRE(q.a == p.a);
  REQUIRE(q.v == p.v);
}

TEST_CASE("files with a mismatched, missing or extra vector are rejected") {
  const std::string path = temp_path("bad.bin");
  const matvec::Problem p = matvec::make_problem(3, 4, 1);
  {
    course::BinaryWriter w(path);
    w.write(p.a.data(), 3, 4);
    w.write(std::vector<float>(5, 1.0f));  // v of 5 for 4 columns
    w.close();
  }
  REQUIRE_THROWS_WITH(matvec::read_problem(path), Contains("v must be one row of 4"));
  {
    course::BinaryWriter w(path);
    w.write(p.a.data(), 3, 4);  // no v at all
    w.close();
  }
  REQUIRE_THROWS_WITH(matvec::read_problem(path), Contains("truncated"));
  {
    course::BinaryWriter w(path);
    w.write(p.a.data(), 3, 4);
    w.write(p.v);
    w.write(p.v);  // something after v
    w.close();
  }
  REQUIRE_THROWS_WITH(matvec::read_problem(path), Contains("unexpected bytes"));
  {
    course::BinaryWriter w(path);
    std::vector<double> wrong_type(12, 1.0);
    w.write(wrong_type.data(), 3, 4);
    w.close();
  }
  REQUIRE_THROWS_WITH(matvec::read_problem(path), Contains("holds float64"));
  std::remove(path.c_str());
}

TEST_CASE("the reference computes A^T (A v)") {
  matvec::Problem p;
  p.rows = 2;
  p.columns = 3;
  p.a = {1, 2, 3, 4, 5, 6};
  p.v = {1, 0, -1};
  // B = A v = (-2, -2); C = A^T B = (-10, -14, -18)
  REQUIRE(matvec::reference(p) == std::vector<double>{-10, -14, -18});
}

TEST_CASE("the tolerance passes float rounding and fails a lost row") {
  const matvec::Problem p = matvec::make_problem(2000, 3000, 5);
  const std::vector<double> expected = matvec::reference(p);
  const course::Tolerance t = matvec::tolerance(p, expected);
  // The same computation in float, rows in order: ordinary rounding must pass.
  std::vector<float> b(p.rows), c(p.columns, 0.0f);
  for (std::size_t i = 0; i < p.rows; ++i) {
    float s = 0;
    for (std::size_t j = 0; j < p.columns; ++j) s += p.a[i * p.columns + j] * p.v[j];
    b[i] = s;
  }
  for (std::size_t i = 0; i < p.rows; ++i)
    for (std::size_t j = 0; j < p.columns; ++j) c[j] += p.a[i * p.columns + j] * b[i];
  REQUIRE(course::compare_close(c.data(), expected.data(), p.columns, t).pass);
  // Forgetting the last row of A in the second product must fail.
  for (std::size_t j = 0; j < p.columns; ++j) c[j] -= p.a[(p.rows - 1) * p.columns + j] * b[p.rows - 1];
  REQUIRE_FALSE(course::compare_close(c.data(), expected.data(), p.columns, t).pass);
}

TEST_CASE("the tolerance holds where A v's terms cancel, as float rounding meets it") {
  // One row whose product with v cancels: in float, 1 + 1e8 is 1e8, and B comes out 0, not 1.
  matvec::Problem p;
  p.rows = 1;
  p.columns = 3;
  p.a = {1, 1, 1};
  p.v = {1, 1e8f, -1e8f};
  const std::vector<double> expected = matvec::reference(p);
  REQUIRE(expected == std::vector<double>{1, 1, 1});
  float b = 0;
  for (std::size_t k = 0; k < 3; ++k) b += p.a[k] * p.v[k];
  REQUIRE(b == 0.0f);
  const std::vector<float> c = {b, b, b};
  REQUIRE(course::compare_close(c.data(), expected.data(), p.columns, matvec::tolerance(p, expected)).pass);
  // Scaled by |C| alone, the same rounding would fail (the rule before the terms' size).
  REQUIRE_FALSE(course::compare_close(c.data(), expected.data(), p.columns, matvec::sum_tolerance(4, expected)).pass);
}
