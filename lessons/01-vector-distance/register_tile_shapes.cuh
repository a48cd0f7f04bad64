// Lesson 01, the kernel of lesson01_register_tile_shapes (register_tile_shapes.cu says what it shows):
// step 08's norm expansion on the FP32 cores, step 07's loop, with the shape of the work a template
// (Shape below): warps per block, the width of each thread's micro-tile, the depth of a slice, blocks
// per SM, and the norms squared on the way through the tiles or left to step 08's kernel. Not a step:
// the report times these shapes beside step 08 and cuBLAS's FP32 route.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "08_norm_expansion.cuh"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/launch.h"

namespace register_tile_shapes {

// A block of kWarpsDown x kWarpsAcross warps. Each warp owns 64 rows by 16 kSquaresAcross columns of
// the block's tile; in it, lane l owns rows 4 (l / 4) .. + 3 and 32 + 4 (l / 4) .. + 3 (two squares
// down, as in step 06) and columns 4 (l % 4) + 16 q .. + 3 for q < kSquaresAcross: a micro-tile of
// 8 x 4 kSquaresAcross sums. Slices are kDepth elements deep; kBlocksPerSm goes to __launch_bounds__,
// which leaves a thread 65536 / (kThreads kBlocksPerSm) registers, at most 255. kFusedNorms: the block
// squares the elements it loads and adds them into its rows' norms, where false leaves the norms to
// step 08's kernel.
template <int kWarpsDown, int kWarpsAcross, int kSquaresAcross, int kDepthElements, int kBlocks, bool kFused>
struct Shape {
  static constexpr int kThreads = 32 * kWarpsDown * kWarpsAcross;
  static constexpr int kTileRows = 64 * kWarpsDown;                      // rows of A (of C) per block
  static constexpr int kTileCols = 16 * kSquaresAcross * kWarpsAcross;   // rows of B (columns of C)
  static constexpr int kWarpCols = 16 * kSquaresAcross;
  static constexpr int kSquares = kSquaresAcross;
  static constexpr int kMicroCols = 4 * kSquaresAcross;
  static constexpr int kDepth = kDepthElements;
  static constexpr int kBlocksPerSm = kBlocks;
  static constexpr bool kFusedNorms = kFused;
  // Two threads load each row of a slice, 8 elements apart per group: rows per pass, passes per matrix.
  static constexpr int kRowsPerPass = kThreads / 2;
  static constexpr int kPassesA = kTileRows / kRowsPerPass, kPassesB = kTileCols / kRowsPerPass;
  static constexpr int kGroupsDeep = kDepth / 8;
  // Transposed rows padded by 4 words, as in step 06: the two threads that store one row hit banks 16 apart.
  static constexpr int kPitchA = kTileRows + 4, kPitchB = kTileCols + 4;
  static constexpr int kSliceFloats = kDepth * (kPitchA + kPitchB);
  static constexpr int kSharedBytes = (2 * kSliceFloats + (kFused ? kTileRows + kTileCols : 0)) * 4;
  static_assert(kDepth % 8 == 0, "each thread loads groups of 4 elements, two threads 4 apart, per 8");
  static_assert(kTileRows % kRowsPerPass == 0 && kTileCols % kRowsPerPass == 0, "whole passes");
};

__device__ inline void load4(const float* from, float to[4]) {
  const float4 v = *reinterpret_cast<const float4*>(from);
  to[0] = v.x, to[1] = v.y, to[2] = v.z, to[3] = v.w;
}

// Where this thread's rows of the slice come from: row pointers computed once, null past the matrix.
template <class S>
struct Sources {
  const float* a[S::kPassesA];
  const float* b[S::kPassesB];
};

template <class S>
__device__ inline Sources<S> sources(const float* a, const float* b, std::size_t m, std::size_t k, std::size_t n,
                                     std::size_t row0, std::size_t col0) {
  Sources<S> src;
  const int row = threadIdx.x / 2, x = threadIdx.x % 2 * 4;
#pragma unroll
  for (int p = 0; p < S::kPassesA; ++p) {
    const std::size_t i = row0 + row + p * S::kRowsPerPass;
    src.a[p] = i < m ? a + i * n + x : nullptr;
  }
#pragma unroll
  for (int p = 0; p < S::kPassesB; ++p) {
    const std::size_t j = col0 + row + p * S::kRowsPerPass;
    src.b[p] = j < k ? b + j * n + x : nullptr;
  }
  return src;
}

// Four elements at `from`, the first at element `x` of its row (x + e >= n or a null row: zeros).
// kVector (n a multiple of 4, rows 16-byte aligned): the four are wholly in or out, one 16-byte load.
template <bool kVector>
__device__ inline void load_group(const float* from, std::size_t x, std::size_t n, float out[4]) {
  if constexpr (kVector) {
    if (from != nullptr && x < n) {
      load4(from, out);
    } else {
      out[0] = out[1] = out[2] = out[3] = 0.0f;
    }
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) out[e] = from != nullptr && x + e < n ? from[e] : 0.0f;
  }
}

// The staged slice: this thread's groups of 4 of A and of B, [pass][group in depth][element].
template <class S>
struct Staged {
  float a[S::kPassesA][S::kGroupsDeep][4];
  float b[S::kPassesB][S::kGroupsDeep][4];
};

// The thread's groups of the slice at element x0 into registers: pass p, group d is row
// threadIdx.x / 2 + p kRowsPerPass, elements x0 + 4 (threadIdx.x % 2) + 8 d .. + 3.
template <class S, bool kVector>
__device__ inline void load_slice(const Sources<S>& src, std::size_t x0, std::size_t n, Staged<S>& st) {
  const std::size_t x = x0 + threadIdx.x % 2 * 4;
#pragma unroll
  for (int d = 0; d < S::kGroupsDeep; ++d) {
#pragma unroll
    for (int p = 0; p < S::kPassesA; ++p)
      load_group<kVector>(src.a[p] == nullptr ? nullptr : src.a[p] + x0 + 8 * d, x + 8 * d, n, st.a[p][d]);
#pragma unroll
    for (int p = 0; p < S::kPassesB; ++p)
      load_group<kVector>(src.b[p] == nullptr ? nullptr : src.b[p] + x0 + 8 * d, x + 8 * d, n, st.b[p][d]);
  }
}

// The staged groups into a shared slice, transposed (element x of tile row r at [x][r]); with
// kFusedNorms, their squares into the thread's partial norms of its rows.
template <class S>
__device__ inline void store_slice(float* slice, const Staged<S>& st, float norms_a[S::kPassesA],
                                   float norms_b[S::kPassesB]) {
  float* sa = slice;
  float* sb = slice + S::kDepth * S::kPitchA;
  const int row = threadIdx.x / 2, x = threadIdx.x % 2 * 4;
#pragma unroll
  for (int d = 0; d < S::kGroupsDeep; ++d)
#pragma unroll
    for (int e = 0; e < 4; ++e) {
#pragma unroll
      for (int p = 0; p < S::kPassesA; ++p) {
        sa[(x + 8 * d + e) * S::kPitchA + row + p * S::kRowsPerPass] = st.a[p][d][e];
        if constexpr (S::kFusedNorms) norms_a[p] = fmaf(st.a[p][d][e], st.a[p][d][e], norms_a[p]);
      }
#pragma unroll
      for (int p = 0; p < S::kPassesB; ++p) {
        sb[(x + 8 * d + e) * S::kPitchB + row + p * S::kRowsPerPass] = st.b[p][d][e];
        if constexpr (S::kFusedNorms) norms_b[p] = fmaf(st.b[p][d][e], st.b[p][d][e], norms_b[p]);
      }
    }
}

// This thread's rows and columns within the tile (see Shape).
template <class S>
__device__ inline int micro_row(int r) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return warp / (S::kThreads / 32 / (S::kTileRows / 64)) * 64 + (r < 4 ? 0 : 32 - 4) + lane / 4 * 4 + r;
}
template <class S>
__device__ inline int micro_col(int q) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warps_across = S::kThreads / 32 / (S::kTileRows / 64);
  return warp % warps_across * S::kWarpCols + q / 4 * 16 + lane % 4 * 4 + q % 4;
}

// The products of one shared slice: at each element x, 2 16-byte loads of A and kSquares of B, then
// 8 x kMicroCols FMA. The fragments of x + 1 are loaded before the products of x, so that the loads'
// latency overlaps arithmetic.
template <class S>
__device__ inline void add_products(const float* slice, int a_offset, int b_offset, float dots[8][S::kMicroCols]) {
  const float* sa = slice + a_offset;
  const float* sb = slice + S::kDepth * S::kPitchA + b_offset;
  float a_frag[2][8], b_frag[2][S::kMicroCols];
  const auto load_fragments = [&](int x, float af[8], float bf[S::kMicroCols]) {
    load4(sa + x * S::kPitchA, af);
    load4(sa + x * S::kPitchA + 32, af + 4);
#pragma unroll
    for (int q = 0; q < S::kSquares; ++q) load4(sb + x * S::kPitchB + 16 * q, bf + 4 * q);
  };
  load_fragments(0, a_frag[0], b_frag[0]);
#pragma unroll
  for (int x = 0; x < S::kDepth; ++x) {
    if (x + 1 < S::kDepth) load_fragments(x + 1, a_frag[(x + 1) % 2], b_frag[(x + 1) % 2]);
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int q = 0; q < S::kMicroCols; ++q) dots[r][q] = fmaf(a_frag[x % 2][r], b_frag[x % 2][q], dots[r][q]);
  }
}

// The kernel: block b computes the tile at row band b / tiles_across, column band b % tiles_across,
// with step 07's loop (next slice into registers during this slice's products, two shared slices in
// turns, one barrier per slice).
template <class S, bool kVector>
__global__ void __launch_bounds__(S::kThreads, S::kBlocksPerSm)
    distances(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
              std::size_t tiles_across, const float* norms_a, const float* norms_b) {
  extern __shared__ __align__(16) float shared[];  // 2 slices, then (kFusedNorms) the tile's norms
  const std::size_t row0 = blockIdx.x / tiles_across * S::kTileRows;
  const std::size_t col0 = blockIdx.x % tiles_across * S::kTileCols;
  const Sources<S> src = sources<S>(a, b, m, k, n, row0, col0);
  const int a_offset = micro_row<S>(0), b_offset = micro_col<S>(0);
  float part_a[S::kPassesA] = {}, part_b[S::kPassesB] = {};
  float dots[8][S::kMicroCols] = {};
  Staged<S> st;
  load_slice<S, kVector>(src, 0, n, st);
  store_slice<S>(shared, st, part_a, part_b);
  __syncthreads();
  int current = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += S::kDepth) {
    const bool more = x0 + S::kDepth < n;
    if (more) load_slice<S, kVector>(src, x0 + S::kDepth, n, st);  // in flight during the products
    add_products<S>(shared + current * S::kSliceFloats, a_offset, b_offset, dots);
    if (more) store_slice<S>(shared + (current ^ 1) * S::kSliceFloats, st, part_a, part_b);
    __syncthreads();
    current ^= 1;
  }

  const float* tile_norms_a;
  const float* tile_norms_b;
  if constexpr (!S::kFusedNorms) {
    tile_norms_a = norms_a + row0;
    tile_norms_b = norms_b + col0;
  } else {  // the two threads of a row add their halves; the tile's norms go to shared
    float* shared_norms = shared + 2 * S::kSliceFloats;
    const int row = threadIdx.x / 2;
#pragma unroll
    for (int p = 0; p < S::kPassesA; ++p) {
      const float sum = part_a[p] + __shfl_xor_sync(0xffffffffu, part_a[p], 1);
      if (threadIdx.x % 2 == 0) shared_norms[row + p * S::kRowsPerPass] = sum;
    }
#pragma unroll
    for (int p = 0; p < S::kPassesB; ++p) {
      const float sum = part_b[p] + __shfl_xor_sync(0xffffffffu, part_b[p], 1);
      if (threadIdx.x % 2 == 0) shared_norms[S::kTileRows + row + p * S::kRowsPerPass] = sum;
    }
    __syncthreads();
    tile_norms_a = shared_norms;
    tile_norms_b = shared_norms + S::kTileRows;
  }
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const int tile_row = micro_row<S>(r);
    const std::size_t i = row0 + tile_row;
    if (i >= m) continue;
    const float norm_a = tile_norms_a[tile_row];
#pragma unroll
    for (int q = 0; q < S::kSquares; ++q) {
      const int tile_col = micro_col<S>(4 * q);
      const std::size_t j = col0 + tile_col;
      float v[4];
#pragma unroll
      for (int e = 0; e < 4; ++e)
        v[e] = norm_expansion::combine(norm_a, j + e < k ? tile_norms_b[tile_col + e] : 0.0f, dots[r][4 * q + e]);
      if constexpr (kVector) {
        if (j < k) *reinterpret_cast<float4*>(c + i * k + j) = {v[0], v[1], v[2], v[3]};
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          if (j + e < k) c[i * k + j + e] = v[e];
      }
    }
  }
}

template <class S>
std::size_t tiles_across(std::size_t k) {
  return (k + S::kTileCols - 1) / S::kTileCols;
}
// Blocks for an m x k result; throws course::UsageError beyond what one grid can hold.
template <class S>
unsigned grid_blocks(std::size_t m, std::size_t k) {
  const std::size_t blocks = (m + S::kTileRows - 1) / S::kTileRows * tiles_across<S>(k);
  if (blocks > 2147483647u) throw course::UsageError("M x K needs more than 2^31 - 1 tiles");
  return static_cast<unsigned>(blocks);
}

// Raises the shared-memory limit of both kernels launch<S> may pick. Throws where the GPU cannot give
// that much.
template <class S>
void allow_shared_memory(const course::DeviceFacts& device, const char* what) {
  for (const void* kernel :
       {reinterpret_cast<const void*>(distances<S, false>), reinterpret_cast<const void*>(distances<S, true>)})
    course::require_shared_memory(kernel, S::kSharedBytes, device, what);
}

// Device scratch: the row norms of A and B, where step 08's kernel computes them.
template <class S>
std::size_t scratch_bytes(std::size_t m, std::size_t k) {
  return S::kFusedNorms ? 0 : norm_expansion::scratch_bytes<float>(m, k);
}

// Everything launch<S> needs done once: M x K in one grid, the kernels' shared memory. Returns the
// scratch bytes.
template <class S>
std::size_t prepare(std::size_t m, std::size_t k, const course::DeviceFacts& device, const char* what) {
  grid_blocks<S>(m, k);
  allow_shared_memory<S>(device, what);
  return scratch_bytes<S>(m, k);
}

// Enqueues C = distances(A, B): step 08's norms first unless the kernel squares them itself. 16-byte
// loads and stores where every row of A, B and C can take them (N and K multiples of 4, aligned), else
// 4-byte ones: the report is about the shapes, so one kernel covers the other cases.
template <class S>
void launch(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n, void* scratch,
            cudaStream_t stream) {
  const float* norms_a = nullptr;
  const float* norms_b = nullptr;
  if constexpr (!S::kFusedNorms) {
    const norm_expansion::Norms<float> norms = norm_expansion::launch_norms(a, b, m, k, n, scratch, stream);
    norms_a = norms.a;
    norms_b = norms.b;
  }
  const unsigned blocks = grid_blocks<S>(m, k);
  const std::size_t across = tiles_across<S>(k);
  if (register_tiles::aligned_rows(a, n) && register_tiles::aligned_rows(b, n) && register_tiles::aligned_rows(c, k))
    distances<S, true><<<blocks, S::kThreads, S::kSharedBytes, stream>>>(a, b, c, m, k, n, across, norms_a, norms_b);
  else
    distances<S, false><<<blocks, S::kThreads, S::kSharedBytes, stream>>>(a, b, c, m, k, n, across, norms_a, norms_b);
  CUDA_CHECK_LAUNCH();
}

}  // namespace register_tile_shapes
