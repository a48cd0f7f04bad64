// Lesson 02, launch-configuration sweep: how step 07 (persistent grid, vector loads) depends on its
// launch. Rows are threads per block, columns blocks per grid; each cell is the bandwidth reached
// (GB/s, median of the timed runs), and every run's answer is checked. Too few threads in flight
// leave memory latency uncovered; beyond about one full wave of resident threads the gain stops.
// With --study it also sets the original study's kernel times on a GTX 970 beside this GPU's, for the
// configurations the study tried.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "course/buffers.h"
#include "course/process.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "max_reduction.h"

int main(int argc, char** argv) {
  return course::run_program("lesson02_sweep_launch_config", [&] {
    course::CommandLine cli("lesson02_sweep_launch_config",
                            std::string("Times lesson 02 step ") + max_reduction::kThisStep.number +
                                " over threads per block x blocks per grid.");
    cli.add_size("n", max_reduction::kDefaultCount, "number of floats", 1, 4294967295ull);
    cli.add_integer("seed", 1, "seed of the input data generator", 0, 1LL << 62);
    cli.add_integer("reps", 10, "timed repetitions per configuration", 1, 1000);
    cli.add_text("study", "", "the original study's sweep (CSV) to set beside this GPU's times", "FILE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::DeviceFacts device = course::query_device();
    const std::size_t n = cli.size("n");
    const auto values = course::uniform_floats(n, -1.0f, 1.0f, static_cast<std::uint64_t>(cli.integer("seed")));
    const float expected = max_reduction::reference_max(values.data(), n);

    const int sms = device.multiprocessors;
    const std::vector<int> thread_counts{32, 64, 128, 256, 512, 1024};
    // The study's block counts (4 to 128), then whole multiples of the SM count.
    const std::vector<int> block_counts{4, 16, 32, 64, 128, sms, 2 * sms, 4 * sms, 8 * sms, 16 * sms};
    std::map<std::pair<int, int>, double> median_ms;  // (threads, blocks) -> time

    course::DeviceBuffer<float> input(n, "input array");
    course::DeviceBuffer<float> result(1, "result");
    input.upload(values);
    course::Stream stream;
    course::TimingOptions timing;
    timing.reps = static_cast<int>(cli.integer("reps"));

    std::vector<std::string> headers{"threads \\ blocks"};
    for (int b : block_counts) headers.push_back(std::to_string(b) + (b % sms == 0 ? " (" + std::to_string(b / sms) + "/SM)" : ""));
    course::TextTable table(headers);
    double best_rate = 0;
    std::string best_config;
    bool all_pass = true;
    for (int threads : thread_counts) {
      std::vector<std::string> row{std::to_string(threads)};
      for (int blocks : block_counts) {
        max_reduction::LaunchPlan requested;
        requested.threads = threads;
        requested.blocks = blocks;
        const auto plan = max_reduction::kThisStep.plan(n, device, requested);
        course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
        auto t = course::time_gpu(
            [&](cudaStream_t s) { max_reduction::kThisStep.run_gpu(input.data(), n, result.data(), plan, scratch.data(), s); },
            timing, stream.get(), [&](cudaStream_t s) { result.poison(s); });
        float got = 0;
        result.download(&got, 1);
        const double rate = n * sizeof(float) / (t.median_ms * 1e-3) / 1e9;
        median_ms[{threads, blocks}] = t.median_ms;
        if (got != expected) all_pass = false;
        row.push_back(got == expected ? course::format_significant(rate, 4) : "FAIL");
        if (got == expected && rate > best_rate) {
          best_rate = rate;
          best_config = std::to_string(blocks) + " blocks x " + std::to_string(threads) + " threads";
        }
      }
      table.add_row(row);
    }
    std::cout << "Launch-configuration sweep, step " << max_reduction::kThisStep.number << " ("
              << max_reduction::kThisStep.title << "), n=" << n << ", GB/s (median of " << timing.reps
              << " runs), " << device.name << " with " << sms << " SMs\n\n";
    table.print(std::cout);
    std::cout << "\nbest: " << course::format_significant(best_rate, 4) << " GB/s with " << best_config
              << (all_pass ? "; every configuration PASS\n" : "; some configurations FAIL\n");

    // The study's configurations: its kernel times on a GTX 970 beside this GPU's, in ms.
    if (cli.given("study")) {
      const std::string path = cli.text("study");
      const std::string text = course::read_text_file(path);
      if (text.empty()) throw course::UsageError(path + ": cannot be read");
      const course::StudyFigures study = course::parse_study_figures(text, path);
      std::vector<int> study_blocks;
      for (const auto& r : study.rows)
        if (std::find(study_blocks.begin(), study_blocks.end(), std::stoi(r.at(0))) == study_blocks.end())
          study_blocks.push_back(std::stoi(r.at(0)));
      std::sort(study_blocks.begin(), study_blocks.end());
      std::vector<std::string> study_headers{"threads \\ blocks"};
      for (int b : study_blocks) study_headers.push_back(std::to_string(b));
      course::TextTable beside(study_headers);
      for (int threads : thread_counts) {
        std::vector<std::string> cells{std::to_string(threads)};
        for (int b : study_blocks) {
          std::string cell = "-";
          for (std::size_t i = 0; i < study.labels.size(); ++i)
            if (std::stoi(study.labels[i]) == threads && std::stoi(study.rows[i].at(0)) == b) {
              auto ours = median_ms.find({threads, b});
              cell = (ours != median_ms.end() ? course::format_significant(ours->second, 3) : "-") + " | " +
                     course::format_significant(std::stod(study.rows[i].at(2)), 3);
            }
          cells.push_back(cell);
        }
        beside.add_row(cells);
      }
      std::cout << "\nThe study's configurations, kernel time in ms: " << device.name << " | GeForce GTX 970 (the study)\n\n";
      beside.print(std::cout);
    }
    return all_pass ? course::kExitPass : course::kExitFail;
  });
}
