// Lesson 01, the kernel of lesson01_register_tile_shapes (register_tile_shapes.cu says what it shows):
// step 08's norm expansion on the FP32 cores, step 07's loop, with the shape of the work a template
// (Shape below): warps per block and lanes per warp, the width of each thread's micro-tile, the depth
// of a slice, blocks per SM, the norms squared on the way through the tiles or left to step 08's
// kernel, and three ways SIMT matrix products are known to reach the libraries' speed: the first
// fragments of the next slice read before the last products of this one, slices copied by cp.async
// into several shared buffers in turns, and blocks taken in groups of row bands. Not a step: the
// report times these shapes beside step 08 and cuBLAS's FP32 route.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "08_norm_expansion.cuh"
#include "09_tf32_tensor_cores.cuh"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/launch.h"

namespace register_tile_shapes {

// A block of kWarpsDown x kWarpsAcross warps; a warp's lanes stand kLanesDown down by
// 32 / kLanesDown across. Lane l owns two squares of 4 rows, 4 kLanesDown rows apart, at row
// 4 (l / lanes across) of the warp's band, and kSquaresAcross squares of 4 columns, 4 lanes-across
// columns apart, at column 4 (l % lanes across): a micro-tile of 8 x 4 kSquaresAcross sums, spread so
// that the lanes of a warp read each 16-byte fragment of a slice together (8 lanes down: a warp owns
// 64 rows by 16 kSquaresAcross columns, as step 06's warps do with 2 squares; 4 down: 32 by
// 32 kSquaresAcross).
// Slices are kDepth elements deep; kBlocksPerSm goes to __launch_bounds__, which leaves a thread
// 65536 / (kThreads kBlocksPerSm) registers, at most 255. kFusedNorms: the block squares the elements
// it loads and adds them into its rows' norms, where false leaves the norms to step 08's kernel.
// kCarry: the fragments of the next slice's first element are read right after the barrier, before the
// products of this slice's last element, so that the read's latency overlaps arithmetic there too.
// kCopyStages 0: the next slice comes through registers (step 07's loop, 2 shared slices); 2 or more:
// cp.async copies each element straight into its transposed place, that many shared slices in turns,
// no registers held for it. kGroupBands above 1: blocks take the tiles down groups of that many row
// bands before going across, so the blocks running at once read fewer rows of A and B from DRAM.
template <int kWarpsDown_, int kWarpsAcross_, int kSquaresAcross, int kDepthElements, int kBlocks, bool kFused,
          int kLanesDown_ = 8, bool kCarry_ = false, int kCopyStages_ = 0, int kGroupBands_ = 1>
struct Shape {
  static constexpr int kWarpsDown = kWarpsDown_, kWarpsAcross = kWarpsAcross_;
  static constexpr int kThreads = 32 * kWarpsDown * kWarpsAcross;
  static constexpr int kLanesDown = kLanesDown_, kLanesAcross = 32 / kLanesDown_;
  static constexpr int kSquareStrideDown = 4 * kLanesDown, kSquareStrideAcross = 4 * kLanesAcross;
  static constexpr int kWarpRows = 2 * kSquareStrideDown;
  static constexpr int kWarpCols = kSquaresAcross * kSquareStrideAcross;
  static constexpr int kTileRows = kWarpRows * kWarpsDown;    // rows of A (of C) per block
  static constexpr int kTileCols = kWarpCols * kWarpsAcross;  // rows of B (columns of C)
  static constexpr int kSquares = kSquaresAcross;
  static constexpr int kMicroCols = 4 * kSquaresAcross;
  static constexpr int kDepth = kDepthElements;
  static constexpr int kBlocksPerSm = kBlocks;
  static constexpr bool kFusedNorms = kFused;
  static constexpr bool kCarry = kCarry_;
  static constexpr int kCopyStages = kCopyStages_;
  static constexpr int kGroupBands = kGroupBands_;
  static constexpr int kBuffers = kCopyStages > 0 ? kCopyStages : 2;  // shared slices
  // Through registers: two threads load each row of a slice, 8 elements apart per group: rows per
  // pass, passes per matrix.
  static constexpr int kRowsPerPass = kThreads / 2;
  static constexpr int kPassesA = kTileRows / kRowsPerPass, kPassesB = kTileCols / kRowsPerPass;
  static constexpr int kGroupsDeep = kDepth / 8;
  // By cp.async: 8 threads copy 8 elements of a row, one each.
  static constexpr int kCopyRowsPerPass = kThreads / 8;
  static constexpr int kCopyPassesA = kTileRows / kCopyRowsPerPass, kCopyPassesB = kTileCols / kCopyRowsPerPass;
  // Transposed rows padded by 4 words, as in step 06: the two threads that store one row hit banks 16
  // apart, and the 8 threads that copy one row's elements by cp.async hit banks 4 apart.
  static constexpr int kPitchA = kTileRows + 4, kPitchB = kTileCols + 4;
  static constexpr int kSliceFloats = kDepth * (kPitchA + kPitchB);
  static constexpr int kSharedBytes = (kBuffers * kSliceFloats + (kFused ? kTileRows + kTileCols : 0)) * 4;
  static_assert(32 % kLanesDown == 0, "lanes down divide the warp");
  static_assert(kDepth % 8 == 0, "each thread loads groups of 4 elements, two threads 4 apart, per 8");
  static_assert(kTileRows % kRowsPerPass == 0 && kTileCols % kRowsPerPass == 0, "whole passes");
  static_assert(kTileRows % kCopyRowsPerPass == 0 && kTileCols % kCopyRowsPerPass == 0, "whole copy passes");
  static_assert(kTileRows % 32 == 0 && kTileCols % 32 == 0, "pitches 4 words past a multiple of 32 banks");
  static_assert(!(kFused && kCopyStages > 0), "fused norms square the slice in registers, which cp.async skips");
  static_assert(kCopyStages == 0 || kCopyStages >= 2, "cp.async needs at least two shared slices");
  static_assert(kGroupBands >= 1, "groups of at least one band");
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
  return warp / S::kWarpsAcross * S::kWarpRows + r / 4 * S::kSquareStrideDown + lane / S::kLanesAcross * 4 + r % 4;
}
template <class S>
__device__ inline int micro_col(int q) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  return warp % S::kWarpsAcross * S::kWarpCols + q / 4 * S::kSquareStrideAcross + lane % S::kLanesAcross * 4 + q % 4;
}

// Starts the cp.async copies of the slice at element x0 into `slice`, each element 4 bytes into its
// transposed place (zeros past the matrix), as one group. Pass p of A: tile row threadIdx.x / 8 +
// p kCopyRowsPerPass, element x0 + threadIdx.x % 8 + 8 d; a warp reads 4 rows, 32 bytes of each.
template <class S>
__device__ inline void start_copies(float* slice, const float* a, const float* b, std::size_t m, std::size_t k,
                                    std::size_t n, std::size_t row0, std::size_t col0, std::size_t x0) {
  using tf32_tensor_cores::copy_async;
  float* sa = slice;
  float* sb = slice + S::kDepth * S::kPitchA;
  const int row = threadIdx.x / 8, e = threadIdx.x % 8;
  if (x0 < n) {
#pragma unroll
    for (int d = 0; d < S::kGroupsDeep; ++d) {
      const std::size_t x = x0 + 8 * d + e;
#pragma unroll
      for (int p = 0; p < S::kCopyPassesA; ++p) {
        const std::size_t i = row0 + row + p * S::kCopyRowsPerPass;
        const bool valid = x < n && i < m;
        copy_async<4>(sa + (8 * d + e) * S::kPitchA + row + p * S::kCopyRowsPerPass, valid ? a + i * n + x : a, valid);
      }
#pragma unroll
      for (int p = 0; p < S::kCopyPassesB; ++p) {
        const std::size_t j = col0 + row + p * S::kCopyRowsPerPass;
        const bool valid = x < n && j < k;
        copy_async<4>(sb + (8 * d + e) * S::kPitchB + row + p * S::kCopyRowsPerPass, valid ? b + j * n + x : b, valid);
      }
    }
  }
  // One group per slice, empty past the end, so that wait_copies<pending> counts slices.
  tf32_tensor_cores::commit_copies();
}

// This thread's fragments of element x of a shared slice: 2 16-byte loads of A and kSquares of B.
template <class S>
__device__ inline void load_fragments(const float* slice, int a_offset, int b_offset, int x, float a_frag[8],
                                      float b_frag[S::kMicroCols]) {
  const float* sa = slice + x * S::kPitchA + a_offset;
  const float* sb = slice + S::kDepth * S::kPitchA + x * S::kPitchB + b_offset;
  load4(sa, a_frag);
  load4(sa + S::kSquareStrideDown, a_frag + 4);
#pragma unroll
  for (int q = 0; q < S::kSquares; ++q) load4(sb + q * S::kSquareStrideAcross, b_frag + 4 * q);
}

// The 8 x kMicroCols FMA of one element.
template <class S>
__device__ inline void multiply(const float a_frag[8], const float b_frag[S::kMicroCols],
                                float dots[8][S::kMicroCols]) {
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int q = 0; q < S::kMicroCols; ++q) dots[r][q] = fmaf(a_frag[r], b_frag[q], dots[r][q]);
}

// The tile of block `block`: row band and column band. Plain order goes across a row band first;
// with kGroupBands, down a group of that many bands (fewer at the bottom) first, then across.
template <class S>
__device__ inline void tile_of(std::size_t block, std::size_t bands, std::size_t across, std::size_t& band,
                               std::size_t& column) {
  if constexpr (S::kGroupBands == 1) {
    band = block / across;
    column = block % across;
  } else {
    const std::size_t per_group = S::kGroupBands * across, first = block / per_group * S::kGroupBands;
    const std::size_t height = bands - first < S::kGroupBands ? bands - first : S::kGroupBands;
    band = first + block % per_group % height;
    column = block % per_group / height;
  }
}

// The kernel: each block computes one tile (tile_of) with step 07's loop: the next slice on its way
// (into registers, or by cp.async into a free shared slice) during this slice's products, one barrier
// per slice. At element x of a slice the fragments of x + 1 are read before the products of x, so
// that the reads' latency overlaps arithmetic; with kCarry the last element's products wait for the
// barrier and the first fragments of the next slice.
template <class S, bool kVector>
__global__ void __launch_bounds__(S::kThreads, S::kBlocksPerSm)
    distances(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
              std::size_t bands, std::size_t tiles_across, const float* norms_a, const float* norms_b) {
  extern __shared__ __align__(16) float shared[];  // kBuffers slices, then (kFusedNorms) the tile's norms
  std::size_t band, column;
  tile_of<S>(blockIdx.x, bands, tiles_across, band, column);
  const std::size_t row0 = band * S::kTileRows, col0 = column * S::kTileCols;
  const int a_offset = micro_row<S>(0), b_offset = micro_col<S>(0);
  float part_a[S::kPassesA] = {}, part_b[S::kPassesB] = {};
  float dots[8][S::kMicroCols] = {};
  float a_frag[2][8], b_frag[2][S::kMicroCols];
  const Sources<S> src = sources<S>(a, b, m, k, n, row0, col0);
  Staged<S> st;  // the next slice, where it comes through registers

  // The first slice into shared slice 0 (by cp.async, the first kBuffers slices into all of them).
  if constexpr (S::kCopyStages == 0) {
    load_slice<S, kVector>(src, 0, n, st);
    store_slice<S>(shared, st, part_a, part_b);
  } else {
#pragma unroll
    for (int s = 0; s < S::kBuffers; ++s)
      start_copies<S>(shared + s * S::kSliceFloats, a, b, m, k, n, row0, col0, std::size_t{S::kDepth} * s);
    tf32_tensor_cores::wait_copies<S::kBuffers - 1>();
  }
  __syncthreads();
  // After the last fragments of slice `current` (at element x0) are read, the next slice into place:
  // through registers, stored into shared slice `next`, then the barrier; by cp.async, its copies
  // waited for, the barrier, then the copies of the slice kBuffers on started into `current`, which no
  // thread reads any more.
  const auto turn = [&](std::size_t x0, int current, int next) {
    if constexpr (S::kCopyStages == 0) {
      store_slice<S>(shared + next * S::kSliceFloats, st, part_a, part_b);
      __syncthreads();
    } else {
      tf32_tensor_cores::wait_copies<S::kBuffers - 2>();
      __syncthreads();
      start_copies<S>(shared + current * S::kSliceFloats, a, b, m, k, n, row0, col0, x0 + S::kBuffers * S::kDepth);
    }
  };

  if constexpr (S::kCarry) load_fragments<S>(shared, a_offset, b_offset, 0, a_frag[0], b_frag[0]);
  int current = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += S::kDepth) {
    const bool more = x0 + S::kDepth < n;
    const int next = current + 1 == S::kBuffers ? 0 : current + 1;
    const float* slice = shared + current * S::kSliceFloats;
    if constexpr (S::kCopyStages == 0) {
      if (more) load_slice<S, kVector>(src, x0 + S::kDepth, n, st);  // in flight during the products
    }
    if constexpr (!S::kCarry) load_fragments<S>(slice, a_offset, b_offset, 0, a_frag[0], b_frag[0]);
#pragma unroll
    for (int x = 0; x < S::kDepth; ++x) {
      if (x + 1 < S::kDepth) {
        load_fragments<S>(slice, a_offset, b_offset, x + 1, a_frag[(x + 1) % 2], b_frag[(x + 1) % 2]);
      } else if (S::kCarry && more) {
        turn(x0, current, next);
        load_fragments<S>(shared + next * S::kSliceFloats, a_offset, b_offset, 0, a_frag[0], b_frag[0]);
      }
      multiply<S>(a_frag[x % 2], b_frag[x % 2], dots);
    }
    if (!S::kCarry && more) turn(x0, current, next);
    current = next;
  }

  const float* tile_norms_a;
  const float* tile_norms_b;
  if constexpr (!S::kFusedNorms) {
    tile_norms_a = norms_a + row0;
    tile_norms_b = norms_b + col0;
  } else {  // the two threads of a row add their halves; the tile's norms go to shared
    float* shared_norms = shared + S::kBuffers * S::kSliceFloats;
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
template <class S>
std::size_t bands(std::size_t m) {
  return (m + S::kTileRows - 1) / S::kTileRows;
}
// Blocks for an m x k result; throws course::UsageError beyond what one grid can hold.
template <class S>
unsigned grid_blocks(std::size_t m, std::size_t k) {
  const std::size_t blocks = bands<S>(m) * tiles_across<S>(k);
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

// Whether this GPU and build can run the shape: cp.async needs compute capability 8.0 or newer, and
// code built for it (a build for 7.5 compiles the copies to nothing, as in step 09).
template <class S>
bool available(const course::DeviceFacts& device) {
  if constexpr (S::kCopyStages == 0) {
    return true;
  } else {
    if (device.compute_major < 8) return false;
    cudaFuncAttributes attributes{};
    CUDA_CHECK(cudaFuncGetAttributes(&attributes, distances<S, true>));
    return attributes.ptxVersion >= 80;
  }
}

// Everything launch<S> needs done once: the GPU can run it (else course::NotSupportedError), M x K in
// one grid, the kernels' shared memory. Returns the scratch bytes.
template <class S>
std::size_t prepare(std::size_t m, std::size_t k, const course::DeviceFacts& device, const char* what) {
  if (!available<S>(device))
    throw course::NotSupportedError(std::string(what) + ": cp.async needs compute capability 8.0 or newer");
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
  const std::size_t down = bands<S>(m), across = tiles_across<S>(k);
  if (register_tiles::aligned_rows(a, n) && register_tiles::aligned_rows(b, n) && register_tiles::aligned_rows(c, k))
    distances<S, true><<<blocks, S::kThreads, S::kSharedBytes, stream>>>(a, b, c, m, k, n, down, across, norms_a,
                                                                         norms_b);
  else
    distances<S, false><<<blocks, S::kThreads, S::kSharedBytes, stream>>>(a, b, c, m, k, n, down, across, norms_a,
                                                                          norms_b);
  CUDA_CHECK_LAUNCH();
}

}  // namespace register_tile_shapes
