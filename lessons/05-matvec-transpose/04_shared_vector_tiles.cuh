// Lesson 05, step 04: adding the partial sums that steps which split a sum into parts write. Steps 05
// and 06 finish the same way, and steps 07 to 11 in all but the wide layout of steps 10 and 11.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "course/check.h"
#include "course/launch.h"
#include "matvec.h"
#include "matvec_device.cuh"

namespace matvec {

// Part p's partial sums are at partial[p * length + x]; out[x] = their sum over p. A block takes 32
// consecutive x, one per lane, so every warp's read is one coalesced 128-byte line, and its 8 warps
// share out the parts: warp w adds parts w, w + 8, w + 16, ... Each thread then waits for a chain of
// parts / 8 loads instead of all of them (the fused step has a few hundred parts, and the chain, not
// the bytes, is what takes the time). The 8 sums of each x meet in shared memory, always in the same
// order, so this kernel adds its inputs in one fixed order: the same partials give the same sums, bit
// for bit (float addition in another order could round differently). Partials that change from run to
// run, as step 07's warp layout writes them, still change the sums.
// add_partials is that work for blocks of T threads, over whatever grid runs it (step 10b runs it at
// the end of its fused kernels); sum_partials is a kernel of it alone.
constexpr int kSumThreads = 256;
template <int T>
__device__ inline void add_partials(const float* partial, int parts, std::size_t length, float* out) {
  constexpr int kWarps = T / 32;
  __shared__ float sums[kWarps][32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (std::size_t x0 = blockIdx.x * std::size_t{32}; x0 < length; x0 += gridDim.x * std::size_t{32}) {
    const std::size_t x = x0 + lane;
    float sum = 0.0f;
    if (x < length)
      for (int p = static_cast<int>(warp); p < parts; p += kWarps) sum += partial[p * length + x];
    sums[warp][lane] = sum;
    __syncthreads();
    if (warp == 0 && x < length) {
      float total = 0.0f;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) total += sums[w][lane];
      out[x] = total;
    }
    __syncthreads();  // sums is free for the next 32 x
  }
}

static __global__ void __launch_bounds__(kSumThreads)
    sum_partials(const float* partial, int parts, std::size_t length, float* out) {
  add_partials<kSumThreads>(partial, parts, length, out);
}

inline void launch_sum_partials(const float* partial, int parts, std::size_t length, float* out, cudaStream_t stream) {
  const int blocks = static_cast<int>(std::min<std::size_t>((length + 31) / 32, 8192));
  sum_partials<<<blocks, kSumThreads, 0, stream>>>(partial, parts, length, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace matvec
