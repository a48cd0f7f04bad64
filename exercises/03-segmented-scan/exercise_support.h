// Lesson 03 exercises: the plumbing the grading tests and benchmarks share. You do not need to read or
// change this file to do the exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
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
#include "segmented_scan.h"

namespace exercise03 {

/// The kept elements (those greater than zero), in order: what compact_positive() must produce.
inline std::vector<float> reference_compaction(const std::vector<float>& values) {
  std::vector<float> kept;
  for (float x : values)
    if (x > 0.0f) kept.push_back(x);
  return kept;
}

/// What compact_positive() produced on the GPU (kept poisoned first): the count and the kept elements.
struct Compaction {
  unsigned long long count = 0;
  std::vector<float> kept;  ///< the first min(count, n) elements of the output
};

/// Runs @p compact once on @p values.
inline Compaction run_compaction(
    const std::vector<float>& values, std::size_t scratch_bytes,
    const std::function<void(const float*, std::size_t, float*, unsigned long long*, void*, cudaStream_t)>& compact) {
  const std::size_t n = values.size();
  course::DeviceBuffer<float> in(n, "values"), out(n, "kept");
  course::DeviceBuffer<unsigned long long> count(1, "count");
  course::DeviceBuffer<unsigned char> scratch(scratch_bytes, "scratch");
  in.upload(values);
  out.poison();
  count.poison();
  compact(in.data(), n, out.data(), count.data(), scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  Compaction c;
  c.count = count.to_host()[0];
  c.kept = out.to_host();
  c.kept.resize(static_cast<std::size_t>(std::min<unsigned long long>(c.count, n)));
  return c;
}

/// The segments' sums in long double, and the tolerance for a float sum of each: 4 u sqrt(k) A, with
/// k the segment's length, A the sum of its |values| and u = 2^-24 (lesson 03's rule for float sums).
struct SegmentSums {
  std::vector<double> expected, allowed;
};

inline SegmentSums reference_segment_sums(const segscan::Problem<float>& p) {
  SegmentSums s;
  long double sum = 0, magnitude = 0;
  std::size_t length = 0;
  auto close = [&] {
    s.expected.push_back(static_cast<double>(sum));
    s.allowed.push_back(static_cast<double>(4 * std::ldexp(1.0L, -24) * std::sqrt(static_cast<long double>(length)) * magnitude));
  };
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    if (i > 0 && p.flags[i]) {
      close();
      sum = magnitude = 0;
      length = 0;
    }
    sum += p.values[i];
    magnitude += std::fabs(static_cast<long double>(p.values[i]));
    ++length;
  }
  if (!p.values.empty()) close();
  return s;
}

/// Compares sums with the reference, each within its own tolerance; reports the worst.
inline course::Verdict compare_segment_sums(const std::vector<float>& got, const SegmentSums& want) {
  course::Verdict v;
  v.checked = want.expected.size();
  double worst = -1;
  for (std::size_t s = 0; s < want.expected.size(); ++s) {
    const double error = std::fabs(static_cast<double>(got[s]) - want.expected[s]);
    const bool bad = !(error <= want.allowed[s]);
    if (bad) ++v.mismatches;
    const double ratio = std::isnan(error) ? INFINITY : want.allowed[s] > 0 ? error / want.allowed[s] : (error > 0 ? INFINITY : 0);
    if (ratio > worst) {
      worst = ratio;
      v.worst_index = s;
      v.got = got[s];
      v.expected = want.expected[s];
      v.error = std::isnan(error) ? INFINITY : error;
      v.allowed = want.allowed[s];
    }
  }
  v.pass = v.mismatches == 0;
  return v;
}

/// Runs @p sums_of once on @p p (the sums poisoned first) and returns one sum per segment.
inline std::vector<float> run_segment_sums(
    const segscan::Problem<float>& p, std::size_t scratch_bytes,
    const std::function<void(const float*, const std::uint8_t*, std::size_t, float*, void*, cudaStream_t)>& sums_of) {
  const std::size_t n = p.values.size();
  std::size_t segments = 0;
  for (std::uint8_t f : p.flags) segments += f;
  course::DeviceBuffer<float> values(n, "values"), sums(segments, "sums");
  course::DeviceBuffer<std::uint8_t> flags(n, "flags");
  course::DeviceBuffer<unsigned char> scratch(scratch_bytes, "scratch");
  values.upload(p.values);
  flags.upload(p.flags);
  sums.poison();
  sums_of(values.data(), flags.data(), n, sums.data(), scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return sums.to_host();
}

/// The main of an exercise benchmark: times @p run on 60,000,000 elements (by default) after @p prepare
/// has uploaded the input, and prints one course measurement so that `./course grade` can set the
/// student's kernel beside the solution's. @p run enqueues one run; @p check says whether the last
/// run's output is right (a verdict); @p bytes is what the run must move.
struct Bench {
  std::function<void(cudaStream_t)> run;
  std::function<void(cudaStream_t)> poison;
  std::function<course::Verdict()> check;
  double bytes = 0;
};
inline int bench_main(int argc, char** argv, const char* title,
                      const std::function<Bench(std::size_t n, std::uint64_t seed)>& prepare) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    course::CommandLine cli(program, std::string("Times the exercise: ") + title + ".");
    cli.add_size("n", segscan::kDefaultCount, "elements", 1, 2147483647ull);
    cli.add_common_options(20);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::CommonOptions common = cli.common();
    course::require_cuda_device();
    const std::size_t n = cli.size("n");
    Bench bench = prepare(n, common.seed);
    course::Stream stream;
    course::Measurement r;
    r.lesson = "03";
    r.step = program.rfind("solution", 0) == 0 ? "solution" : "yours";
    r.title = title;
    r.kind = "gpu";
    r.size = "n=" + std::to_string(n);
    r.bytes = bench.bytes;
    r.rate_unit = "GB/s";
    r.time = course::time_gpu(bench.run, common.timing, stream.get(), bench.poison);
    const course::Verdict v = bench.check();
    r.device = course::query_device().name;
    r.verdict = v.pass ? "PASS" : "FAIL";
    r.detail = v.describe();
    course::print_measurement(std::cout, r, common.format);
    return v.pass ? course::kExitPass : course::kExitFail;
  });
}

}  // namespace exercise03
