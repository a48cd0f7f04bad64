// course_device_info: prints the GPU's facts and, with --measure, the copy and read-only bandwidth
// ceilings, measured once. The runner calls it once per course run and hands the figure to every step, so all the rows of
// a table share one ceiling.
#include <cstdio>
#include <iostream>

#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"

int main(int argc, char** argv) {
  return course::run_program("course_device_info", [&] {
    course::CommandLine cli("course_device_info", "Prints the GPU's facts and its measured copy bandwidth.");
    cli.add_flag("measure", "also measure the copy and read-only bandwidths (a few seconds)");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    course::DeviceFacts f = course::query_device();
    std::printf("name=%s\n", f.name.c_str());
    std::printf("compute_capability=%s\n", f.compute_capability().c_str());
    std::printf("multiprocessors=%d\n", f.multiprocessors);
    std::printf("memory_gib=%.1f\n", static_cast<double>(f.global_memory_bytes) / (1ull << 30));
    std::printf("l2_mib=%.1f\n", static_cast<double>(f.l2_bytes) / (1 << 20));
    std::printf("sm_clock_ghz=%.3f\n", f.sm_clock_ghz);
    std::printf("peak_fp32_gflops=%.0f\n", f.peak_fp32_gflops());
    std::printf("datasheet_bandwidth_gbs=%.0f\n", f.datasheet_bandwidth_gbs());
    if (cli.flag("measure")) {
      std::printf("copy_bandwidth_gbs=%.1f\n", course::measure_copy_bandwidth_gbs());
      std::printf("read_bandwidth_gbs=%.1f\n", course::measure_read_bandwidth_gbs());
    }
    return course::kExitPass;
  });
}
