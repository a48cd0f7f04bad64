// Lesson 02: times variants of one step side by side (see compare_variants.h).
#include "compare_variants.h"

#include <iostream>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "max_reduction.h"

namespace max_reduction {

int compare_variants(int argc, char** argv, const std::string& program, const std::string& title,
                     const VariantMaker& make_variants) {
  return course::run_program(program.c_str(), [&] {
    course::CommandLine cli(program, title + ", timed side by side on the same array.");
    cli.add_size("n", kDefaultCount, "number of floats", 1, 4294967295ull);
    cli.add_integer("seed", 1, "seed of the input data generator", 0, 1LL << 62);
    cli.add_integer("reps", 20, "timed repetitions per variant", 1, 1000);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    std::string why;
    if (!course::cuda_device_available(&why)) {
      std::cerr << program << ": skipped: " << why << "\n";
      return course::kExitSkipped;
    }
    const course::DeviceFacts device = course::query_device();
    const std::size_t n = cli.size("n");
    const auto values = course::uniform_floats(n, -1.0f, 1.0f, static_cast<std::uint64_t>(cli.integer("seed")));
    const float expected = reference_max(values.data(), n);

    course::DeviceBuffer<float> input(n, "input array");
    input.upload(values);
    const std::vector<Variant> variants = make_variants(n, device);
    course::Stream stream;
    course::TimingOptions timing;
    timing.reps = static_cast<int>(cli.integer("reps"));
    const double ceiling = course::measure_read_bandwidth_gbs();

    course::TextTable table({"variant", "blocks", "time ms", "GB/s", "% of read bandwidth", "vs previous", "vs first"});
    double first_ms = 0, previous_ms = 0;
    bool all_pass = true;
    // Interleaved: each repetition runs every variant once, so that none is timed alone in a stretch of
    // the run where the GPU's clocks happened to be lower.
    // Each variant its own result, poisoned before each of its runs: what its last timed run left is
    // what is checked.
    std::vector<course::DeviceBuffer<float>> results;
    std::vector<std::function<void(cudaStream_t)>> runs;
    for (std::size_t i = 0; i < variants.size(); ++i) results.emplace_back(1, "a variant's result");
    for (std::size_t i = 0; i < variants.size(); ++i)
      runs.push_back([&, i](cudaStream_t s) { variants[i].run(input.data(), n, results[i].data(), s); });
    const std::vector<course::TimingStats> times =
        course::time_gpu_interleaved(runs, timing, stream.get(), [&](std::size_t i, cudaStream_t s) { results[i].poison(s); });
    stream.synchronize();
    for (std::size_t i = 0; i < variants.size(); ++i) {
      const Variant& v = variants[i];
      const course::TimingStats& t = times[i];
      float got = 0;
      results[i].download(&got, 1);
      const bool pass = got == expected;  // a maximum involves no rounding
      all_pass = all_pass && pass;
      const double rate = n * sizeof(float) / (t.median_ms * 1e-3) / 1e9;
      if (first_ms == 0) first_ms = t.median_ms;
      table.add_row({v.name, v.blocks > 0 ? std::to_string(v.blocks) : "-", course::format_significant(t.median_ms, 4),
                     pass ? course::format_significant(rate, 4) : "FAIL",
                     course::format_significant(100 * rate / ceiling, 3) + "%",
                     previous_ms > 0 ? course::format_significant(previous_ms / t.median_ms, 3) + "x" : "-",
                     course::format_significant(first_ms / t.median_ms, 3) + "x"});
      previous_ms = t.median_ms;
    }
    std::cout << title << ", n=" << n << ", median of " << timing.reps << " runs, " << device.name
              << " (read bandwidth " << course::format_significant(ceiling, 4) << " GB/s)\n\n";
    table.print(std::cout);
    std::cout << (all_pass ? "\nevery variant PASS\n" : "\nsome variants FAIL\n");
    return all_pass ? course::kExitPass : course::kExitFail;
  });
}

}  // namespace max_reduction
