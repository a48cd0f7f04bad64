// Lesson @NN@ exercises: their problems as the course's exercise harness sees them (course/exercise.h),
// for the grading tests and the benchmarks. You do not need to read or change this file to do the
// exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "@FILE@.h"
#include "course/buffers.h"
#include "course/data.h"
#include "course/exercise.h"
#include "grid_stride.h"

namespace exercise@NN@ {

/// Exercise @NN@-A: the lesson's problem, y = 2 x + 1, computed by the student's grid_stride().
struct GridStrideExercise {
  static constexpr const char* kLesson = "@NN@";
  static constexpr const char* kTitle = "y = 2 x + 1, grid-stride loop";
  static constexpr int kReps = 20;
  using Input = std::vector<float>;
  using Output = std::vector<float>;

  static void declare(course::CommandLine& cli) {
    cli.add_size("n", @FILE@::kDefaultCount, "number of floats", 1, 4294967295ull);
  }
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    return course::uniform_floats(cli.size("n"), -1.0f, 1.0f, seed);
  }
  static void count(const Input& x, course::Measurement& m) {
    m.size = "n=" + std::to_string(x.size());
    m.bytes = 2.0 * static_cast<double>(x.size()) * sizeof(float);
    m.rate_unit = "GB/s";
  }
  /// The answer: y, as long as x.
  static Output read_answer(const Input& x, course::AnswerReader& answer) { return answer.take_vector<float>(x.size()); }
  /// Exact: 2 x is exact, so y has one rounding however it is computed.
  static course::CheckResult check(const Input& x, const Output& y) {
    const std::vector<float> expected = @FILE@::reference(x);
    return course::checked(course::compare_exact(y.data(), expected.data(), expected.size()));
  }

  /// x and y in device memory; run() calls the student's function.
  class OnDevice {
   public:
    explicit OnDevice(const Input& x) : x_(x.size(), "x"), y_(x.size(), "y") { x_.upload(x); }
    void poison(cudaStream_t stream) { y_.poison(stream); }
    void run(cudaStream_t stream) { grid_stride(x_.data(), y_.data(), x_.size(), stream); }
    course::AnswerSpans answer() const { return {y_.whole()}; }

   private:
    course::DeviceBuffer<float> x_, y_;
  };
};

}  // namespace exercise@NN@
