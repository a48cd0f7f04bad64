// Lesson 01, step 07: step 06's kernel with the loads of the next slice in flight during the
// arithmetic (the story is in 07_pipelined_tiles.cu). Step 08 follows the same loop.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "06_register_tiles.cuh"
#include "course/check.h"

namespace pipelined_tiles {

using register_tiles::kDepth;
using register_tiles::kGroups;
using register_tiles::kThreads;
using register_tiles::kTile;

// Two shared slices take turns: while the block computes with one, the next slice travels from
// global memory into registers, and goes into the other shared slice once the arithmetic is done.
// One barrier per slice: it tells everyone that the next slice is in place and that nobody reads
// the current one any more, which the next round overwrites.
template <class T, bool kVectorLoads, bool kVectorStores>
__global__ void __launch_bounds__(kThreads, 2)
    distances(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, std::size_t tiles_across) {
  __shared__ register_tiles::SharedTiles<T> s[2];
  const std::size_t row0 = blockIdx.x / tiles_across * kTile, col0 = blockIdx.x % tiles_across * kTile;
  T sums[8][8] = {};
  T a_groups[kGroups][4], b_groups[kGroups][4];
  register_tiles::load_tiles<T, kVectorLoads>(a, b, m, k, n, row0, col0, 0, a_groups, b_groups);
  register_tiles::store_transposed(s[0], a_groups, b_groups);
  __syncthreads();
  int current = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += kDepth) {
    const bool more = x0 + kDepth < n;
    if (more)  // issued now, waited for only at the store below: the arithmetic runs meanwhile
      register_tiles::load_tiles<T, kVectorLoads>(a, b, m, k, n, row0, col0, x0 + kDepth, a_groups, b_groups);
    register_tiles::add_squared_differences(s[current], sums);
    if (more) register_tiles::store_transposed(s[current ^ 1], a_groups, b_groups);
    __syncthreads();
    current ^= 1;
  }
  register_tiles::store_micro_tile<T, kVectorStores>(c, m, k, row0, col0, sums);
}

// Enqueues the kernel for C = distances(A, B) into stream.
template <class T>
void launch(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, cudaStream_t stream) {
  const unsigned blocks = register_tiles::grid_blocks(m, k);
  const std::size_t across = register_tiles::tiles_across(k);
  register_tiles::with_vector_flags(
      register_tiles::aligned_rows(a, n) && register_tiles::aligned_rows(b, n), register_tiles::aligned_rows(c, k),
      [&](auto loads, auto stores) {
        distances<T, decltype(loads)::value, decltype(stores)::value><<<blocks, kThreads, 0, stream>>>(a, b, c, m, k,
                                                                                                       n, across);
      });
  CUDA_CHECK_LAUNCH();
}

}  // namespace pipelined_tiles
