// Lesson 02, max reduction: what every step of the lesson shares on the host side.
//
// Each step file (01_cpu_sequential.cpp, 03_gpu_global_atomics.cu, ...) defines one `Step`, named
// kThisStep, describing how it finds the largest of n floats. The lesson's main (step_main.cpp) hands
// it to the course's step skeleton with the `Lesson` below (arguments, data, the CPU reference, timing,
// verification, report); the tests run it through run_gpu_once(). Step 03 runs its own host side on
// one page, with the pieces below.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <vector>

#include "course/device.h"
#include "course/step_program.h"

namespace max_reduction {

/// Default problem size: 40,960,000 floats, uniform in (-1, 1).
constexpr std::size_t kDefaultCount = 40960000;

/// How a GPU step launches for a given n: chosen once, outside the timed region.
struct LaunchPlan {
  int threads = 0;              ///< threads per block
  int blocks = 0;               ///< blocks per grid
  std::size_t scratch_bytes = 0;  ///< device scratch the step needs (partial results, CUB's storage)
};

/// One rung of the ladder.
struct Step {
  const char* number;  ///< "05"
  const char* title;   ///< "warp shuffle"
  const char* kind;    ///< "cpu", "gpu" or "library"

  /// CPU steps: returns the maximum of values[0..n).
  float (*run_cpu)(const float* values, std::size_t n);

  /// GPU steps: picks the launch for n elements. `requested` carries --threads/--blocks (0 = the
  /// step's own choice); a step may round or ignore them, and says so in its header comment.
  LaunchPlan (*plan)(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested);

  /// GPU steps: enqueues the reduction of values[0..n) into stream; the maximum goes to *result
  /// (device memory). `scratch` holds plan.scratch_bytes bytes. Every launch is checked.
  void (*run_gpu)(const float* values, std::size_t n, float* result, const LaunchPlan& plan, void* scratch,
                  cudaStream_t stream);

  /// CPU steps: whether the step uses every core (reported as "CPU, N threads").
  bool all_cores = false;

  /// Step 11: whether the step takes --gpus K and --scaling (it runs on several GPUs).
  bool on_gpus = false;
};

/// The step a program or test was built with (each step file defines it).
extern const Step kThisStep;

/// What a step program was asked to do.
struct Request : course::StepRequest {
  std::size_t n = kDefaultCount;  ///< number of floats (when they are generated)
  LaunchPlan requested;           ///< --threads and --blocks (0: the step's choice)
  long long gpus = 0;             ///< --gpus (step 11): how many GPUs, 0 for every GPU of the machine
  bool scaling = false;           ///< --scaling (step 11): the table of 1, 2, 4, ... GPUs instead of one run
};

/// Lesson 02 as the course's step skeleton sees it (course/step_program.h): its options, its
/// measurement, and one run of a step. Every step program is course::step_main<Lesson>.
struct Lesson {
  using Step = max_reduction::Step;
  using Request = max_reduction::Request;
  static constexpr const char* kNumber = "02";
  static constexpr const char* kProblem = "max reduction";
  static constexpr const char* kSummary = "Finds the largest of n floats drawn from (-1, 1).";
  static constexpr int kCpuReps = 5, kGpuReps = 20, kCpuWarmup = 3;
  static constexpr const char* kSetByInput[] = {"n"};
  static bool every_core(const Step& step) { return step.all_cores; }
  /// --n; --threads and --blocks for GPU steps.
  static void declare(course::CommandLine& cli, const Step& step);
  static void read(const course::CommandLine& cli, const Step& step, Request& request);
  /// The step, the size, the bytes read (each element once) and the comparisons (one per element).
  static course::Measurement describe(const Step& step, const Request& request);
  /// Loads the input, times the step (its result poisoned before every run), checks and reports.
  static int run(const Step& step, Request& request);
};

/// The input: the floats of --input, or n floats drawn uniformly from (-1, 1) with --seed.
std::vector<float> load_input(const Request& request);

/// Finishes a GPU step's measurement: checks `got` exactly against the largest of `values`, adds the
/// ceilings and `launch` (e.g. "160000 blocks x 256 threads"), prints the report and writes --output.
/// Returns the program's exit code (0 only on PASS). A step on @p gpus GPUs (step 11) names them and
/// counts every GPU's bandwidth in its ceiling.
int report_gpu(course::Measurement m, const std::vector<float>& values, float got, const Request& request,
               const std::string& launch, int gpus = 1);

/// The reference answer: the largest value, found by the standard library.
float reference_max(const float* values, std::size_t n);

/// Runs a GPU step once on `values` (allocating, uploading, poisoning the result first) and returns
/// what it computed. The array is placed `offset` floats past the start of its allocation (1-3 puts
/// it off a 16-byte boundary). Used by the tests. Throws course::CudaError on any CUDA failure.
float run_gpu_once(const Step& step, const std::vector<float>& values, const LaunchPlan& requested = {},
                   std::size_t offset = 0);

}  // namespace max_reduction
