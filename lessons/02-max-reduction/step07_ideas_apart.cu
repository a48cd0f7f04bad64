// Lesson 02, step 07's ideas one at a time. Step 07 adds four things to step 06 at once: a persistent
// grid, 16-byte loads, four loads in flight per thread, and streaming loads (__ldcs, which tell the
// caches the data will not be read again). This program starts from step 06's way of reading (a
// thread per element, one 4-byte load each) and adds them one by one, timing each variant on the same
// array, so the table shows what each idea buys alone. Every variant reduces its blocks with step 06's
// warp shuffles and adds one atomic per block, with 512 threads per block, and every answer is
// checked exactly.
#include <cuda_runtime.h>

#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

#include "03_gpu_global_atomics.cuh"
#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "course/buffers.h"
#include "course/check.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/device.h"
#include "course/launch.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "max_reduction.h"
#include "max_reduction_device.cuh"

namespace {

constexpr int kThreads = 512;

template <bool kStreaming, class T>
__device__ inline T load(const T* address) {
  if constexpr (kStreaming) return __ldcs(address);
  return *address;
}

__device__ inline float max_of(float x) { return x; }
__device__ inline float max_of(float4 v) { return max_reduction::max4(v); }

// A grid-stride loop over `count` items (floats or float4s), kInFlight loads issued per turn before
// any is used. With one item per thread (the grid as large as the array) the loop runs once.
template <int kInFlight, bool kStreaming, class T>
__device__ inline float strided_max(const T* items, std::size_t count) {
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  float best = max_reduction::kLowest;
  std::size_t i = thread;
  for (; i + (kInFlight - 1) * threads < count; i += kInFlight * threads) {
    T v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = load<kStreaming>(items + i + k * threads);
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) best = fmaxf(best, max_of(v[k]));
  }
  for (; i < count; i += threads) best = fmaxf(best, max_of(load<kStreaming>(items + i)));
  return best;
}

template <bool kVectors, int kInFlight, bool kStreaming>
__global__ void variant_max(const float* values, std::size_t n, float* result) {
  float best;
  if constexpr (kVectors) {
    const max_reduction::Float4Split split = max_reduction::split_for_float4(values, n);
    best = strided_max<kInFlight, kStreaming>(split.vectors, split.vector_count);
    const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (thread < split.head) best = fmaxf(best, values[thread]);
    if (thread < n - split.tail_start) best = fmaxf(best, values[split.tail_start + thread]);
  } else {
    best = strided_max<kInFlight, kStreaming>(values, n);
  }
  best = max_reduction::block_max(best);
  if (threadIdx.x == 0) max_reduction::atomic_max_float(result, best);
}

struct Variant {
  const char* name;    // what this row adds
  const void* kernel;  // for the resident-block count
  void (*launch)(const float*, std::size_t, float*, int, cudaStream_t);
  bool persistent;     // a grid that fills the GPU once, or a thread per element (or per float4)
  bool vectors;
};

template <bool kVectors, int kInFlight, bool kStreaming>
void launch_variant(const float* values, std::size_t n, float* result, int blocks, cudaStream_t stream) {
  max_reduction::start_at_lowest(result, stream);
  variant_max<kVectors, kInFlight, kStreaming><<<blocks, kThreads, 0, stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

template <bool kVectors, int kInFlight, bool kStreaming>
Variant variant(const char* name, bool persistent) {
  return Variant{name, reinterpret_cast<const void*>(variant_max<kVectors, kInFlight, kStreaming>),
                 launch_variant<kVectors, kInFlight, kStreaming>, persistent, kVectors};
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("lesson02_step07_ideas_apart", [&] {
    course::CommandLine cli("lesson02_step07_ideas_apart",
                            "Times step 07's ideas one at a time, from step 06's reading to step 07's.");
    cli.add_size("n", max_reduction::kDefaultCount, "number of floats", 1, 4294967295ull);
    cli.add_integer("seed", 1, "seed of the input data generator", 0, 1LL << 62);
    cli.add_integer("reps", 20, "timed repetitions per variant", 1, 1000);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    std::string why;
    if (!course::cuda_device_available(&why)) {
      std::cerr << "lesson02_step07_ideas_apart: skipped: " << why << "\n";
      return course::kExitSkipped;
    }
    const course::DeviceFacts device = course::query_device();
    const std::size_t n = cli.size("n");
    const auto values = course::uniform_floats(n, -1.0f, 1.0f, static_cast<std::uint64_t>(cli.integer("seed")));
    const float expected = max_reduction::reference_max(values.data(), n);

    const std::vector<Variant> variants{
        variant<false, 1, false>("step 06's reading: a thread per element, 4-byte loads", false),
        variant<false, 1, false>("+ a persistent grid (each thread strides through the array)", true),
        variant<true, 1, false>("+ 16-byte loads (float4)", true),
        variant<true, 4, false>("+ four loads in flight per thread", true),
        variant<true, 4, true>("+ streaming loads (__ldcs): step 07", true),
    };

    course::DeviceBuffer<float> input(n, "input array");
    course::DeviceBuffer<float> result(1, "result");
    input.upload(values);
    course::Stream stream;
    course::TimingOptions timing;
    timing.reps = static_cast<int>(cli.integer("reps"));
    const double ceiling = course::measure_read_bandwidth_gbs();

    course::TextTable table({"variant", "blocks", "time ms", "GB/s", "% of read bandwidth", "vs previous", "vs first"});
    double first_ms = 0, previous_ms = 0;
    bool all_pass = true;
    for (const Variant& v : variants) {
      const std::size_t items = v.vectors ? n / 4 + 1 : n;  // a thread per element, or per float4
      const int blocks = v.persistent ? course::resident_blocks(v.kernel, kThreads, 0, device)
                                      : static_cast<int>((items + kThreads - 1) / kThreads);
      const course::TimingStats t = course::time_gpu(
          [&](cudaStream_t s) { v.launch(input.data(), n, result.data(), blocks, s); }, timing, stream.get(),
          [&](cudaStream_t s) { result.poison(s); });
      float got = 0;
      result.download(&got, 1);
      const bool pass = got == expected;
      all_pass = all_pass && pass;
      const double rate = n * sizeof(float) / (t.median_ms * 1e-3) / 1e9;
      if (first_ms == 0) first_ms = t.median_ms;
      table.add_row({v.name, std::to_string(blocks), course::format_significant(t.median_ms, 4),
                     pass ? course::format_significant(rate, 4) : "FAIL",
                     course::format_significant(100 * rate / ceiling, 3) + "%",
                     previous_ms > 0 ? course::format_significant(previous_ms / t.median_ms, 3) + "x" : "-",
                     course::format_significant(first_ms / t.median_ms, 3) + "x"});
      previous_ms = t.median_ms;
    }
    std::cout << "Step 07's ideas one at a time, n=" << n << ", " << kThreads << " threads per block, median of "
              << timing.reps << " runs, " << device.name << " (read bandwidth "
              << course::format_significant(ceiling, 4) << " GB/s)\n\n";
    table.print(std::cout);
    std::cout << (all_pass ? "\nevery variant PASS\n" : "\nsome variants FAIL\n");
    return all_pass ? course::kExitPass : course::kExitFail;
  });
}
