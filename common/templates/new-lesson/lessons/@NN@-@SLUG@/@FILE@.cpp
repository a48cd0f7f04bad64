// Lesson @NN@, @TITLE@: what the lesson's step programs share. The course's step skeleton
// (course/step_program.h) reads the command line; the lesson makes or reads the input, runs the step
// (timed, with y poisoned before every run), checks y exactly against the reference and reports.
#include "@FILE@.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/data.h"
#include "course/verify.h"

namespace @FILE@ {

std::vector<float> reference(const std::vector<float>& x) {
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = 2.0f * x[i] + 1.0f;
  return y;
}

void Lesson::declare(course::CommandLine& cli, const Step& step) {
  cli.add_size("n", kDefaultCount, "number of floats", 1, 4294967295ull);
  if (course::runs_on_gpu(step)) cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
}

void Lesson::read(const course::CommandLine& cli, const Step& step, Request& request) {
  request.n = cli.size("n");
  if (course::runs_on_gpu(step)) request.requested.threads = static_cast<int>(cli.integer("threads"));
}

course::Measurement Lesson::describe(const Step& step, const Request& request) {
  course::Measurement m = course::step_measurement(kNumber, step);
  m.size = "n=" + std::to_string(request.n);
  m.bytes = 2.0 * static_cast<double>(request.n) * sizeof(float);  // x read once, y written once
  m.operations = static_cast<double>(request.n);                   // one multiply-add per element
  m.operation = "multiply-add";
  m.rate_unit = "GB/s";
  return m;
}

int Lesson::run(const Step& step, Request& request) {
  const std::vector<float> x = request.common.input.empty()
                                   ? course::uniform_floats(request.n, -1.0f, 1.0f, request.common.seed)
                                   : course::read_single_array<float>(request.common.input).values;
  const std::size_t n = request.n = x.size();
  course::Measurement m = describe(step, request);
  std::vector<float> y(n);
  if (!course::runs_on_gpu(step)) {
    course::time_cpu_step(m, request, 1, [&] { step.run_cpu(x.data(), y.data(), n); },
                          [&] { std::fill(y.begin(), y.end(), NAN); });
  } else {
    course::require_cuda_device();
    const LaunchPlan plan = step.plan(n, course::query_device(), request.requested);
    course::DeviceBuffer<float> d_x(n, "x"), d_y(n, "y");
    d_x.upload(x);
    course::time_gpu_step(
        m, request, [&](cudaStream_t s) { step.run_gpu(d_x.data(), d_y.data(), n, plan, s); },
        [&](cudaStream_t s) { d_y.poison(s); });
    d_y.download(y.data(), n);  // the last timed run's answer
    // Each element is read once and written once: the ceiling is the device-to-device copy.
    course::set_bandwidth_ceiling(m, request.common, course::Bandwidth::kCopy);
  }
  const std::vector<float> expected = reference(x);
  const course::Verdict v = course::compare_exact(y.data(), expected.data(), n);
  return course::finish_step(m, v.pass, v.describe(), request,
                             [&](const std::string& path) { course::write_single_vector(path, y); });
}

std::vector<float> run_gpu_once(const Step& step, const std::vector<float>& x, const LaunchPlan& requested) {
  const LaunchPlan plan = step.plan(x.size(), course::query_device(), requested);
  course::DeviceBuffer<float> d_x(x.size(), "x"), d_y(x.size(), "y");
  d_x.upload(x);
  d_y.poison();
  step.run_gpu(d_x.data(), d_y.data(), x.size(), plan, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_y.to_host();
}

}  // namespace @FILE@
