// Lesson 05 exercises: their problems as the course's exercise harness sees them (course/exercise.h),
// for the grading tests and the benchmarks. You do not need to read or change this file to do the
// exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "course/buffers.h"
#include "course/data.h"
#include "course/exercise.h"
#include "matvec.h"
#include "times_vector_2d.h"
#include "transpose_times_vector.h"

namespace exercise05 {

/// The exercises' common shape: y = op(A) x with A rows x columns in device memory.
using Product = void (*)(const float* a, const float* x, float* y, std::size_t rows, std::size_t columns,
                         void* scratch, cudaStream_t stream);

/// What both exercises share: y = A^T x (kTransposed) or y = A x for an M x N matrix A (16384 x 16384
/// in the benchmark), checked in double precision; the rate counts A, read once.
template <bool kTransposed, std::size_t (*scratch_bytes)(std::size_t, std::size_t), Product product>
struct MatrixTimesVector {
  static constexpr const char* kLesson = "05";
  static constexpr int kReps = 20;
  using Input = matvec::Problem;      ///< A and x (in v: M elements for A^T x, N for A x)
  using Output = std::vector<float>;  ///< y

  /// A seeded problem of lesson 05 with its vector as long as the product needs.
  static Input problem(std::size_t rows, std::size_t columns, std::uint64_t seed) {
    matvec::Problem p = matvec::make_problem(rows, columns, seed);
    p.v = course::uniform_floats(kTransposed ? rows : columns, -1.0f, 1.0f, seed + 99);
    return p;
  }
  static void declare(course::CommandLine& cli) {
    cli.add_size("m", matvec::kDefaultRows, "rows of A", 1, 4294967295ull);
    cli.add_size("n", matvec::kDefaultColumns, "columns of A", 1, 4294967295ull);
  }
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    return problem(cli.size("m"), cli.size("n"), seed);
  }
  static void count(const Input& p, course::Measurement& report) {
    report.size = std::to_string(p.rows) + "x" + std::to_string(p.columns);
    report.bytes = static_cast<double>(p.rows) * p.columns * sizeof(float);
    report.rate_unit = "GB/s";
  }
  /// y in double precision; with @p magnitudes, each element's sum of |terms| goes there.
  static std::vector<double> reference(const Input& p, std::vector<double>* magnitudes = nullptr) {
    std::vector<double> y(kTransposed ? p.columns : p.rows, 0.0), sizes(y.size(), 0.0);
    for (std::size_t i = 0; i < p.rows; ++i)
      for (std::size_t j = 0; j < p.columns; ++j) {
        const double term = static_cast<double>(p.a[i * p.columns + j]) * p.v[kTransposed ? i : j];
        y[kTransposed ? j : i] += term;
        sizes[kTransposed ? j : i] += std::fabs(term);
      }
    if (magnitudes) *magnitudes = std::move(sizes);
    return y;
  }
  /// The answer: y.
  static Output read_answer(const Input& p, course::AnswerReader& answer) {
    return answer.take_vector<float>(kTransposed ? p.columns : p.rows);
  }
  /// Within the lesson's tolerance for sums of M terms (A^T x) or N terms (A x), scaled by each
  /// element's sum of |terms| (not by |y|, which is small where the terms cancel).
  static course::CheckResult check(const Input& p, const Output& y) {
    std::vector<double> magnitudes;
    const std::vector<double> expected = reference(p, &magnitudes);
    return course::checked(course::compare_close(y.data(), expected.data(), expected.size(),
                                                 matvec::sum_tolerance(kTransposed ? p.rows : p.columns, magnitudes)));
  }

  /// A, x, y and the student's scratch in device memory; run() calls the student's product.
  class OnDevice {
   public:
    explicit OnDevice(const Input& p)
        : rows_(p.rows),
          columns_(p.columns),
          a_(p.a.size(), "matrix A"),
          x_(p.v.size(), "vector x"),
          y_(kTransposed ? p.columns : p.rows, "vector y"),
          scratch_(scratch_bytes(p.rows, p.columns), "scratch") {
      a_.upload(p.a);
      x_.upload(p.v);
    }
    void poison(cudaStream_t stream) { y_.poison(stream); }
    void run(cudaStream_t stream) { product(a_.data(), x_.data(), y_.data(), rows_, columns_, scratch_.data(), stream); }
    course::AnswerSpans answer() const { return {y_.whole()}; }

   private:
    std::size_t rows_, columns_;
    course::DeviceBuffer<float> a_, x_, y_;
    course::DeviceBuffer<unsigned char> scratch_;
  };
};

/// times_vector_2d takes no scratch: these two give it the common shape.
inline std::size_t no_scratch(std::size_t, std::size_t) { return 0; }
inline void times_vector_2d_product(const float* a, const float* x, float* y, std::size_t rows, std::size_t columns,
                                    void*, cudaStream_t stream) {
  times_vector_2d(a, x, y, rows, columns, stream);
}

/// Exercise 05-A: y = A^T x alone, reading A coalesced.
struct TransposeTimesVectorExercise
    : MatrixTimesVector<true, transpose_times_vector_scratch_bytes, transpose_times_vector> {
  static constexpr const char* kTitle = "y = A^T x, coalesced";
};

/// Exercise 05-B: y = A x with two-dimensional thread blocks.
struct TimesVector2dExercise : MatrixTimesVector<false, no_scratch, times_vector_2d_product> {
  static constexpr const char* kTitle = "y = A x, 2D blocks";
};

}  // namespace exercise05

namespace course::wire {
template <>
struct Fields<matvec::Problem>
    : FieldsAre<&matvec::Problem::rows,
                &matvec::Problem::columns,
                &matvec::Problem::a,
                &matvec::Problem::v> {};
}  // namespace course::wire
