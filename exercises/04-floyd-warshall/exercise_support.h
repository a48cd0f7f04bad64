// Lesson 04 exercises: the plumbing the grading tests and benchmarks share. You do not need to read
// or change this file to do the exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "course/verify.h"
#include "floyd_warshall.h"

namespace exercise04 {

/// A seeded graph of lesson 04 with n vertices (4 parts, 5% density, weights 1..1000).
inline std::vector<std::int32_t> graph_for(std::size_t n, std::uint64_t seed, int parts = 4) {
  floyd_warshall::GraphOptions o;
  o.vertices = n;
  o.seed = seed;
  o.parts = parts;
  return floyd_warshall::make_graph(o);
}

/// What a benchmark times: `run` enqueues the exercise, `poison` spoils its outputs before each run,
/// `check` compares the last run's outputs with the reference.
struct Benchmark {
  std::function<void(cudaStream_t)> run;
  std::function<void(cudaStream_t)> poison;
  std::function<course::Verdict()> check;
};

/// The main of an exercise benchmark: makes the graph, lets `prepare` allocate and upload, times the
/// runs and prints a course measurement (n^3 operations), so that `./course grade` can set the
/// student's kernel beside the solution's.
inline int bench_main(int argc, char** argv, const char* title,
                      const std::function<Benchmark(const std::vector<std::int32_t>& graph, std::size_t n)>& prepare) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    course::CommandLine cli(program, std::string("Times the exercise: ") + title + ".");
    cli.add_size("n", floyd_warshall::kDefaultVertices, "number of vertices", 1, 46340);
    cli.add_common_options(5);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::CommonOptions common = cli.common();
    course::require_cuda_device();
    const std::size_t n = cli.size("n");
    const std::vector<std::int32_t> graph = graph_for(n, common.seed);
    Benchmark b = prepare(graph, n);
    course::Stream stream;
    course::Measurement m;
    m.lesson = "04";
    m.step = program.rfind("solution", 0) == 0 ? "solution" : "yours";
    m.title = title;
    m.kind = "gpu";
    m.size = "n=" + std::to_string(n);
    m.operations = static_cast<double>(n) * n * n;
    m.rate_unit = "Gop/s";
    m.time = course::time_gpu(b.run, common.timing, stream.get(), b.poison);
    const course::Verdict v = b.check();
    m.device = course::query_device().name;
    m.verdict = v.pass ? "PASS" : "FAIL";
    m.detail = v.describe(n);
    course::print_measurement(std::cout, m, common.format);
    return v.pass ? course::kExitPass : course::kExitFail;
  });
}

}  // namespace exercise04
