// Lesson 02, max reduction: the plumbing every step program shares. It parses the command line, makes
// or reads the input, computes the reference, runs the step (timed, with the result poisoned before
// every run), checks the answer exactly (a maximum involves no rounding) and prints the report.
#include "max_reduction.h"

#include <algorithm>
#include <iostream>
#include <string>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "course/verify.h"

namespace max_reduction {

float reference_max(const float* values, std::size_t n) { return *std::max_element(values, values + n); }

namespace {

bool is_gpu(const Step& step) { return step.run_gpu != nullptr; }

int report(const course::Measurement& m, const course::CommonOptions& common, float result) {
  course::print_measurement(std::cout, m, common.format);
  if (!common.output.empty()) course::write_single_vector(common.output, std::vector<float>{result});
  if (m.verdict == "SKIP") return course::kExitSkipped;
  return m.verdict == "PASS" ? course::kExitPass : course::kExitFail;
}

int run_cpu_step(const Step& step, const std::vector<float>& values, const course::CommonOptions& common) {
  const float expected = reference_max(values.data(), values.size());
  float result = NAN;
  course::TimingStats time = course::time_cpu(
      [&] { result = step.run_cpu(values.data(), values.size()); }, common.timing, [&] { result = NAN; });
  course::Measurement m = describe(step, values.size());
  m.device = course::cpu_description(step.all_cores ? course::cpu_threads() : 1);
  m.time = time;
  course::Verdict v = course::compare_exact(&result, &expected, 1);
  m.verdict = v.pass ? "PASS" : "FAIL";
  m.detail = v.describe();
  return report(m, common, result);
}

int run_gpu_step(const Step& step, const std::vector<float>& values, const Options& options) {
  course::Measurement m = describe(step, values.size());
  const course::DeviceFacts device = course::query_device();
  const std::size_t n = values.size();
  const LaunchPlan plan = step.plan(n, device, options.requested);

  course::DeviceBuffer<float> input(n, "input array");
  course::DeviceBuffer<float> result(1, "result");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  input.upload(values);
  course::Stream stream;
  m.time = course::time_gpu(
      [&](cudaStream_t s) { step.run_gpu(input.data(), n, result.data(), plan, scratch.data(), s); },
      options.common.timing, stream.get(), [&](cudaStream_t s) { result.poison(s); });
  stream.synchronize();

  // The last timed run's answer (the result was poisoned just before it).
  float got = NAN;
  result.download(&got, 1);
  return report_gpu(m, values, got, options,
                    std::to_string(plan.blocks) + " blocks x " + std::to_string(plan.threads) + " threads");
}

}  // namespace

std::vector<float> load_input(const Options& options) {
  if (!options.common.input.empty()) return course::read_single_array<float>(options.common.input).values;
  return course::uniform_floats(options.n, -1.0f, 1.0f, options.common.seed);
}

course::Measurement describe(const Step& step, std::size_t n) {
  course::Measurement m;
  m.lesson = "02";
  m.step = step.number;
  m.title = step.title;
  m.kind = step.kind;
  m.size = "n=" + std::to_string(n);
  m.bytes = static_cast<double>(n) * sizeof(float);  // every element read once
  m.operations = static_cast<double>(n);             // and compared once
  m.operation = "comparison";
  m.rate_unit = "GB/s";
  return m;
}

int report_gpu(course::Measurement m, const std::vector<float>& values, float got, const Options& options,
               const std::string& launch) {
  const float expected = reference_max(values.data(), values.size());
  const course::Verdict v = course::compare_exact(&got, &expected, 1);
  const course::DeviceFacts device = course::query_device();
  m.device = device.name;
  // A reduction only reads: its ceiling is the read-only stream, which on some GPUs outruns a copy.
  m.ceiling = options.common.read_bandwidth_gbs > 0 ? options.common.read_bandwidth_gbs
                                                    : course::measure_read_bandwidth_gbs();
  m.ceiling_name = "read bandwidth";
  m.compute_ceiling = device.fp32_instruction_rate_gops();  // one compare per lane per clock
  m.verdict = v.pass ? "PASS" : "FAIL";
  m.detail = v.describe() + "; " + launch;
  return report(m, options.common, got);
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

bool parse_options(int argc, char** argv, const Step& step, Options& options) {
  options.program = course::program_name(argv[0]);
  course::CommandLine cli(options.program, std::string("Lesson 02, step ") + step.number + ": max reduction, " +
                                               step.title + ". Finds the largest of n floats drawn from (-1, 1).");
  cli.add_size("n", kDefaultCount, "number of floats", 1, 4294967295ull);
  cli.add_common_options(is_gpu(step) ? 20 : 5);
  if (is_gpu(step)) {
    cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
    cli.add_integer("blocks", 0, "blocks per grid for steps that choose it (0: the step's choice)", 0, 2147483647);
  }
  if (step.all_cores) cli.add_cpu_threads_option();
  if (!cli.parse(argc, argv)) return false;
  if (step.all_cores) course::set_cpu_threads(static_cast<int>(cli.integer("cpu-threads")));
  options.common = cli.common();
  options.n = cli.size("n");
  if (!options.common.input.empty() && cli.given("n"))
    throw course::UsageError("--n and --input cannot be combined (the file sets the size)");
  if (is_gpu(step)) {
    options.requested.threads = static_cast<int>(cli.integer("threads"));
    options.requested.blocks = static_cast<int>(cli.integer("blocks"));
  }
  return true;
}

int step_main(int argc, char** argv, const Step& step) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&] {
    Options options;
    if (!parse_options(argc, argv, step, options)) return course::kExitPass;  // --help
    std::string why;
    // Without a GPU, skip before making data (an --input file is still read, so it is still checked).
    if (is_gpu(step) && options.common.input.empty() && !course::cuda_device_available(&why))
      return course::report_skipped(program, describe(step, options.n), why, options.common.format);
    const std::vector<float> values = load_input(options);
    if (!is_gpu(step)) return run_cpu_step(step, values, options.common);
    if (!course::cuda_device_available(&why))
      return course::report_skipped(program, describe(step, values.size()), why, options.common.format);
    return run_gpu_step(step, values, options);
  });
}

}  // namespace max_reduction
