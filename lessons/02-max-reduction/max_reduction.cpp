// Lesson 02, max reduction: what the lesson's step programs share. The course's step skeleton
// (course/step_program.h) parses the command line; the lesson makes or reads the input, runs the step
// (timed, with the result poisoned before every run), checks the answer exactly (a maximum involves no
// rounding) and reports.
#include "max_reduction.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/data.h"
#include "course/verify.h"

namespace max_reduction {

float reference_max(const float* values, std::size_t n) { return *std::max_element(values, values + n); }

void Lesson::declare(course::CommandLine& cli, const Step& step) {
  cli.add_size("n", kDefaultCount, "number of floats", 1, 4294967295ull);
  if (course::runs_on_gpu(step)) {
    cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
    cli.add_integer("blocks", 0, "blocks per grid for steps that choose it (0: the step's choice)", 0, 2147483647);
  }
  if (step.on_gpus) {
    cli.add_integer("gpus", 0, "GPUs to share the array (default: every GPU of the machine)", 1, 4096);
    cli.add_flag("scaling", "print the table of 1, 2, 4, ... GPUs (as many as the machine has) instead of one run");
  }
}

void Lesson::read(const course::CommandLine& cli, const Step& step, Request& request) {
  request.n = cli.size("n");
  if (course::runs_on_gpu(step)) {
    request.requested.threads = static_cast<int>(cli.integer("threads"));
    request.requested.blocks = static_cast<int>(cli.integer("blocks"));
  }
  if (step.on_gpus) {
    request.gpus = cli.integer("gpus");
    request.scaling = cli.flag("scaling");
    if (request.scaling && cli.given("gpus")) throw course::UsageError("--scaling runs every number of GPUs: leave out --gpus");
  }
}

course::Measurement Lesson::describe(const Step& step, const Request& request) {
  course::Measurement m = course::step_measurement(kNumber, step);
  m.size = "n=" + std::to_string(request.n);
  m.bytes = static_cast<double>(request.n) * sizeof(float);  // every element read once
  m.operations = static_cast<double>(request.n);             // and compared once
  m.operation = "comparison";
  m.rate_unit = "GB/s";
  return m;
}

std::vector<float> load_input(const Request& request) {
  if (!request.common.input.empty()) return course::read_single_array<float>(request.common.input).values;
  return course::uniform_floats(request.n, -1.0f, 1.0f, request.common.seed);
}

namespace {

// The verdict (exact: a maximum involves no rounding), the report, and the answer to --output.
int finish(const course::Measurement& m, const std::vector<float>& values, float got, const Request& request,
           const std::string& launch) {
  const float expected = reference_max(values.data(), values.size());
  const course::Verdict v = course::compare_exact(&got, &expected, 1);
  return course::finish_step(m, v.pass, v.describe() + launch, request, [&](const std::string& path) {
    course::write_single_vector(path, std::vector<float>{got});
  });
}

}  // namespace

int report_gpu(course::Measurement m, const std::vector<float>& values, float got, const Request& request,
               const std::string& launch, int gpus) {
  const course::DeviceFacts device = course::query_device();
  m.device = gpus > 1 ? std::to_string(gpus) + " x " + device.name : device.name;
  // A reduction only reads: its ceiling is the read-only stream (of every GPU at work), which on some
  // GPUs outruns a copy.
  course::set_bandwidth_ceiling(m, request.common, course::Bandwidth::kRead);
  m.ceiling *= gpus;
  if (gpus > 1) m.ceiling_name = "read bandwidth of " + std::to_string(gpus) + " GPUs";
  m.compute_ceiling = gpus * device.fp32_instruction_rate_gops();  // one compare per lane per clock
  return finish(m, values, got, request, "; " + launch);
}

int Lesson::run(const Step& step, Request& request) {
  const std::vector<float> values = load_input(request);
  const std::size_t n = request.n = values.size();
  course::Measurement m = describe(step, request);
  if (!course::runs_on_gpu(step)) {
    float got = NAN;
    course::time_cpu_step(m, request, step.all_cores ? course::cpu_threads() : 1,
                          [&] { got = step.run_cpu(values.data(), n); }, [&] { got = NAN; });
    return finish(m, values, got, request, "");
  }
  course::require_cuda_device();
  const LaunchPlan plan = step.plan(n, course::query_device(), request.requested);
  course::DeviceBuffer<float> input(n, "input array");
  course::DeviceBuffer<float> result(1, "result");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  input.upload(values);
  course::time_gpu_step(
      m, request, [&](cudaStream_t s) { step.run_gpu(input.data(), n, result.data(), plan, scratch.data(), s); },
      [&](cudaStream_t s) { result.poison(s); });
  float got = NAN;  // the last timed run's answer (the result was poisoned just before it)
  result.download(&got, 1);
  return report_gpu(m, values, got, request,
                    std::to_string(plan.blocks) + " blocks x " + std::to_string(plan.threads) + " threads");
}

float run_gpu_once(const Step& step, const std::vector<float>& values, const LaunchPlan& requested,
                   std::size_t offset) {
  const course::DeviceFacts device = course::query_device();
  const LaunchPlan plan = step.plan(values.size(), device, requested);
  course::DeviceBuffer<float> input(offset + values.size(), "input array");
  course::DeviceBuffer<float> result(1, "result");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  CUDA_CHECK(cudaMemcpy(input.data() + offset, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice));
  result.poison();
  step.run_gpu(input.data() + offset, values.size(), result.data(), plan, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  float got = NAN;
  result.download(&got, 1);
  return got;
}

}  // namespace max_reduction
