// Lesson 05, step 07, the warp layout beside its plain form (07_fused_warp_rows.cuh): the kernel for
// rows of 513 to 1024 columns, and the ways kept to measure what each of the layout's ideas is worth.
// A first reading can skip this file.
//
// It is the plain kernel with two switches. kPrefetch: the next row's loads in flight while the warp
// works on the current one, as the plain kernel does (--prefetch off loads each row only when it is
// needed). kWay: how rows of 513 to 1024 columns (E = 32) are read and where v and C wait (below).
#pragma once

#include <cstdint>

#include "07_fused_warp_rows.cuh"

namespace warp_rows {

// Rows of 513 to 1024 columns (E = 32) are read by whole 128-byte lines: a row rarely starts on a
// line's boundary (at 997 columns, one row in 32 does), and a warp's 32 neighbouring floats from an
// unaligned start touch two lines. So the warp starts at the line that holds the row's first element,
// `shift` floats before it, and takes E + 1 lines' worth; lane l's value k is column l + 32 k - shift,
// zero (and never loaded) outside the row. v and C, in shared memory there, are indexed the same way,
// padded by 32 floats at both ends.
// How rows of 513 to 1024 columns (E = 32) are read and where v and C wait (--warp-e32): whole lines
// with v and C in shared memory (the step's way), or from each row's first element, with v and C in
// shared memory or in registers (the ways before it, kept to measure what each change is worth).
enum WideRowWay { kWholeLines = 0, kFromFirstElement = 1, kVectorsInRegisters = 2 };

template <int E, int kWay>
constexpr bool kLineReads = E >= 32 && kWay == kWholeLines;

template <int E, int kWay>
constexpr int kLines = kLineReads<E, kWay> ? E + 1 : E;

__device__ inline unsigned line_shift(const float* row) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(row) % 128) / sizeof(float);
}

template <int K>
__device__ inline void load_lines(const float* row, std::size_t columns, unsigned shift, float (&x)[K]) {
  const unsigned lane = threadIdx.x % 32;
  const float* line = row - shift;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const std::size_t p = lane + 32 * static_cast<std::size_t>(k);
    x[k] = p >= shift && p - shift < columns ? line[p] : 0.0f;
  }
}

// Registers decide how many warps an SM holds, and so how many rows are in flight. Up to E = 16, v's
// elements and C's share stay in registers beside the row and the next row, and two blocks of 256
// threads fit on an SM. At E = 32 the four arrays alone are 128 floats a thread: one block an SM,
// and rows of 513 to 1024 columns would stream with half the warps. So there v and the warp's share
// of C live in shared memory (lane l reads and writes words l, l + 32, ...: one pass per access), and
// the row and the next one fit in the 128 registers that two blocks of 256 threads leave a thread.
// The README's table of the warp and block layouts' ideas measures both ways (--warp-e32); reading
// whole lines needs v and C in shared memory in any case, as the v a lane needs moves with each row's
// shift. (In registers, kVectorsInRegisters, the kernel takes one block
// an SM.)
template <int E, int kWay>
constexpr bool kSharedVectors = E >= 32 && kWay != kVectorsInRegisters;

template <int E, int kWay>
constexpr int kBlocksPerSm = E >= 32 && kWay == kVectorsInRegisters ? 1 : 2;

template <int E, bool kPrefetch, int kWay>
__device__ inline void warp_rows_ways_body(const float* a, const float* v, float* partial, std::size_t rows,
                                           std::size_t columns) {
  constexpr int kWarps = kThreads / 32;
  constexpr bool kShared = kSharedVectors<E, kWay>;
  constexpr int kSharedWords = kShared ? 32 + kMaxColumns + 32 : 1;  // padded for the lines' shift
  __shared__ float block_c[kMaxColumns];
  __shared__ float v_shared[kSharedWords];
  __shared__ float c_shared[kShared ? kWarps : 1][kSharedWords];
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32, warp_in_block = threadIdx.x / 32;
  constexpr int K = (kLines<E, kWay>);
  float v_lane[kShared ? 1 : E], c_lane[kShared ? 1 : E] = {}, row[K] = {}, next[K] = {};
  if constexpr (kShared) {
    for (int w = threadIdx.x; w < kSharedWords; w += blockDim.x) {
      const long long j = w - 32LL;  // word w holds column w - 32
      v_shared[w] = j >= 0 && j < static_cast<long long>(columns) ? v[j] : 0.0f;
    }
    for (int w = lane; w < kSharedWords; w += 32) c_shared[warp_in_block][w] = 0.0f;
  } else {
    load_lane_columns(v, columns, v_lane);
  }
  for (std::size_t j = threadIdx.x; j < columns; j += blockDim.x) block_c[j] = 0.0f;
  std::size_t i = warp;
  unsigned shift = 0, next_shift = 0;  // E = 32: where the row starts in its first line
  auto load_row = [&](std::size_t r, float (&x)[K], unsigned& s) {
    if constexpr (kLineReads<E, kWay>) {
      s = line_shift(a + r * columns);
      load_lines(a + r * columns, columns, s, x);
    } else {
      load_lane_columns(a + r * columns, columns, x);
    }
  };
  if (kPrefetch && i < rows) load_row(i, row, shift);
  __syncthreads();  // v_shared and block_c are ready
  for (; i < rows; i += warps) {
    if constexpr (kPrefetch) {
      if (i + warps < rows) load_row(i + warps, next, next_shift);  // in flight meanwhile
    } else {
      load_row(i, row, shift);  // needed at once: the warp waits for it
    }
    float dot = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if constexpr (kShared)
        dot += row[k] * v_shared[32 + lane + 32 * k - shift];
      else
        dot += row[k] * v_lane[k];
    }
    const float b_i = matvec::warp_sum(dot);  // every lane gets B_i: no barrier
    // E = 32: with the rows' different shifts, lanes share C's words from row to row; each adds to
    // them only after every lane is done with the row before.
    if constexpr (kShared) __syncwarp();
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if constexpr (kShared)
        c_shared[warp_in_block][32 + lane + 32 * k - shift] += b_i * row[k];
      else
        c_lane[k] += b_i * row[k];
      if constexpr (kPrefetch) row[k] = next[k];
    }
    if constexpr (kPrefetch) shift = next_shift;
  }
  __syncwarp();  // every lane's shares are in c_shared before lanes read each other's
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = lane + 32 * static_cast<std::size_t>(k);
    float share;
    if constexpr (kShared)
      share = c_shared[warp_in_block][32 + j];
    else
      share = c_lane[k];
    if (j < columns) atomicAdd(&block_c[j], share);  // the block's warps, in shared memory
  }
  __syncthreads();
  for (std::size_t j = threadIdx.x; j < columns; j += blockDim.x) partial[blockIdx.x * columns + j] = block_c[j];
}

// The kernel is its body alone (step 10b runs the same body and then finishes C).
template <int E, bool kPrefetch, int kWay = kWholeLines>
__global__ void __launch_bounds__(kThreads, (kBlocksPerSm<E, kWay>))
    fused_warp_rows_with_ways(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns) {
  warp_rows_ways_body<E, kPrefetch, kWay>(a, v, partial, rows, columns);
}

// The kernel for rows of `columns` elements: E = columns / 32, rounded up to a power of 2. The plain
// kernel where it applies (E up to 16, the next row in flight); this file's otherwise: rows of E = 32
// read as `way` says (WideRowWay), or any row loaded only when it is needed (--prefetch off).
template <int E>
const void* wide_kernel(bool prefetch, int way) {
  if (way == kFromFirstElement)
    return prefetch ? reinterpret_cast<const void*>(fused_warp_rows_with_ways<E, true, kFromFirstElement>)
                    : reinterpret_cast<const void*>(fused_warp_rows_with_ways<E, false, kFromFirstElement>);
  if (way == kVectorsInRegisters)
    return prefetch ? reinterpret_cast<const void*>(fused_warp_rows_with_ways<E, true, kVectorsInRegisters>)
                    : reinterpret_cast<const void*>(fused_warp_rows_with_ways<E, false, kVectorsInRegisters>);
  return prefetch ? reinterpret_cast<const void*>(fused_warp_rows_with_ways<E, true>)
                  : reinterpret_cast<const void*>(fused_warp_rows_with_ways<E, false>);
}

inline const void* kernel_for(std::size_t columns, bool prefetch, int way = kWholeLines) {
  const int e = matvec::values_per_thread(columns, 32);
  if (e == 32) return wide_kernel<32>(prefetch, way);
  if (prefetch) return plain_kernel_for(e);
  switch (e) {  // --prefetch off
    case 1: return reinterpret_cast<const void*>(fused_warp_rows_with_ways<1, false>);
    case 2: return reinterpret_cast<const void*>(fused_warp_rows_with_ways<2, false>);
    case 4: return reinterpret_cast<const void*>(fused_warp_rows_with_ways<4, false>);
    case 8: return reinterpret_cast<const void*>(fused_warp_rows_with_ways<8, false>);
    default: return reinterpret_cast<const void*>(fused_warp_rows_with_ways<16, false>);
  }
}

// One partial C per block into `partial` (blocks x columns floats).
inline void launch(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns, int blocks,
                   bool prefetch, int way, cudaStream_t stream) {
  void* arguments[] = {&a, &v, &partial, &rows, &columns};
  CUDA_CHECK(cudaLaunchKernel(kernel_for(columns, prefetch, way), dim3(blocks), dim3(kThreads), arguments, 0, stream));
}

}  // namespace warp_rows
