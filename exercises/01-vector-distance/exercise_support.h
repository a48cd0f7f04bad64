// Lesson 01 exercises: their problems as the course's exercise harness sees them (course/exercise.h),
// for the grading tests and the benchmarks. You do not need to read or change this file to do the
// exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/exercise.h"
#include "distance.h"
#include "manhattan.h"
#include "nearest_neighbour.h"

namespace exercise01 {

using distance::Problem;

/// What both exercises share: an M x K x N problem of lesson 01 (A is M x N, B is K x N); the
/// benchmark's is 4096 cubed, and its rate counts one term (one difference of A and B) at a time.
template <class T>
struct Distances {
  static constexpr const char* kLesson = "01";
  static constexpr int kReps = 10;
  using Input = Problem<T>;

  static void declare(course::CommandLine& cli) {
    cli.add_size("m", distance::kDefaultSize, "rows of A", 1, 4294967295ull);
    cli.add_size("k", distance::kDefaultSize, "rows of B", 1, 4294967295ull);
    cli.add_size("n", distance::kDefaultSize, "elements of every vector", 1, 4294967295ull);
  }
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    return distance::make_problem<T>(cli.size("m"), cli.size("k"), cli.size("n"), seed);
  }
  static void count(const Input& p, course::Measurement& report) {
    report.size = std::to_string(p.m) + "x" + std::to_string(p.k) + "x" + std::to_string(p.n);
    report.operations = static_cast<double>(p.m) * p.k * p.n;
    report.rate_unit = "G terms/s";
  }
  /// The bytes any solution must move: A and B read once (the judge's floor on a reported time).
  static double compulsory_bytes(const Input& p) { return static_cast<double>(p.m + p.k) * p.n * sizeof(T); }
};

/// Exercise 01-A: the M x K Manhattan distances of the rows of A and B, in float32.
struct ManhattanExercise : Distances<float> {
  static constexpr const char* kTitle = "Manhattan distances, shared-memory tiles";
  using Output = std::vector<float>;  ///< C, M x K

  /// Manhattan distances in double precision. B is transposed first, so that the innermost loop runs
  /// along a row of C with independent sums, and the work goes in blocks of 8 rows x 256 columns whose
  /// sums stay in the cache (as lesson 01's reference does for squared distances).
  static std::vector<double> reference(const Problem<float>& p) {
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

  /// The answer: C, M x K.
  static Output read_answer(const Input& p, course::AnswerReader& answer) { return answer.take_vector<float>(p.m * p.k); }

  /// Against the reference within the lesson's direct-form tolerance: a sum of N non-negative terms,
  /// each rounded once or twice. A failure names the worst element as [row of A][row of B].
  static course::CheckResult check(const Input& p, const Output& c) {
    const course::Verdict v = distance::check(p, c, reference(p), distance::Form::Direct);
    return {v.pass, v.pass ? "matches the reference" : v.describe(p.k)};
  }

  /// A, B and C in device memory; run() calls manhattan_distances.
  class OnDevice {
   public:
    explicit OnDevice(const Input& p)
        : m_(p.m), k_(p.k), n_(p.n), a_(p.a.size(), "matrix A"), b_(p.b.size(), "matrix B"), c_(p.m * p.k, "matrix C") {
      a_.upload(p.a);
      b_.upload(p.b);
    }
    void poison(cudaStream_t stream) { c_.poison(stream); }
    void run(cudaStream_t stream) { manhattan_distances(a_.data(), b_.data(), c_.data(), m_, k_, n_, stream); }
    course::AnswerSpans answer() const { return {c_.whole()}; }

   private:
    std::size_t m_, k_, n_;
    course::DeviceBuffer<float> a_, b_, c_;
  };
};

/// The nearest row of B for every row of A, and its distance: the answer of exercise 01-B.
struct Nearest {
  std::vector<std::uint32_t> index;
  std::vector<std::int32_t> distance;
};

/// Exercise 01-B: for every row of A, the nearest row of B (int32, squared Euclidean distances).
struct NearestNeighbourExercise : Distances<std::int32_t> {
  static constexpr const char* kTitle = "nearest neighbours, fused into the tiled kernel";
  using Output = Nearest;

  /// The reference: every distance exactly (lesson 01's reference), then the first smallest per row.
  static Nearest reference(const Problem<std::int32_t>& p) {
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

  /// "" when `got` is the reference's answer, else the first row that differs, described.
  static std::string compare(const Nearest& got, const Nearest& expected) {
    for (std::size_t i = 0; i < expected.index.size(); ++i)
      if (got.index[i] != expected.index[i] || got.distance[i] != expected.distance[i])
        return "row " + std::to_string(i) + " of A: got row " + std::to_string(got.index[i]) + " of B at distance " +
               std::to_string(got.distance[i]) + ", expected row " + std::to_string(expected.index[i]) +
               " at distance " + std::to_string(expected.distance[i]);
    return "";
  }

  /// The answer: the index of each row's nearest, then its distance.
  static Output read_answer(const Input& p, course::AnswerReader& answer) {
    Nearest got;
    got.index = answer.take_vector<std::uint32_t>(p.m);
    got.distance = answer.take_vector<std::int32_t>(p.m);
    return got;
  }

  static course::CheckResult check(const Input& p, const Output& got) {
    const std::string wrong = compare(got, reference(p));
    return {wrong.empty(), wrong.empty() ? "matches the reference" : wrong};
  }

  /// A, B, the two outputs and the student's scratch in device memory; run() calls nearest_neighbours.
  class OnDevice {
   public:
    explicit OnDevice(const Input& p)
        : m_(p.m),
          k_(p.k),
          n_(p.n),
          a_(p.a.size(), "matrix A"),
          b_(p.b.size(), "matrix B"),
          distance_(p.m, "distances"),
          index_(p.m, "indices"),
          scratch_(nearest_neighbour_scratch_bytes(p.m, p.k), "scratch") {
      a_.upload(p.a);
      b_.upload(p.b);
    }
    void poison(cudaStream_t stream) {
      index_.poison(stream);
      distance_.poison(stream);
    }
    void run(cudaStream_t stream) {
      nearest_neighbours(a_.data(), b_.data(), index_.data(), distance_.data(), m_, k_, n_, scratch_.data(), stream);
    }
    course::AnswerSpans answer() const { return {index_.whole(), distance_.whole()}; }

   private:
    std::size_t m_, k_, n_;
    course::DeviceBuffer<std::int32_t> a_, b_, distance_;
    course::DeviceBuffer<std::uint32_t> index_;
    course::DeviceBuffer<unsigned char> scratch_;
  };
};

}  // namespace exercise01

namespace course::wire {
template <class T>
struct Fields<distance::Problem<T>>
    : FieldsAre<&distance::Problem<T>::m,
                &distance::Problem<T>::k,
                &distance::Problem<T>::n,
                &distance::Problem<T>::a,
                &distance::Problem<T>::b> {};
}  // namespace course::wire
