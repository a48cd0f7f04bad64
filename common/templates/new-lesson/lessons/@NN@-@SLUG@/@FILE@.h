// Lesson @NN@, @TITLE@: what every step of the lesson shares on the host side.
//
// The problem (replace it with the lesson's own): n floats x, drawn from (-1, 1); every step computes
// y = 2 x + 1, element by element. 2 x is exact in floating point, so y has a single rounding however
// a step computes it, and every step's answer must equal the reference exactly.
//
// Each step file defines one `Step`, kThisStep. The lesson's main (step_main.cpp) hands it to the
// course's step skeleton (course/step_program.h) with the `Lesson` below; the tests run it through
// run_gpu_once().
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "course/device.h"
#include "course/step_program.h"

namespace @FILE@ {

/// Default problem size: 2^25 floats (128 MiB in, 128 MiB out), far beyond any GPU's L2 cache.
constexpr std::size_t kDefaultCount = std::size_t(1) << 25;

/// How a GPU step launches for a given n: chosen once, outside the timed region.
struct LaunchPlan {
  int threads = 0;  ///< threads per block
  int blocks = 0;   ///< blocks per grid
};

/// One rung of the ladder.
struct Step {
  const char* number;  ///< "02"
  const char* title;   ///< "naive GPU, one thread per element"
  const char* kind;    ///< "cpu", "gpu" or "library"
  /// CPU steps: y[0..n) from x[0..n).
  void (*run_cpu)(const float* x, float* y, std::size_t n);
  /// GPU steps: the launch for n elements; `requested` carries --threads (0: the step's choice).
  LaunchPlan (*plan)(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested);
  /// GPU steps: enqueues y = 2 x + 1 into stream (x and y in device memory, y poisoned by the caller).
  /// Every launch is checked.
  void (*run_gpu)(const float* x, float* y, std::size_t n, const LaunchPlan& plan, cudaStream_t stream);
};

/// The step a program or test was built with (each step file defines it).
extern const Step kThisStep;

/// What a step program was asked to do.
struct Request : course::StepRequest {
  std::size_t n = kDefaultCount;  ///< number of floats (when they are generated)
  LaunchPlan requested;           ///< --threads (0: the step's choice)
};

/// Lesson @NN@ as the course's step skeleton sees it (course/step_program.h).
struct Lesson {
  using Step = @FILE@::Step;
  using Request = @FILE@::Request;
  static constexpr const char* kNumber = "@NN@";
  static constexpr const char* kProblem = "@TITLE@";
  static constexpr const char* kSummary = "Computes y = 2 x + 1 for n floats x drawn from (-1, 1).";
  static constexpr int kCpuReps = 5, kGpuReps = 20, kCpuWarmup = 1;
  static constexpr const char* kSetByInput[] = {"n"};
  static bool every_core(const Step&) { return false; }
  /// --n; --threads for GPU steps.
  static void declare(course::CommandLine& cli, const Step& step);
  static void read(const course::CommandLine& cli, const Step& step, Request& request);
  /// The step, the size, the bytes that must move (x read once, y written once).
  static course::Measurement describe(const Step& step, const Request& request);
  /// Loads the input, times the step (y poisoned before every run), checks and reports.
  static int run(const Step& step, Request& request);
};

/// The reference answer: y = 2 x + 1, in order.
std::vector<float> reference(const std::vector<float>& x);

/// Runs a GPU step once on `x` (y poisoned first) and returns y. Used by the tests.
std::vector<float> run_gpu_once(const Step& step, const std::vector<float>& x, const LaunchPlan& requested = {});

}  // namespace @FILE@
