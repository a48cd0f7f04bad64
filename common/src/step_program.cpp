#include "course/step_program.h"

#include <iostream>

#include "course/buffers.h"
#include "course/timing.h"

namespace course {

std::string step_summary(const char* lesson, const char* step, const char* problem, const char* title,
                         const char* summary) {
  std::string text = std::string("Lesson ") + lesson + ", step " + step + ": " + problem + ", " + title + ".";
  if (summary != nullptr && *summary != '\0') text += std::string(" ") + summary;
  return text;
}

void reject_with_input(const CommandLine& cli, const std::vector<std::string>& options) {
  for (const std::string& option : options)
    if (cli.given(option))
      throw UsageError("--" + option + " and --input cannot be combined (the input file sets it)");
}

void time_cpu_step(Measurement& m, const StepRequest& request, int threads, const std::function<void()>& run,
                   const std::function<void()>& poison) {
  m.device = cpu_description(threads);
  m.time = time_cpu(run, request.common.timing, poison);
}

void time_gpu_step(Measurement& m, const StepRequest& request, const std::function<void(cudaStream_t)>& run,
                   const std::function<void(cudaStream_t)>& poison) {
  m.device = query_device().name;
  Stream stream;
  m.time = time_gpu(run, request.common.timing, stream.get(), poison);
  stream.synchronize();
}

void set_bandwidth_ceiling(Measurement& m, const CommonOptions& common, Bandwidth kind) {
  if (kind == Bandwidth::kCopy) {
    m.ceiling = common.copy_bandwidth_gbs > 0 ? common.copy_bandwidth_gbs : measure_copy_bandwidth_gbs();
    m.ceiling_name = "copy bandwidth";
  } else {
    m.ceiling = common.read_bandwidth_gbs > 0 ? common.read_bandwidth_gbs : measure_read_bandwidth_gbs();
    m.ceiling_name = "read bandwidth";
  }
}

int finish_step(Measurement m, bool pass, const std::string& detail, const StepRequest& request,
                const std::function<void(const std::string& path)>& write_output) {
  m.verdict = pass ? "PASS" : "FAIL";
  m.detail = detail;
  print_measurement(std::cout, m, request.common.format);
  if (!request.common.output.empty()) write_output(request.common.output);
  return pass ? kExitPass : kExitFail;
}

}  // namespace course
