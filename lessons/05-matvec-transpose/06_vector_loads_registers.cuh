// Lesson 05, step 06's kernels and their launcher: 16-byte loads and several rows at a time, in both
// products (06_vector_loads_registers.cu says what and why). Steps 07 to 10 fall back to these two
// passes for rows too long for their single pass.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "matvec.h"
#include "matvec_device.cuh"
#include "04_shared_vector_tiles.cuh"
#include "05_coalesced_warps.cuh"

namespace vector_loads {

using matvec::LaunchPlan;
constexpr int kRowsAtATime = 4;  // the step's choice; --rows 1 turns the second idea off

__device__ inline float dot(float a, float b) { return a * b; }
__device__ inline float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
__device__ inline void add_scaled(float& acc, float a, float s) { acc += a * s; }
__device__ inline void add_scaled(float4& acc, float4 a, float s) {
  acc.x += a.x * s, acc.y += a.y * s, acc.z += a.z * s, acc.w += a.w * s;
}
__device__ inline void store(float* out, float value) { *out = value; }
__device__ inline void store(float* out, float4 value) { *reinterpret_cast<float4*>(out) = value; }

// Lane `lane`'s sums of rows i0 .. i0 + count - 1 times v over elements first + lane, first + lane + 32,
// ... below `last` (elements of T), written to sum[]; the warp's shuffles finish them.
template <class T, int kRowsPerWarp>
__device__ inline void lane_row_sums(const float* a, const T* v_t, std::size_t i0, int count, std::size_t columns,
                                     std::size_t first, std::size_t last, unsigned lane, float (&sum)[kRowsPerWarp]) {
  for (std::size_t k = first + lane; k < last; k += 32) {
    const T v_k = v_t[k];  // loaded once, used for every row of the group
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
      if (r < count) sum[r] += dot(reinterpret_cast<const T*>(a + (i0 + r) * columns)[k], v_k);
  }
#pragma unroll
  for (int r = 0; r < kRowsPerWarp; ++r) sum[r] = matvec::warp_sum(sum[r]);
}

// B = A v, kRowsPerWarp rows per warp; T is float4 (N a multiple of 4) or float.
template <class T, int kRowsPerWarp>
__global__ void rows_per_warp(const float* a, const float* v, float* b, std::size_t rows, std::size_t columns) {
  constexpr int kWidth = sizeof(T) / sizeof(float);
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t width = columns / kWidth;  // elements of T per row
  const T* v_t = reinterpret_cast<const T*>(v);
  for (std::size_t i0 = warp * kRowsPerWarp; i0 < rows; i0 += warps * kRowsPerWarp) {
    const int count = static_cast<int>(matvec::smaller(kRowsPerWarp, rows - i0));
    float sum[kRowsPerWarp] = {};
    lane_row_sums<T, kRowsPerWarp>(a, v_t, i0, count, columns, 0, width, lane, sum);
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
      if (lane == 0 && r < count) b[i0 + r] = sum[r];
  }
}

// The same where rows are few, each group of rows cut into `pieces` along the row, as in step 05
// (05_coalesced_warps.cuh): the warp writes its rows' piece sums to piece_sums[row * pieces + piece],
// and add_row_pieces adds them up.
template <class T, int kRowsPerWarp>
__global__ void row_pieces_per_warp(const float* a, const float* v, float* piece_sums, std::size_t rows,
                                    std::size_t columns, int pieces) {
  constexpr int kWidth = sizeof(T) / sizeof(float);
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t width = columns / kWidth;
  const std::size_t length = matvec::piece_length(width, pieces);
  const std::size_t tasks = (rows + kRowsPerWarp - 1) / kRowsPerWarp * pieces;
  const T* v_t = reinterpret_cast<const T*>(v);
  for (std::size_t task = warp; task < tasks; task += warps) {
    const std::size_t i0 = task / pieces * kRowsPerWarp, piece = task % pieces;
    const std::size_t first = matvec::smaller(width, piece * length), last = matvec::smaller(width, first + length);
    const int count = static_cast<int>(matvec::smaller(kRowsPerWarp, rows - i0));
    float sum[kRowsPerWarp] = {};
    lane_row_sums<T, kRowsPerWarp>(a, v_t, i0, count, columns, first, last, lane, sum);
#pragma unroll
    for (int r = 0; r < kRowsPerWarp; ++r)
      if (lane == 0 && r < count) piece_sums[(i0 + r) * pieces + piece] = sum[r];
  }
}

// Partial C over row band blockIdx.y; each thread owns kWidth neighbouring columns and has
// kRowsPerTurn rows' loads in flight.
template <class T, int kRowsPerTurn>
__global__ void columns_per_thread(const float* a, const float* b, float* partial, std::size_t rows, std::size_t columns) {
  constexpr int kWidth = sizeof(T) / sizeof(float);
  const std::size_t group = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t width = columns / kWidth;
  if (group >= width) return;
  const std::size_t band = (rows + gridDim.y - 1) / gridDim.y;
  const std::size_t first = matvec::smaller(rows, blockIdx.y * band), last = matvec::smaller(rows, first + band);
  T acc{};
  std::size_t i = first;
  for (; i + kRowsPerTurn <= last; i += kRowsPerTurn) {
    T a_r[kRowsPerTurn];
    float b_r[kRowsPerTurn];
#pragma unroll
    for (int r = 0; r < kRowsPerTurn; ++r) {  // all loads first: four rows' worth in flight
      a_r[r] = reinterpret_cast<const T*>(a + (i + r) * columns)[group];
      b_r[r] = b[i + r];
    }
#pragma unroll
    for (int r = 0; r < kRowsPerTurn; ++r) add_scaled(acc, a_r[r], b_r[r]);
  }
  for (; i < last; ++i) add_scaled(acc, reinterpret_cast<const T*>(a + i * columns)[group], b[i]);
  store(partial + blockIdx.y * columns + group * kWidth, acc);
}

// B's share of scratch, rounded up to whole float4s so that the partial sums after it stay 16-byte
// aligned for the float4 stores.
inline std::size_t b_floats(std::size_t rows) { return (rows + 3) / 4 * 4; }

inline bool vectorizable(const float* a, const float* v, std::size_t columns) {
  return columns % 4 == 0 && reinterpret_cast<std::uintptr_t>(a) % 16 == 0 && reinterpret_cast<std::uintptr_t>(v) % 16 == 0;
}

// The plan of the two passes: `threads` per block, `rows_at_a_time` rows per warp in A v and rows in
// flight per thread in A^T B (1 or kRowsAtATime), 4-byte loads only if `scalar_loads`.
inline LaunchPlan plan_two_passes(std::size_t rows, std::size_t columns, int threads, int rows_at_a_time,
                                  bool scalar_loads, const course::DeviceFacts& device) {
  LaunchPlan p;
  p.threads = threads;
  // A^T B has a thread per group of columns (4 with 16-byte loads); bands of rows make up the rest of
  // about 8 blocks per SM, so 16-byte loads come with 4 times as many bands.
  const std::size_t groups = columns % 4 == 0 && !scalar_loads ? columns / 4 : columns;
  p.parts = matvec::parts_to_fill(rows, groups, p.threads, device);
  p.rows_at_a_time = rows_at_a_time;
  p.row_pieces = matvec::row_pieces((rows + p.rows_at_a_time - 1) / p.rows_at_a_time, groups, device);
  p.scratch_bytes =
      (b_floats(rows) + static_cast<std::size_t>(p.parts) * columns + matvec::piece_sum_floats(rows, p.row_pieces)) *
      sizeof(float);
  p.scalar_loads = scalar_loads;
  return p;
}

template <class T, int kRows>
void launch(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
            void* scratch, cudaStream_t stream) {
  constexpr int kWidth = sizeof(T) / sizeof(float);
  float* b = static_cast<float*>(scratch);
  float* partial = b + b_floats(rows);
  const std::size_t tasks = (rows + kRows - 1) / kRows * p.row_pieces;
  const auto blocks_a_v =
      static_cast<unsigned>(std::min<std::size_t>((tasks * 32 + p.threads - 1) / p.threads, 65535));
  if (p.row_pieces > 1) {
    float* piece_sums = partial + static_cast<std::size_t>(p.parts) * columns;
    row_pieces_per_warp<T, kRows><<<blocks_a_v, p.threads, 0, stream>>>(a, v, piece_sums, rows, columns, p.row_pieces);
    CUDA_CHECK_LAUNCH();
    matvec::launch_add_row_pieces(piece_sums, b, rows, p.row_pieces, stream);
  } else {
    rows_per_warp<T, kRows><<<blocks_a_v, p.threads, 0, stream>>>(a, v, b, rows, columns);
    CUDA_CHECK_LAUNCH();
  }
  // With a single band of rows (very wide A), the band's sums are C itself: no partial sums to add
  // (where C is aligned for the kernel's T stores).
  const bool into_c = p.parts == 1 && reinterpret_cast<std::uintptr_t>(c) % sizeof(T) == 0;
  const dim3 grid(static_cast<unsigned>((columns / kWidth + p.threads - 1) / p.threads), static_cast<unsigned>(p.parts));
  columns_per_thread<T, kRows><<<grid, p.threads, 0, stream>>>(a, b, into_c ? c : partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  if (!into_c) matvec::launch_sum_partials(partial, p.parts, columns, c, stream);
}

template <int kRows>
void launch_rows(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
                 void* scratch, cudaStream_t stream) {
  if (!p.scalar_loads && vectorizable(a, v, columns)) launch<float4, kRows>(a, v, c, rows, columns, p, scratch, stream);
  else launch<float, kRows>(a, v, c, rows, columns, p, scratch, stream);
}

// C = A^T (A v) in two passes, as planned by plan_two_passes.
inline void launch_two_passes(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                              const LaunchPlan& p, void* scratch, cudaStream_t stream) {
  if (p.rows_at_a_time == 1) launch_rows<1>(a, v, c, rows, columns, p, scratch, stream);
  else launch_rows<kRowsAtATime>(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace vector_loads
