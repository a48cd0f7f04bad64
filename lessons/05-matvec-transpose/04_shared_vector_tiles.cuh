// Lesson 05, step 04: adding the partial sums that steps which split a sum into parts write. Steps 05,
// 06 and 07 finish the same way.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "course/check.h"
#include "course/launch.h"
#include "matvec.h"
#include "matvec_device.cuh"

namespace matvec {

// Part p's partial sums are at partial[p * length + x]; out[x] = their sum over p. Consecutive threads
// take consecutive x, so every read is coalesced.
static __global__ void sum_partials(const float* partial, int parts, std::size_t length, float* out) {
  for (std::size_t x = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; x < length;
       x += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float sum = 0.0f;
    for (int p = 0; p < parts; ++p) sum += partial[p * length + x];
    out[x] = sum;
  }
}

inline void launch_sum_partials(const float* partial, int parts, std::size_t length, float* out, cudaStream_t stream) {
  const int blocks = static_cast<int>(std::min<std::size_t>((length + 255) / 256, 4096));
  sum_partials<<<blocks, 256, 0, stream>>>(partial, parts, length, out);
  CUDA_CHECK_LAUNCH();
}

}  // namespace matvec
