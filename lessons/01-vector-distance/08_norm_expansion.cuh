// Lesson 01, step 08: the norm expansion in step 07's pipelined tiles (the story is in
// 08_norm_expansion.cu). Steps 09 to 14 and the report programs include this header for its row norms,
// their place in the scratch (norms_in) and combine().
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "07_pipelined_tiles.cuh"
#include "course/check.h"

namespace norm_expansion {

using register_tiles::kDepth;
using register_tiles::kGroups;
using register_tiles::kThreads;
using register_tiles::kTile;

// What the sums are kept in. int32 sums of products can overflow on the way even when the distance
// fits, so they are kept modulo 2^32 (unsigned arithmetic wraps, signed arithmetic may not): the
// expansion is then exact, since the true distance lies in [0, 2^31).
template <class T> struct Accumulator { using type = T; };
template <> struct Accumulator<std::int32_t> { using type = std::uint32_t; };

// norms[r] = |row r|^2 for the rows of a matrix (rows x n), one warp per row.
template <class T>
__global__ void row_norms(const T* matrix, std::size_t rows, std::size_t n, typename Accumulator<T>::type* norms) {
  using Acc = typename Accumulator<T>::type;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  for (std::size_t r = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32; r < rows; r += warps) {
    Acc sum = 0;
    for (std::size_t e = lane; e < n; e += 32) {
      const Acc v = static_cast<Acc>(matrix[r * n + e]);
      sum += v * v;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0) norms[r] = sum;
  }
}

// Enqueues row_norms for a matrix of `rows` rows.
template <class T>
void launch_row_norms(const T* matrix, std::size_t rows, std::size_t n, typename Accumulator<T>::type* norms,
                      cudaStream_t stream) {
  constexpr int kNormThreads = 256;
  const std::size_t blocks = (rows + kNormThreads / 32 - 1) / (kNormThreads / 32);
  row_norms<T><<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), kNormThreads, 0, stream>>>(matrix, rows, n,
                                                                                                  norms);
  CUDA_CHECK_LAUNCH();
}

// |a|^2 + |b|^2 - 2 a.b, never below 0 for floats (rounding can take a tiny distance under zero).
__device__ inline float combine(float norm_a, float norm_b, float dot) {
  return fmaxf(fmaf(-2.0f, dot, norm_a + norm_b), 0.0f);
}
__device__ inline std::int32_t combine(std::uint32_t norm_a, std::uint32_t norm_b, std::uint32_t dot) {
  return static_cast<std::int32_t>(norm_a + norm_b - 2u * dot);
}

// The arithmetic of one slice, as in step 06 but with one instruction per term: the products a.b.
template <class T>
__device__ inline void add_products(const register_tiles::SharedTiles<T>& s, typename Accumulator<T>::type dots[8][8]) {
  using Acc = typename Accumulator<T>::type;
#pragma unroll
  for (int x = 0; x < kDepth; ++x) {
    T a_frag[8], b_frag[8];
    register_tiles::load_fragments(s, x, a_frag, b_frag);
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int q = 0; q < 8; ++q) dots[r][q] += static_cast<Acc>(a_frag[r]) * static_cast<Acc>(b_frag[q]);
  }
}

// Step 07's kernel with the products in place of the squared differences, and the norms added at the
// end.
template <class T, bool kVectorLoads, bool kVectorStores>
__global__ void __launch_bounds__(kThreads, 2)
    distances(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, std::size_t tiles_across,
              const typename Accumulator<T>::type* norms_a, const typename Accumulator<T>::type* norms_b) {
  using Acc = typename Accumulator<T>::type;
  __shared__ register_tiles::SharedTiles<T> s[2];
  const std::size_t row0 = blockIdx.x / tiles_across * kTile, col0 = blockIdx.x % tiles_across * kTile;
  Acc dots[8][8] = {};
  T a_groups[kGroups][4], b_groups[kGroups][4];
  register_tiles::load_tiles<T, kVectorLoads>(a, b, m, k, n, row0, col0, 0, a_groups, b_groups);
  register_tiles::store_transposed(s[0], a_groups, b_groups);
  __syncthreads();
  int current = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += kDepth) {
    const bool more = x0 + kDepth < n;
    if (more)
      register_tiles::load_tiles<T, kVectorLoads>(a, b, m, k, n, row0, col0, x0 + kDepth, a_groups, b_groups);
    add_products(s[current], dots);
    if (more) register_tiles::store_transposed(s[current ^ 1], a_groups, b_groups);
    __syncthreads();
    current ^= 1;
  }
  T result[8][8];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const std::size_t i = row0 + register_tiles::micro_row(r);
    const Acc norm_a = i < m ? norms_a[i] : Acc(0);
#pragma unroll
    for (int q = 0; q < 8; ++q) {
      const std::size_t j = col0 + register_tiles::micro_col(q);
      result[r][q] = combine(norm_a, j < k ? norms_b[j] : Acc(0), dots[r][q]);
    }
  }
  register_tiles::store_micro_tile<T, kVectorStores>(c, m, k, row0, col0, result);
}

// Device scratch for the row norms of A and B.
template <class T>
std::size_t scratch_bytes(std::size_t m, std::size_t k) {
  return (m + k) * sizeof(typename Accumulator<T>::type);
}

// Where the norms lie in the scratch: the M of A's rows, then the K of B's.
template <class T>
struct Norms {
  typename Accumulator<T>::type* a;
  typename Accumulator<T>::type* b;
};
template <class T>
Norms<T> norms_in(void* scratch, std::size_t m) {
  auto* norms_a = static_cast<typename Accumulator<T>::type*>(scratch);
  return {norms_a, norms_a + m};
}

// Enqueues row_norms for A, then for B, into `scratch` (scratch_bytes<T>(m, k) bytes); returns where
// they will be.
template <class T>
Norms<T> launch_norms(const T* a, const T* b, std::size_t m, std::size_t k, std::size_t n, void* scratch,
                      cudaStream_t stream) {
  const Norms<T> norms = norms_in<T>(scratch, m);
  launch_row_norms(a, m, n, norms.a, stream);
  launch_row_norms(b, k, n, norms.b, stream);
  return norms;
}

// Enqueues the row norms, then the kernel. `scratch` holds scratch_bytes<T>(m, k) bytes.
template <class T>
void launch(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, void* scratch,
            cudaStream_t stream) {
  const Norms<T> norms = launch_norms(a, b, m, k, n, scratch, stream);
  const unsigned blocks = register_tiles::grid_blocks(m, k);
  const std::size_t across = register_tiles::tiles_across(k);
  register_tiles::with_vector_flags(
      register_tiles::aligned_rows(a, n) && register_tiles::aligned_rows(b, n), register_tiles::aligned_rows(c, k),
      [&](auto loads, auto stores) {
        distances<T, decltype(loads)::value, decltype(stores)::value><<<blocks, kThreads, 0, stream>>>(
            a, b, c, m, k, n, across, norms.a, norms.b);
      });
  CUDA_CHECK_LAUNCH();
}

}  // namespace norm_expansion
