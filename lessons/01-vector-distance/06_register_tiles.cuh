// Lesson 01, step 06: the register-tiled kernel (the story is in 06_register_tiles.cu). Steps 07 and
// 08 include this header: they reuse its tiles, its loads and stores and its layout.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "course/check.h"
#include "course/errors.h"

namespace register_tiles {

constexpr int kTile = 128;             // a block computes a kTile x kTile tile of C
constexpr int kDepth = 8;              // elements of each vector per shared tile
constexpr int kThreads = 256;          // 8 warps, each thread an 8 x 8 micro-tile of C
constexpr int kPitch = kTile + 4;      // shared row length: see store_transposed()
constexpr int kGroups = kTile * kDepth / 4 / kThreads;  // groups of 4 elements each thread loads per tile

// The 16-byte vector of four T.
template <class T> struct Vector4;
template <> struct Vector4<float> { using type = float4; };
template <> struct Vector4<std::int32_t> { using type = int4; };

// One depth-slice of the rows of A and of B a block works on, transposed: a[x][r] is element x0 + x
// of row row0 + r. Transposed, the rows one thread needs at a given x sit side by side, so it reads
// them with 16-byte loads.
template <class T>
struct SharedTiles {
  alignas(16) T a[kDepth][kPitch];
  alignas(16) T b[kDepth][kPitch];
};

// Four neighbouring elements of one row of a matrix (rows x n, row-major): elements x .. x + 3 of
// `row`, zero where they fall outside the matrix. With kVector (n a multiple of 4, rows 16-byte
// aligned) the four are wholly inside or wholly outside and come in one 16-byte load.
template <class T, bool kVector>
__device__ inline void load_group(const T* matrix, std::size_t rows, std::size_t n, std::size_t row, std::size_t x,
                                  T out[4]) {
  if constexpr (kVector) {
    if (row < rows && x < n) {
      const typename Vector4<T>::type v = *reinterpret_cast<const typename Vector4<T>::type*>(matrix + row * n + x);
      out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = v.w;
    } else {
      out[0] = out[1] = out[2] = out[3] = T(0);
    }
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) out[e] = row < rows && x + e < n ? matrix[row * n + x + e] : T(0);
  }
}

// Group g of a tile: row g / (kDepth / 4), elements 4 (g % (kDepth / 4)) .. + 3.
__device__ inline int group_row(int g) { return g / (kDepth / 4); }
__device__ inline int group_x(int g) { return g % (kDepth / 4) * 4; }

// This thread's groups of the tiles that start at row0 of A, col0 of B and element x0, into registers.
template <class T, bool kVector>
__device__ inline void load_tiles(const T* a, const T* b, std::size_t m, std::size_t k, std::size_t n,
                                  std::size_t row0, std::size_t col0, std::size_t x0, T a_groups[kGroups][4],
                                  T b_groups[kGroups][4]) {
#pragma unroll
  for (int q = 0; q < kGroups; ++q) {
    const int g = threadIdx.x + q * kThreads;
    load_group<T, kVector>(a, m, n, row0 + group_row(g), x0 + group_x(g), a_groups[q]);
    load_group<T, kVector>(b, k, n, col0 + group_row(g), x0 + group_x(g), b_groups[q]);
  }
}

// The groups into shared memory, transposed. The two threads that load one row write 4 words each at
// x and x + 4 of the same column r: rows of kTile words would put both in bank r % 32 (a 2-way
// conflict); rows of kTile + 4 words move the second to bank (r + 16) % 32.
template <class T>
__device__ inline void store_transposed(SharedTiles<T>& s, const T a_groups[kGroups][4], const T b_groups[kGroups][4]) {
#pragma unroll
  for (int q = 0; q < kGroups; ++q) {
    const int g = threadIdx.x + q * kThreads;
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      s.a[group_x(g) + e][group_row(g)] = a_groups[q][e];
      s.b[group_x(g) + e][group_row(g)] = b_groups[q][e];
    }
  }
}

// Four neighbouring values from shared memory in one 16-byte load.
template <class T>
__device__ inline void load4(const T* from, T* to) {
  const typename Vector4<T>::type v = *reinterpret_cast<const typename Vector4<T>::type*>(from);
  to[0] = v.x, to[1] = v.y, to[2] = v.z, to[3] = v.w;
}

// Which 8 x 8 values of the tile a thread owns. The 8 warps split the tile 2 x 4 (64 x 32 values
// each); in a warp, lane l takes rows 4 (l / 4) .. + 3 and 32 + 4 (l / 4) .. + 3 of the warp's part,
// and columns 4 (l % 4) .. + 3 and 16 + 4 (l % 4) .. + 3. Rows and columns come in groups of 4, side by
// side in the transposed tiles, so that each group is one 16-byte load, and the lanes of a warp that
// load at the same time ask for neighbouring groups: no bank conflicts.
__device__ inline int micro_row(int r) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return warp / 4 * 64 + (r < 4 ? 0 : 32 - 4) + lane / 4 * 4 + r;
}
__device__ inline int micro_col(int q) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return warp % 4 * 32 + (q < 4 ? 0 : 16 - 4) + lane % 4 * 4 + q;
}

// This thread's 8 values of A and of B at depth x of the shared tiles.
template <class T>
__device__ inline void load_fragments(const SharedTiles<T>& s, int x, T a_frag[8], T b_frag[8]) {
  load4(&s.a[x][micro_row(0)], a_frag);
  load4(&s.a[x][micro_row(4)], a_frag + 4);
  load4(&s.b[x][micro_col(0)], b_frag);
  load4(&s.b[x][micro_col(4)], b_frag + 4);
}

// Writes this thread's 8 x 8 values into C (m x k), skipping what lies outside. With kVector (k a
// multiple of 4, C 16-byte aligned) each group of 4 columns is one 16-byte store.
template <class T, bool kVector>
__device__ inline void store_micro_tile(T* c, std::size_t m, std::size_t k, std::size_t row0, std::size_t col0,
                                        const T values[8][8]) {
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const std::size_t i = row0 + micro_row(r);
    if (i >= m) continue;
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::size_t j = col0 + micro_col(4 * half);
      const T* v = values[r] + 4 * half;
      if constexpr (kVector) {
        if (j < k) *reinterpret_cast<typename Vector4<T>::type*>(c + i * k + j) = {v[0], v[1], v[2], v[3]};
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (j + e < k) c[i * k + j + e] = v[e];
      }
    }
  }
}

// The arithmetic of one slice: at each of its kDepth elements, this thread's fragments from shared
// memory, then its 64 terms, a subtraction and a fused multiply-add each.
template <class T>
__device__ inline void add_squared_differences(const SharedTiles<T>& s, T sums[8][8]) {
#pragma unroll
  for (int x = 0; x < kDepth; ++x) {
    T a_frag[8], b_frag[8];
    load_fragments(s, x, a_frag, b_frag);
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int q = 0; q < 8; ++q) {
        const T d = a_frag[r] - b_frag[q];
        sums[r][q] += d * d;
      }
  }
}

// The kernel: block b computes the tile of C at row band b / tiles_across, column band b % tiles_across,
// one slice of kDepth elements at a time: load it, wait for everyone, use it, wait again.
template <class T, bool kVectorLoads, bool kVectorStores>
__global__ void __launch_bounds__(kThreads, 2)
    distances(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, std::size_t tiles_across) {
  __shared__ SharedTiles<T> s;
  const std::size_t row0 = blockIdx.x / tiles_across * kTile, col0 = blockIdx.x % tiles_across * kTile;
  T sums[8][8] = {};
  for (std::size_t x0 = 0; x0 < n; x0 += kDepth) {
    T a_groups[kGroups][4], b_groups[kGroups][4];
    load_tiles<T, kVectorLoads>(a, b, m, k, n, row0, col0, x0, a_groups, b_groups);
    store_transposed(s, a_groups, b_groups);
    __syncthreads();
    add_squared_differences(s, sums);
    __syncthreads();
  }
  store_micro_tile<T, kVectorStores>(c, m, k, row0, col0, sums);
}

// Whether a matrix of rows of n elements at `p` can be read 16 bytes at a time.
template <class T>
inline bool aligned_rows(const T* p, std::size_t n) {
  return n % 4 == 0 && reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Blocks for an m x k result; throws course::UsageError beyond what one grid can hold.
inline std::size_t tiles_across(std::size_t k) { return (k + kTile - 1) / kTile; }
inline unsigned grid_blocks(std::size_t m, std::size_t k) {
  const std::size_t blocks = (m + kTile - 1) / kTile * tiles_across(k);
  if (blocks > 2147483647u) throw course::UsageError("M x K needs more than 2^31 - 1 tiles of 128 x 128");
  return static_cast<unsigned>(blocks);
}

// Calls launch(vector_loads, vector_stores) with the two flags as compile-time constants
// (std::true_type or std::false_type), so that each combination is its own kernel.
template <class Launch>
void with_vector_flags(bool vector_loads, bool vector_stores, const Launch& launch) {
  if (vector_loads && vector_stores) launch(std::true_type{}, std::true_type{});
  else if (vector_loads) launch(std::true_type{}, std::false_type{});
  else if (vector_stores) launch(std::false_type{}, std::true_type{});
  else launch(std::false_type{}, std::false_type{});
}

// Enqueues the kernel for C = distances(A, B) into stream. 16-byte accesses wherever the rows allow
// them, unless `wide_accesses` is false (step 06's --scalar-loads, to measure what they are worth).
template <class T>
void launch(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, cudaStream_t stream,
            bool wide_accesses = true) {
  const unsigned blocks = grid_blocks(m, k);
  const std::size_t across = tiles_across(k);
  const bool vector_loads = wide_accesses && aligned_rows(a, n) && aligned_rows(b, n);
  const bool vector_stores = wide_accesses && aligned_rows(c, k);
  with_vector_flags(vector_loads, vector_stores, [&](auto loads, auto stores) {
    distances<T, decltype(loads)::value, decltype(stores)::value><<<blocks, kThreads, 0, stream>>>(a, b, c, m, k, n,
                                                                                                   across);
  });
  CUDA_CHECK_LAUNCH();
}

}  // namespace register_tiles
