// Lesson 02 exercises: the plumbing the grading tests and benchmarks share. You do not need to read
// or change this file to do the exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "course/verify.h"

namespace exercise02 {

/// The signature every lesson 02 exercise implements.
template <class Result>
using Kernel = void (*)(const float* values, std::size_t n, Result* result, void* scratch, cudaStream_t stream);

/// Runs `run` once on `values`, placed `offset` floats past the start of a device allocation (an
/// offset of 1-3 makes the array start off a 16-byte boundary), with a poisoned result.
template <class Result>
Result run_once(const std::vector<float>& values, std::size_t (*scratch_bytes)(std::size_t), Kernel<Result> run,
                std::size_t offset = 0) {
  const std::size_t n = values.size();
  course::DeviceBuffer<float> input(n + offset, "input array");
  CUDA_CHECK(cudaMemcpy(input.data() + offset, values.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  course::DeviceBuffer<Result> result(1, "result");
  course::DeviceBuffer<unsigned char> scratch(scratch_bytes(n), "scratch");
  result.poison();
  run(input.data() + offset, n, result.data(), scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  Result got;
  result.download(&got, 1);
  return got;
}

/// The main of an exercise benchmark: times `run` on n floats from (-1, 1), checks the answer with
/// `check` (which returns the verdict) and prints a course measurement, so that `./course grade`
/// can set the student's kernel beside the solution's.
template <class Result>
int bench_main(int argc, char** argv, const char* title, std::size_t (*scratch_bytes)(std::size_t),
               Kernel<Result> run, const std::function<course::Verdict(const Result&, const std::vector<float>&)>& check) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    course::CommandLine cli(program, std::string("Times the exercise: ") + title + ".");
    cli.add_size("n", 40960000, "number of floats", 1, 4294967295ull);
    cli.add_common_options(20);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::CommonOptions common = cli.common();
    course::Measurement m;
    m.lesson = "02";
    m.step = program.rfind("solution", 0) == 0 ? "solution" : "yours";
    m.title = title;
    m.kind = "gpu";
    const std::size_t n = cli.size("n");
    m.size = "n=" + std::to_string(n);
    m.bytes = static_cast<double>(n) * sizeof(float);
    m.rate_unit = "GB/s";
    course::require_cuda_device();
    const auto values = course::uniform_floats(n, -1.0f, 1.0f, common.seed);
    course::DeviceBuffer<float> input(n, "input array");
    course::DeviceBuffer<Result> result(1, "result");
    course::DeviceBuffer<unsigned char> scratch(scratch_bytes(n), "scratch");
    input.upload(values);
    course::Stream stream;
    m.time = course::time_gpu([&](cudaStream_t s) { run(input.data(), n, result.data(), scratch.data(), s); },
                              common.timing, stream.get(), [&](cudaStream_t s) { result.poison(s); });
    Result got;
    result.download(&got, 1);
    const course::Verdict v = check(got, values);
    m.device = course::query_device().name;
    m.verdict = v.pass ? "PASS" : "FAIL";
    m.detail = v.describe();
    course::print_measurement(std::cout, m, common.format);
    return v.pass ? course::kExitPass : course::kExitFail;
  });
}

}  // namespace exercise02
