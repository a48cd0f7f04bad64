// Lesson 05, step 05: the coalesced two passes, B = A v with one warp per row and C = A^T B with one
// thread per column over bands of rows. Steps 06 and 07 reuse warp_sum; step 07 falls back to the two
// passes for matrices too wide for its single pass.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "course/check.h"
#include "course/launch.h"
#include "matvec.h"
#include "matvec_device.cuh"
#include "04_shared_vector_tiles.cuh"

namespace matvec {

// The sum of a value over the 32 lanes of a warp, by shuffles; every lane gets the sum.
__device__ inline float warp_sum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

// B = A v: warp w of the grid takes rows w, w + warps, ...; its lanes stride along the row.
static __global__ void warp_per_row(const float* a, const float* v, float* b, std::size_t rows, std::size_t columns) {
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (std::size_t i = warp; i < rows; i += warps) {
    const float* row = a + i * columns;
    float sum = 0.0f;
    for (std::size_t j = lane; j < columns; j += 32) sum += row[j] * v[j];
    sum = warp_sum(sum);
    if (lane == 0) b[i] = sum;
  }
}

// Partial C over band blockIdx.y of the rows: thread j sums a[i][j] * b[i] over the band's rows.
static __global__ void column_per_thread(const float* a, const float* b, float* partial, std::size_t rows,
                                         std::size_t columns) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= columns) return;
  const std::size_t band = (rows + gridDim.y - 1) / gridDim.y;
  const std::size_t first = blockIdx.y * band, last = smaller(rows, first + band);
  float sum = 0.0f;
  for (std::size_t i = first; i < last; ++i) sum += a[i * columns + j] * b[i];
  partial[blockIdx.y * columns + j] = sum;
}

// Scratch of the two passes: B (rows floats), then parts x columns partial sums.
inline std::size_t coalesced_scratch_bytes(std::size_t rows, std::size_t columns, int parts) {
  return (rows + static_cast<std::size_t>(parts) * columns) * sizeof(float);
}

// How many bands of rows make enough blocks to fill the GPU: about 8 blocks of `threads` per SM in
// all, never more bands than rows.
inline int parts_to_fill(std::size_t rows, std::size_t columns, int threads, const course::DeviceFacts& device) {
  const std::size_t column_blocks = (columns + threads - 1) / threads;
  const std::size_t wanted = 8 * static_cast<std::size_t>(device.multiprocessors);
  const std::size_t parts = (wanted + column_blocks - 1) / column_blocks;
  return static_cast<int>(std::max<std::size_t>(1, std::min({parts, rows, std::size_t(65535)})));
}

inline void launch_coalesced_two_pass(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                                      int threads, int parts, void* scratch, cudaStream_t stream) {
  float* b = static_cast<float*>(scratch);
  float* partial = b + rows;
  const std::size_t row_blocks = std::min<std::size_t>((rows * 32 + threads - 1) / threads, 65535);
  warp_per_row<<<static_cast<unsigned>(row_blocks), threads, 0, stream>>>(a, v, b, rows, columns);
  CUDA_CHECK_LAUNCH();
  const dim3 grid(static_cast<unsigned>((columns + threads - 1) / threads), static_cast<unsigned>(parts));
  column_per_thread<<<grid, threads, 0, stream>>>(a, b, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  launch_sum_partials(partial, parts, columns, c, stream);
}

}  // namespace matvec
