// Lesson 02, step 07: a thread's share of a grid-stride loop in 16-byte vectors, several loads in
// flight. Step 08 and the exercises read the array the same way.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "max_reduction_device.cuh"

namespace max_reduction {

// Each loop turn issues kLoadsInFlight independent float4 loads before using any of them, so one
// thread keeps 64 bytes in flight. With a full persistent grid the GPU barely needs it: a little on the
// H200, nothing on the H100 (the README's table of step 07's ideas).
constexpr int kLoadsInFlight = 4;

__device__ inline float max4(float4 v) { return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)); }

// How an array splits for 16-byte loads: `head` single floats before the first 16-byte boundary
// (cudaMalloc'd arrays start aligned, so usually none), `vector_count` whole float4s, then single
// floats from `tail_start` to n (at most 3).
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

// The largest value a thread sees when the whole grid strides through the array in float4s. The few
// elements before the first 16-byte boundary and after the last whole vector are handled one at a
// time, by the first threads.
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
