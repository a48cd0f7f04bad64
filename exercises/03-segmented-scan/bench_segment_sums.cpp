// Times exercise 03-B (one sum per segment) on 60,000,000 floats in random segments and prints one
// course measurement; built against your code (exercise03_segment_sums_bench) and against the solution.
#include <memory>

#include "exercise_support.h"
#include "segment_sums.h"

int main(int argc, char** argv) {
  struct Buffers {
    segscan::Problem<float> problem;
    exercise03::SegmentSums expected;
    course::DeviceBuffer<float> values, sums;
    course::DeviceBuffer<std::uint8_t> flags;
    course::DeviceBuffer<unsigned char> scratch;
  };
  std::unique_ptr<Buffers> b;
  return exercise03::bench_main(argc, argv, "one sum per segment", [&](std::size_t n, std::uint64_t seed) {
    b = std::make_unique<Buffers>();
    b->problem = segscan::make_problem<float>(n, segscan::Operator::Sum, segscan::Pattern::Random, seed);
    b->expected = exercise03::reference_segment_sums(b->problem);
    b->values = course::DeviceBuffer<float>(n, "values");
    b->flags = course::DeviceBuffer<std::uint8_t>(n, "flags");
    b->sums = course::DeviceBuffer<float>(b->expected.expected.size(), "sums");
    b->scratch = course::DeviceBuffer<unsigned char>(exercise03::segment_sums_scratch_bytes(n), "scratch");
    b->values.upload(b->problem.values);
    b->flags.upload(b->problem.flags);
    exercise03::Bench bench;
    bench.run = [&b, n](cudaStream_t s) {
      exercise03::segment_sums(b->values.data(), b->flags.data(), n, b->sums.data(), b->scratch.data(), s);
    };
    bench.poison = [&b](cudaStream_t s) { b->sums.poison(s); };
    bench.check = [&b]() { return exercise03::compare_segment_sums(b->sums.to_host(), b->expected); };
    // The bytes the problem needs: values and flags read, one float per segment written.
    bench.bytes = static_cast<double>(n) * (sizeof(float) + 1) + static_cast<double>(b->expected.expected.size()) * sizeof(float);
    return bench;
  });
}
