// Lesson 05, step 07, rows of N <= 1024 columns: a warp holds a row. Its plain form, for rows of up
// to 512 columns; 07_fused_warp_rows_ways.cuh holds the kernel for rows of 513 to 1024 columns and the
// ways kept to measure the layout's ideas.
//
// Lane l holds columns l, l + 32, ... of the row (E = 1 to 16 of them) in registers, with v's matching
// elements and its share of C. The warp's shuffles give B_i to every lane, so B_i is applied at once:
// no barrier. Warp w takes rows w, w + warps, ..., with the next row's loads in flight while it works
// on the current one. Each block adds its warps' shares in shared memory and writes one partial C;
// sum_partials adds the blocks' partials. The warps' shares meet by atomicAdd, in whatever order the
// warps arrive, and float addition in another order can round differently: the last bits of C may
// change from run to run in this layout (the block, group and wide layouts add in a fixed order).
#pragma once

#include "05_coalesced_warps.cuh"
#include "matvec_device.cuh"

namespace warp_rows {

constexpr int kThreads = 256;
constexpr std::size_t kMaxColumns = matvec::kWarpRowColumns;  // 32 values per lane (the other header)

// Lane l's columns l, l + 32, ... of `row`, zero past its end.
template <int E>
__device__ inline void load_lane_columns(const float* row, std::size_t columns, float (&x)[E]) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = lane + 32 * static_cast<std::size_t>(k);
    x[k] = j < columns ? row[j] : 0.0f;
  }
}

template <int E>
__device__ inline void warp_rows_body(const float* a, const float* v, float* partial, std::size_t rows,
                                      std::size_t columns) {
  __shared__ float block_c[32 * E];
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  float v_lane[E], c_lane[E] = {}, row[E] = {}, next[E] = {};
  load_lane_columns(v, columns, v_lane);
  for (std::size_t j = threadIdx.x; j < columns; j += blockDim.x) block_c[j] = 0.0f;
  __syncthreads();  // block_c is ready
  if (warp < rows) load_lane_columns(a + warp * columns, columns, row);
  for (std::size_t i = warp; i < rows; i += warps) {
    if (i + warps < rows) load_lane_columns(a + (i + warps) * columns, columns, next);  // in flight meanwhile
    float dot = 0.0f;
#pragma unroll
    for (int k = 0; k < E; ++k) dot += row[k] * v_lane[k];
    const float b_i = matvec::warp_sum(dot);  // every lane gets B_i: no barrier
#pragma unroll
    for (int k = 0; k < E; ++k) {
      c_lane[k] += b_i * row[k];
      row[k] = next[k];
    }
  }
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = lane + 32 * static_cast<std::size_t>(k);
    if (j < columns) atomicAdd(&block_c[j], c_lane[k]);  // the block's warps, in shared memory
  }
  __syncthreads();
  for (std::size_t j = threadIdx.x; j < columns; j += blockDim.x) partial[blockIdx.x * columns + j] = block_c[j];
}

// The kernel is its body alone (step 10b runs the same body and then finishes C).
template <int E>
__global__ void __launch_bounds__(kThreads, 2)
    fused_warp_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns) {
  warp_rows_body<E>(a, v, partial, rows, columns);
}

// The kernel for E values per lane (1 to 16).
inline const void* plain_kernel_for(int e) {
  switch (e) {
    case 1: return reinterpret_cast<const void*>(fused_warp_rows<1>);
    case 2: return reinterpret_cast<const void*>(fused_warp_rows<2>);
    case 4: return reinterpret_cast<const void*>(fused_warp_rows<4>);
    case 8: return reinterpret_cast<const void*>(fused_warp_rows<8>);
    default: return reinterpret_cast<const void*>(fused_warp_rows<16>);
  }
}

}  // namespace warp_rows
