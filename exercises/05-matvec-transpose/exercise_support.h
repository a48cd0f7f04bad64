// Lesson 05 exercises: the plumbing the grading tests and benchmarks share. You do not need to read
// or change this file to do the exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "course/verify.h"
#include "matvec.h"

namespace exercise05 {

/// The exercises' common shape: y = op(A) x with A rows x columns in device memory.
using Product = std::function<void(const float* a, const float* x, float* y, std::size_t rows, std::size_t columns,
                                   void* scratch, cudaStream_t stream)>;

/// A problem of lesson 05 whose vector has `vector_length` elements (M for A^T x, N for A x).
inline matvec::Problem problem_for(std::size_t rows, std::size_t columns, std::size_t vector_length,
                                   std::uint64_t seed) {
  matvec::Problem p = matvec::make_problem(rows, columns, seed);
  p.v = course::uniform_floats(vector_length, -1.0f, 1.0f, seed + 99);
  return p;
}

/// y = A^T x (transposed) or y = A x, in double precision.
inline std::vector<double> reference(const matvec::Problem& p, bool transposed) {
  std::vector<double> y(transposed ? p.columns : p.rows, 0.0);
  for (std::size_t i = 0; i < p.rows; ++i)
    for (std::size_t j = 0; j < p.columns; ++j) {
      const double a = p.a[i * p.columns + j];
      if (transposed) y[j] += a * p.v[i];
      else y[i] += a * p.v[j];
    }
  return y;
}

/// Runs the product once on the GPU (y poisoned first) and compares with the reference.
inline course::Verdict run_and_check(const matvec::Problem& p, bool transposed, std::size_t scratch_bytes,
                                     const Product& product) {
  const std::size_t out = transposed ? p.columns : p.rows;
  course::DeviceBuffer<float> a(p.a.size()), x(p.v.size()), y(out);
  course::DeviceBuffer<unsigned char> scratch(scratch_bytes);
  a.upload(p.a);
  x.upload(p.v);
  y.poison();
  product(a.data(), x.data(), y.data(), p.rows, p.columns, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got = y.to_host();
  const std::vector<double> expected = reference(p, transposed);
  return course::compare_close(got.data(), expected.data(), out,
                               matvec::sum_tolerance(transposed ? p.rows : p.columns, expected));
}

/// The main of an exercise benchmark: times the product on an M x N problem (16384 x 16384 by
/// default) and prints a course measurement (A read once), so that `./course grade` can set the
/// student's kernel beside the solution's.
inline int bench_main(int argc, char** argv, const char* title, bool transposed,
                      const std::function<std::size_t(std::size_t, std::size_t)>& scratch_bytes, const Product& product) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    course::CommandLine cli(program, std::string("Times the exercise: ") + title + ".");
    cli.add_size("m", matvec::kDefaultRows, "rows of A", 1, 4294967295ull);
    cli.add_size("n", matvec::kDefaultColumns, "columns of A", 1, 4294967295ull);
    cli.add_common_options(20);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::CommonOptions common = cli.common();
    course::require_cuda_device();
    const std::size_t m = cli.size("m"), n = cli.size("n"), out = transposed ? n : m;
    const matvec::Problem p = problem_for(m, n, transposed ? m : n, common.seed);
    course::DeviceBuffer<float> a(p.a.size(), "matrix A"), x(p.v.size(), "vector x"), y(out, "vector y");
    course::DeviceBuffer<unsigned char> scratch(scratch_bytes(m, n), "scratch");
    a.upload(p.a);
    x.upload(p.v);
    course::Stream stream;
    course::Measurement r;
    r.lesson = "05";
    r.step = program.rfind("solution", 0) == 0 ? "solution" : "yours";
    r.title = title;
    r.kind = "gpu";
    r.size = std::to_string(m) + "x" + std::to_string(n);
    r.bytes = static_cast<double>(m) * n * sizeof(float);
    r.rate_unit = "GB/s";
    r.time = course::time_gpu([&](cudaStream_t s) { product(a.data(), x.data(), y.data(), m, n, scratch.data(), s); },
                              common.timing, stream.get(), [&](cudaStream_t s) { y.poison(s); });
    const std::vector<float> got = y.to_host();
    const std::vector<double> expected = reference(p, transposed);
    const course::Verdict v = course::compare_close(got.data(), expected.data(), out,
                                                    matvec::sum_tolerance(transposed ? m : n, expected));
    r.device = course::query_device().name;
    r.verdict = v.pass ? "PASS" : "FAIL";
    r.detail = v.describe();
    course::print_measurement(std::cout, r, common.format);
    return v.pass ? course::kExitPass : course::kExitFail;
  });
}

}  // namespace exercise05
