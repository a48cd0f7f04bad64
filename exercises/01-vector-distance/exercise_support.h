// Lesson 01 exercises: the plumbing the grading tests and benchmarks share. You do not need to read
// or change this file to do the exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "course/verify.h"
#include "distance.h"

namespace exercise01 {

using distance::Problem;

/// Manhattan distances in double precision. B is transposed first, so that the innermost loop runs
/// along a row of C with independent sums, and the work goes in blocks of 8 rows x 256 columns whose
/// sums stay in the cache (as lesson 01's reference does for squared distances).
inline std::vector<double> manhattan_reference(const Problem<float>& p) {
  const std::size_t m = p.m, k = p.k, n = p.n;
  std::vector<double> bt(n * k);
  for (std::size_t j = 0; j < k; ++j)
    for (std::size_t x = 0; x < n; ++x) bt[x * k + j] = p.b[j * n + x];
  std::vector<double> c(m * k);
  const std::size_t column_blocks = (k + 255) / 256;
  const long long blocks = static_cast<long long>((m + 7) / 8 * column_blocks);
#pragma omp parallel for schedule(dynamic)
  for (long long block = 0; block < blocks; ++block) {
    const std::size_t i0 = static_cast<std::size_t>(block) / column_blocks * 8;
    const std::size_t j0 = static_cast<std::size_t>(block) % column_blocks * 256;
    const std::size_t rows = std::min<std::size_t>(8, m - i0), cols = std::min<std::size_t>(256, k - j0);
    double sums[8][256] = {};
    for (std::size_t x = 0; x < n; ++x)
      for (std::size_t r = 0; r < rows; ++r) {
        const double a = p.a[(i0 + r) * n + x];
        const double* b = bt.data() + x * k + j0;
        for (std::size_t q = 0; q < cols; ++q) sums[r][q] += std::fabs(a - b[q]);
      }
    for (std::size_t r = 0; r < rows; ++r)
      std::copy(sums[r], sums[r] + cols, c.begin() + static_cast<std::ptrdiff_t>((i0 + r) * k + j0));
  }
  return c;
}

/// Runs the student's manhattan_distances once (C poisoned first) and returns C.
template <class Manhattan>
std::vector<float> run_manhattan(const Problem<float>& p, const Manhattan& manhattan) {
  course::DeviceBuffer<float> a(p.a.size(), "matrix A"), b(p.b.size(), "matrix B"), c(p.m * p.k, "matrix C");
  a.upload(p.a);
  b.upload(p.b);
  c.poison();
  manhattan(a.data(), b.data(), c.data(), p.m, p.k, p.n, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return c.to_host();
}

/// The nearest row of B for every row of A, and its distance: the answer of exercise 01-B.
struct Nearest {
  std::vector<std::uint32_t> index;
  std::vector<std::int32_t> distance;
};

/// The reference: every distance exactly (lesson 01's reference), then the first smallest per row.
inline Nearest nearest_reference(const Problem<std::int32_t>& p) {
  const std::vector<std::int32_t> c = distance::reference(p);
  Nearest r;
  r.index.resize(p.m);
  r.distance.resize(p.m);
  for (std::size_t i = 0; i < p.m; ++i) {
    const auto row = c.begin() + static_cast<std::ptrdiff_t>(i * p.k);
    const auto nearest = std::min_element(row, row + static_cast<std::ptrdiff_t>(p.k));  // the first of equals
    r.index[i] = static_cast<std::uint32_t>(nearest - row);
    r.distance[i] = *nearest;
  }
  return r;
}

/// Runs the student's nearest_neighbours once (outputs poisoned first) and returns what it found.
template <class Search>
Nearest run_nearest(const Problem<std::int32_t>& p, std::size_t scratch_bytes, const Search& search) {
  course::DeviceBuffer<std::int32_t> a(p.a.size(), "matrix A"), b(p.b.size(), "matrix B"), distance(p.m, "distances");
  course::DeviceBuffer<std::uint32_t> index(p.m, "indices");
  course::DeviceBuffer<unsigned char> scratch(scratch_bytes, "scratch");
  a.upload(p.a);
  b.upload(p.b);
  index.poison();
  distance.poison();
  search(a.data(), b.data(), index.data(), distance.data(), p.m, p.k, p.n, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return Nearest{index.to_host(), distance.to_host()};
}

/// "" when `got` is the reference's answer, else the first row that differs, described.
inline std::string compare_nearest(const Nearest& got, const Nearest& expected) {
  for (std::size_t i = 0; i < expected.index.size(); ++i)
    if (got.index[i] != expected.index[i] || got.distance[i] != expected.distance[i])
      return "row " + std::to_string(i) + " of A: got row " + std::to_string(got.index[i]) + " of B at distance " +
             std::to_string(got.distance[i]) + ", expected row " + std::to_string(expected.index[i]) + " at distance " +
             std::to_string(expected.distance[i]);
  return "";
}

/// The main of an exercise benchmark: makes an M x K x N problem (4096 cubed by default) and hands it
/// to `time_and_check`, which times the exercise on it, fills in the timing and returns "" when the
/// answer is right (else what is wrong); prints one course measurement, so that `./course grade` can
/// set the student's kernel beside the solution's.
template <class T>
int bench_main(int argc, char** argv, const char* title,
               const std::function<std::string(const Problem<T>&, const course::TimingOptions&, course::TimingStats&)>&
                   time_and_check) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    course::CommandLine cli(program, std::string("Times the exercise: ") + title + ".");
    cli.add_size("m", distance::kDefaultSize, "rows of A", 1, 4294967295ull);
    cli.add_size("k", distance::kDefaultSize, "rows of B", 1, 4294967295ull);
    cli.add_size("n", distance::kDefaultSize, "elements of every vector", 1, 4294967295ull);
    cli.add_common_options(10);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::CommonOptions common = cli.common();
    course::require_cuda_device();
    const std::size_t m = cli.size("m"), k = cli.size("k"), n = cli.size("n");
    const Problem<T> p = distance::make_problem<T>(m, k, n, common.seed);
    course::Measurement r;
    r.lesson = "01";
    r.step = program.rfind("solution", 0) == 0 ? "solution" : "yours";
    r.title = title;
    r.kind = "gpu";
    r.size = std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
    r.operations = static_cast<double>(m) * k * n;
    r.rate_unit = "G terms/s";
    const std::string wrong = time_and_check(p, common.timing, r.time);
    r.device = course::query_device().name;
    r.verdict = wrong.empty() ? "PASS" : "FAIL";
    r.detail = wrong.empty() ? "matches the reference" : wrong;
    course::print_measurement(std::cout, r, common.format);
    return wrong.empty() ? course::kExitPass : course::kExitFail;
  });
}

}  // namespace exercise01
