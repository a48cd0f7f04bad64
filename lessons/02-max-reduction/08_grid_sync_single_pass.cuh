// Lesson 02, step 08: one launch that reads the array, waits at a grid-wide barrier, and finishes in
// block 0. step08_finishes_compared.cu times it beside the other ways to combine the blocks' maxima.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "course/check.h"
#include "max_reduction_device.cuh"

namespace max_reduction {

// Every block writes its maximum to block_maxima[blockIdx.x]; after grid.sync() block 0 reduces them.
// Only correct in a cooperative launch (launch_grid_synchronized_max), where every block is resident.
static __global__ void grid_synchronized_max(const float* values, std::size_t n, float* block_maxima, float* result) {
  const float best = block_max(thread_max_vectorized(values, n));
  if (threadIdx.x == 0) block_maxima[blockIdx.x] = best;
  // A barrier with memory ordering at GPU scope: every block's store to block_maxima before it is
  // visible to every thread after it, so block 0 needs no __threadfence() (the last-block finish of
  // step08_finishes_compared.cu does). In cooperative_groups/details/sync.h: a block barrier, one
  // thread's atomic add with release semantics at .gpu scope, acquire loads at .gpu scope until every
  // block has arrived, a block barrier.
  cooperative_groups::this_grid().sync();  // every block's maximum is now in block_maxima
  if (blockIdx.x != 0) return;
  float partial = kLowest;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) partial = fmaxf(partial, block_maxima[b]);
  const float total = block_max(partial);
  if (threadIdx.x == 0) *result = total;
}

// The cooperative launch: refused (an error, not a hang) when the grid cannot be resident all at once.
inline void launch_grid_synchronized_max(const float* values, std::size_t n, float* block_maxima, float* result,
                                         int blocks, int threads, cudaStream_t stream) {
  void* arguments[] = {&values, &n, &block_maxima, &result};
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_synchronized_max), dim3(blocks),
                                         dim3(threads), arguments, 0, stream));
}

}  // namespace max_reduction
