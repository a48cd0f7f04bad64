// Lesson 02, step 07's ideas one at a time. Step 07 adds four things to step 06 at once: a persistent
// grid, 16-byte loads, four loads in flight per thread, and streaming loads (__ldcs, which tell the
// caches the data will not be read again). This program starts from step 06's way of reading (a
// thread per element, one 4-byte load each) and adds them one by one, timing each variant on the same
// array, so the table shows what each idea buys alone. Every variant reduces its blocks with step 06's
// warp shuffles and adds one atomic per block, with 512 threads per block, and every answer is
// checked exactly.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "03_gpu_global_atomics.cuh"
#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "compare_variants.h"
#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"
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

template <bool kVectors, int kInFlight, bool kStreaming>
max_reduction::Variant variant(const char* name, int blocks) {
  return max_reduction::Variant{name, blocks, [blocks](const float* values, std::size_t n, float* result, cudaStream_t s) {
    max_reduction::start_at_lowest(result, s);
    variant_max<kVectors, kInFlight, kStreaming><<<blocks, kThreads, 0, s>>>(values, n, result);
    CUDA_CHECK_LAUNCH();
  }};
}

// A grid that fills the GPU once with this variant's blocks.
template <bool kVectors, int kInFlight, bool kStreaming>
int persistent_blocks(const course::DeviceFacts& device) {
  return course::resident_blocks(reinterpret_cast<const void*>(variant_max<kVectors, kInFlight, kStreaming>), kThreads,
                                 0, device);
}

}  // namespace

int main(int argc, char** argv) {
  return max_reduction::compare_variants(
      argc, argv, "lesson02_step07_ideas_apart", "Step 07's ideas one at a time, 512 threads per block",
      [](std::size_t n, const course::DeviceFacts& device) {
        const int per_element = static_cast<int>((n + kThreads - 1) / kThreads);
        return std::vector<max_reduction::Variant>{
            variant<false, 1, false>("step 06's reading: a thread per element, 4-byte loads", per_element),
            variant<false, 1, false>("+ a persistent grid (each thread strides through the array)",
                                     persistent_blocks<false, 1, false>(device)),
            variant<true, 1, false>("+ 16-byte loads (float4)", persistent_blocks<true, 1, false>(device)),
            variant<true, 4, false>("+ four loads in flight per thread", persistent_blocks<true, 4, false>(device)),
            variant<true, 4, true>("+ streaming loads (__ldcs): step 07", persistent_blocks<true, 4, true>(device)),
        };
      });
}
