// Lesson 02, step 06: reductions by warp shuffles, within a warp and within a block. Steps 07 and 08
// reduce their blocks with them too.
#pragma once

#include <cuda_runtime.h>

#include "max_reduction_device.cuh"

namespace max_reduction {

// The largest value across a warp, using register-to-register shuffles instead of shared memory:
// after log2(32) = 5 exchanges every lane holds the warp's maximum.
__device__ inline float warp_max(float value) {
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmaxf(value, __shfl_xor_sync(0xffffffffu, value, offset));
  return value;
}

// The largest value across a block: each warp reduces by shuffles, warp leaders meet in shared
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

}  // namespace max_reduction
