// Times exercise 03-A (stream compaction) on 60,000,000 floats and prints one course measurement; built
// against your code (exercise03_compact_bench) and against the solution.
#include <memory>

#include "compact.h"
#include "course/data.h"
#include "exercise_support.h"

int main(int argc, char** argv) {
  // The buffers live as long as the benchmark: they are made in prepare and kept here.
  struct Buffers {
    std::vector<float> values, expected;
    course::DeviceBuffer<float> in, out;
    course::DeviceBuffer<unsigned long long> count;
    course::DeviceBuffer<unsigned char> scratch;
  };
  std::unique_ptr<Buffers> b;
  return exercise03::bench_main(argc, argv, "keep the positive values", [&](std::size_t n, std::uint64_t seed) {
    b = std::make_unique<Buffers>();
    b->values = course::uniform_floats(n, -1.0f, 1.0f, seed);
    b->expected = exercise03::reference_compaction(b->values);
    b->in = course::DeviceBuffer<float>(n, "values");
    b->out = course::DeviceBuffer<float>(n, "kept");
    b->count = course::DeviceBuffer<unsigned long long>(1, "count");
    b->scratch = course::DeviceBuffer<unsigned char>(exercise03::compact_positive_scratch_bytes(n), "scratch");
    b->in.upload(b->values);
    exercise03::Bench bench;
    bench.run = [&b, n](cudaStream_t s) {
      exercise03::compact_positive(b->in.data(), n, b->out.data(), b->count.data(), b->scratch.data(), s);
    };
    bench.poison = [&b](cudaStream_t s) {
      b->out.poison(s);
      b->count.poison(s);
    };
    bench.check = [&b]() {
      const unsigned long long count = b->count.to_host()[0];
      std::vector<float> kept = b->out.to_host();
      course::Verdict v;
      if (count != b->expected.size()) {  // the count is wrong: say so, as one wrong value
        v.pass = false;
        v.checked = 1;
        v.mismatches = 1;
        v.got = static_cast<double>(count);
        v.expected = static_cast<double>(b->expected.size());
        return v;
      }
      return course::compare_exact(kept.data(), b->expected.data(), b->expected.size());
    };
    bench.bytes = static_cast<double>(n) * sizeof(float) + static_cast<double>(b->expected.size()) * sizeof(float);
    return bench;
  });
}
