// Lesson 05, step 05: the coalesced two passes, B = A v with one warp per row (or per piece of a row,
// where rows are few) and C = A^T B with one thread per column over bands of rows. Steps 06 to 11
// reuse warp_sum, and step 06 the rows' pieces.
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

// Rows too few to give every warp of the GPU one (256 rows of a million columns would keep 256 warps
// busy, two per SM) are cut into pieces, a warp per piece; add_row_pieces then adds each row's pieces
// in order. Pieces per row: 32 warps per SM over the rows, rounded down, so rows are cut only where
// there are at most 16 per SM; each piece at least 1024 elements long.
inline int row_pieces(std::size_t rows, std::size_t length, const course::DeviceFacts& device) {
  const std::size_t wanted = 32 * static_cast<std::size_t>(device.multiprocessors);
  const std::size_t by_rows = wanted / std::max<std::size_t>(rows, 1);
  return static_cast<int>(std::max<std::size_t>(1, std::min({by_rows, length / 1024, std::size_t(1024)})));
}

// Scratch for the rows' piece sums: none where rows are not cut.
inline std::size_t piece_sum_floats(std::size_t rows, int pieces) {
  return pieces > 1 ? rows * static_cast<std::size_t>(pieces) : 0;
}

// Length of each of `pieces` pieces of a row of `length` elements: whole warps' strides of 32.
__host__ __device__ inline std::size_t piece_length(std::size_t length, int pieces) {
  return ((length + pieces - 1) / pieces + 31) / 32 * 32;
}

// The piece sums of row_sums[row * pieces + piece], added in order: B.
static __global__ void add_row_pieces(const float* row_sums, float* b, std::size_t rows, int pieces) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  float total = 0.0f;
  for (int piece = 0; piece < pieces; ++piece) total += row_sums[i * pieces + piece];
  b[i] = total;
}

inline void launch_add_row_pieces(const float* row_sums, float* b, std::size_t rows, int pieces,
                                  cudaStream_t stream) {
  add_row_pieces<<<static_cast<unsigned>((rows + 255) / 256), 256, 0, stream>>>(row_sums, b, rows, pieces);
  CUDA_CHECK_LAUNCH();
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

// The same where rows are few: warp w takes piece w % pieces of row w / pieces (and so on by the
// grid's warps) and writes that piece's sum to piece_sums[w]; add_row_pieces adds them up. A kernel
// of its own, so that warp_per_row's loop over a whole row carries no arithmetic for pieces.
static __global__ void warp_per_piece(const float* a, const float* v, float* piece_sums, std::size_t rows,
                                      std::size_t columns, int pieces) {
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t length = piece_length(columns, pieces);
  for (std::size_t task = warp; task < rows * pieces; task += warps) {
    const std::size_t first = smaller(columns, task % pieces * length), last = smaller(columns, first + length);
    const float* x = a + task / pieces * columns + first + lane;  // pointers that step by 32: no index
    const float* y = v + first + lane;                             // arithmetic in the loop
    float sum = 0.0f;
    for (std::size_t j = first + lane; j < last; j += 32, x += 32, y += 32) sum += *x * *y;
    sum = warp_sum(sum);
    if (lane == 0) piece_sums[task] = sum;
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

// Scratch of the two passes: B (rows floats), then parts x columns partial sums, then the rows'
// piece sums where they are cut into pieces.
inline std::size_t coalesced_scratch_bytes(std::size_t rows, std::size_t columns, int parts, int pieces) {
  return (rows + static_cast<std::size_t>(parts) * columns + piece_sum_floats(rows, pieces)) * sizeof(float);
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
                                      int threads, int parts, int pieces, void* scratch, cudaStream_t stream) {
  float* b = static_cast<float*>(scratch);
  float* partial = b + rows;
  const std::size_t tasks = rows * static_cast<std::size_t>(pieces);
  const unsigned row_blocks = static_cast<unsigned>(std::min<std::size_t>((tasks * 32 + threads - 1) / threads, 65535));
  if (pieces == 1) {
    warp_per_row<<<row_blocks, threads, 0, stream>>>(a, v, b, rows, columns);
    CUDA_CHECK_LAUNCH();
  } else {
    float* piece_sums = partial + static_cast<std::size_t>(parts) * columns;
    warp_per_piece<<<row_blocks, threads, 0, stream>>>(a, v, piece_sums, rows, columns, pieces);
    CUDA_CHECK_LAUNCH();
    launch_add_row_pieces(piece_sums, b, rows, pieces, stream);
  }
  const dim3 grid(static_cast<unsigned>((columns + threads - 1) / threads), static_cast<unsigned>(parts));
  // With a single band of rows (very wide A), the band's sums are C itself: no partial sums to add.
  column_per_thread<<<grid, threads, 0, stream>>>(a, b, parts == 1 ? c : partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  if (parts > 1) launch_sum_partials(partial, parts, columns, c, stream);
}

}  // namespace matvec
