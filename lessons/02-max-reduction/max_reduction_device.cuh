// Lesson 02, max reduction: the device building blocks and launch helpers that several steps share.
// Each is introduced, and explained, by the step named beside it; later steps reuse it from here
// instead of copying it.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "course/launch.h"
#include "max_reduction.h"

namespace max_reduction {

/// The identity of max: every float is >= -infinity.
constexpr float kLowest = -INFINITY;

// Step 02. CUDA has no atomicMax for float, but the bit patterns of floats order like integers: for
// non-negative floats as signed ints, for negative floats in reverse as unsigned ints. The sign bit
// picks which atomic keeps the larger value (signbit also sends -0.0f down the negative path).
__device__ inline void atomic_max_float(float* address, float value) {
  if (!signbit(value)) {
    atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
  } else {
    atomicMin(reinterpret_cast<unsigned int*>(address), __float_as_uint(value));
  }
}

static __global__ void set_to_lowest(float* result) { *result = kLowest; }

// Step 02. Steps that combine blocks with atomic_max_float first set the result to -infinity: a
// one-thread launch in the same stream, so it is counted in the step's time.
inline void start_at_lowest(float* result, cudaStream_t stream) {
  set_to_lowest<<<1, 1, 0, stream>>>(result);
  CUDA_CHECK_LAUNCH();
}

// Step 03. Threads per block for a tree reduction, which halves the block each round: --threads (or
// `preferred` when it is 0) rounded down to a power of two within [32, 1024].
inline int power_of_two_threads(int requested, int preferred) {
  const int threads = requested > 0 ? requested : preferred;
  int p = 32;
  while (p * 2 <= threads && p < 1024) p *= 2;
  return p;
}

// Steps 02-05. One thread per element: as many blocks of `threads` as it takes to cover n.
inline LaunchPlan one_thread_per_element(std::size_t n, int threads) {
  LaunchPlan p;
  p.threads = threads;
  p.blocks = static_cast<int>((n + threads - 1) / threads);
  return p;
}

// Step 05. The largest value across a warp, using register-to-register shuffles instead of shared
// memory: after log2(32) = 5 exchanges every lane holds the warp's maximum.
__device__ inline float warp_max(float value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}

// Step 05. The largest value across a block: each warp reduces by shuffles, warp leaders meet in shared
// memory, and the first warp reduces their results. The answer is valid in thread 0. Any block size
// that is a multiple of 32 works.
__device__ inline float block_max(float value) {
  __shared__ float warp_results[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  value = warp_max(value);
  if (lane == 0) warp_results[warp] = value;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / 32;
    value = warp_max(lane < warps ? warp_results[lane] : kLowest);
  }
  return value;
}

// Step 06. The largest value a thread sees when the whole grid strides through the array in 16-byte
// vectors. Each loop turn issues kLoadsInFlight independent float4 loads before using any of them, so
// one thread keeps 64 bytes in flight and the memory system stays busy. The few elements before the
// first 16-byte boundary and after the last whole vector are handled one at a time.
constexpr int kLoadsInFlight = 4;

__device__ inline float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }


// Step 06. How an array splits for 16-byte loads: `head` single floats before the first 16-byte
// boundary (cudaMalloc'd arrays start aligned, so usually none), `vector_count` whole float4s, then
// single floats from `tail_start` to n (at most 3).
struct Float4Split {
  std::size_t head;
  const float4* vectors;
  std::size_t vector_count;
  std::size_t tail_start;
};

__host__ __device__ inline Float4Split split_for_float4(const float* values, std::size_t n) {
  std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(values) % 16) % 16 / sizeof(float);
  if (head > n) head = n;
  const std::size_t vector_count = (n - head) / 4;
  return Float4Split{head, reinterpret_cast<const float4*>(values + head), vector_count, head + vector_count * 4};
}

__device__ inline float thread_max_vectorized(const float* values, std::size_t n) {
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const Float4Split split = split_for_float4(values, n);
  const float4* vectors = split.vectors;
  const std::size_t vector_count = split.vector_count;

  float best = kLowest;
  std::size_t i = thread;
  for (; i + (kLoadsInFlight - 1) * threads < vector_count; i += kLoadsInFlight * threads) {
    float4 v[kLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) v[k] = __ldcs(vectors + i + k * threads);  // streamed: read once
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) best = fmaxf(best, max4(v[k]));
  }
  for (; i < vector_count; i += threads) best = fmaxf(best, max4(__ldcs(vectors + i)));
  // At most 3 + 3 leftover elements: the first threads take one each.
  if (thread < split.head) best = fmaxf(best, values[thread]);
  if (thread < n - split.tail_start) best = fmaxf(best, values[split.tail_start + thread]);
  return best;
}

}  // namespace max_reduction
