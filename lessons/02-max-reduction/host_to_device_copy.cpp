// Lesson 02, the cost of getting the data there: end to end, a reduction on the GPU also pays for
// copying its input from host memory, over PCIe (or NVLink-C2C). This program times that copy from
// ordinary (pageable) memory, which the driver must first stage through a pinned buffer, and from
// pinned (page-locked) memory, which the copy engine reads directly; then the reduction itself
// (step 06). At tens of GB/s against the GPU memory's thousands, the copy dominates: a GPU reduction
// pays off when the data already lives on the GPU.
#include <cstring>
#include <iostream>
#include <string>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "max_reduction.h"

int main(int argc, char** argv) {
  return course::run_program("lesson02_host_to_device_copy", [&] {
    course::CommandLine cli("lesson02_host_to_device_copy",
                            "Times the host-to-device copy of the input (pageable and pinned) beside the reduction.");
    cli.add_size("n", max_reduction::kDefaultCount, "number of floats", 1, 4294967295ull);
    cli.add_integer("seed", 1, "seed of the input data generator", 0, 1LL << 62);
    cli.add_integer("reps", 10, "timed repetitions", 1, 1000);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::DeviceFacts device = course::query_device();
    const std::size_t n = cli.size("n");
    const std::size_t bytes = n * sizeof(float);
    const auto pageable = course::uniform_floats(n, -1.0f, 1.0f, static_cast<std::uint64_t>(cli.integer("seed")));
    course::PinnedBuffer<float> pinned(n);
    std::memcpy(pinned.data(), pageable.data(), bytes);

    course::DeviceBuffer<float> input(n, "input array");
    course::DeviceBuffer<float> result(1, "result");
    course::Stream stream;
    course::TimingOptions timing;
    timing.reps = static_cast<int>(cli.integer("reps"));
    timing.flush_l2 = false;  // copies write device memory; the cache state does not matter

    auto copy_from = [&](const float* host) {
      return course::time_gpu(
          [&](cudaStream_t s) { CUDA_CHECK(cudaMemcpyAsync(input.data(), host, bytes, cudaMemcpyHostToDevice, s)); },
          timing, stream.get(), [&](cudaStream_t s) { input.poison(s); });
    };
    const course::TimingStats t_pageable = copy_from(pageable.data());
    const course::TimingStats t_pinned = copy_from(pinned.data());

    const auto plan = max_reduction::kThisStep.plan(n, device, {});
    course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
    course::TimingOptions kernel_timing = timing;
    kernel_timing.flush_l2 = true;
    const course::TimingStats t_reduce = course::time_gpu(
        [&](cudaStream_t s) { max_reduction::kThisStep.run_gpu(input.data(), n, result.data(), plan, scratch.data(), s); },
        kernel_timing, stream.get(), [&](cudaStream_t s) { result.poison(s); });
    float got = 0;
    result.download(&got, 1);
    const bool pass = got == max_reduction::reference_max(pageable.data(), n);

    const double total = t_pinned.median_ms + t_reduce.median_ms;
    auto row = [&](const std::string& what, double ms) {
      return std::vector<std::string>{what, course::format_significant(ms, 4),
                                      course::format_significant(bytes / (ms * 1e-3) / 1e9, 4),
                                      course::format_significant(ms / t_reduce.median_ms, 3) + "x"};
    };
    course::TextTable table({"stage", "time ms", "GB/s", "time / reduction"});
    table.add_row(row("host-to-device copy, pageable memory", t_pageable.median_ms));
    table.add_row(row("host-to-device copy, pinned memory", t_pinned.median_ms));
    table.add_row(row(std::string("reduction on the GPU (step ") + max_reduction::kThisStep.number + ")", t_reduce.median_ms));
    table.add_row(row("end to end: pinned copy + reduction", total));
    std::cout << "Where the time goes end to end, n=" << n << " (" << course::format_significant(bytes / 1e6, 4)
              << " MB), " << device.name << ", medians of " << timing.reps << " runs\n\n";
    table.print(std::cout);
    std::cout << "\nthe reduction is " << course::format_significant(100.0 * t_reduce.median_ms / total, 3)
              << "% of the end-to-end time with pinned memory; reduction " << (pass ? "PASS" : "FAIL") << "\n";
    return pass ? course::kExitPass : course::kExitFail;
  });
}
