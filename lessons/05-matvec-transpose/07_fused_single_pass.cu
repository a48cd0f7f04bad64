// Lesson 05, step 07: a fused single pass that reads A once.
//
// What changed: both products in one kernel. Whoever loads a piece of row i keeps it on the chip
// until B_i = row_i . v is known, then adds B_i times that piece to its share of C. A is read from
// memory once; v, B and the running shares of C stay on the chip. Who holds a row depends on its
// length N, because B_i needs the whole row:
//
//   N <= 1024           a warp per row. Lane l holds columns l, l + 32, ... (up to 32 of them), v's
//                       matching elements and its share of C, all in registers. The warp's shuffles
//                       give B_i to every lane: no barrier at all. Rows w, w + warps, ... per warp.
//   1024 < N <= 16384   a block per group of rows. Its threads hold E = 4, 8 or 16 elements of each row
//                       (columns t, t + threads, ...) and take 16 / E neighbouring rows at a time, so
//                       that every thread has 16 values in flight and the block meets at one barrier
//                       per 16 values, whatever N is. Blocks of 512 threads, two per SM (while one
//                       waits at its barrier the other's loads go on), up to 8192 columns; of 1024,
//                       one per SM, beyond.
//   N > 16384           a row is wider than a block can hold: every block holds a slice of every
//                       row, in groups of rows. Each block posts its part of each B_i to global
//                       memory, and waits for all the others' parts before it applies B_i. The
//                       slices wait in shared memory, filled by asynchronous copies several groups of
//                       rows ahead (16 bytes a copy where rows start on 16-byte boundaries).
//                       Every block must be resident at once: a cooperative launch.
//
// Each block ends with one partial C (its rows' contribution), added up by sum_partials; in the wide
// layout each column has a single owner, which writes C directly.
//
// Why it is faster (1.94x over step 06 in the ladder): A is read once instead of twice. The ladder
// and the shape sweep put the step at 94 to 95% of the read bandwidth counting one pass over A at
// 16384 x 16384, 65536 x 4096 and 1,048,576 x 256, at 88% at 256 x 1,048,576, 87% at
// 100,003 x 997 and 71% at 4096 x 65536.
//
// What it costs: three layouts instead of one kernel, and in the wide one a wait for the other blocks
// at every group of rows, with three barriers. That fixed work weighs most with one column of a row
// per thread (4096 x 65536). The step falls back to step 05's two passes on a GPU without cooperative
// launches, for rows wider than 16 x the grid's threads, and for grids of more than 256 blocks.
//
// Launch: chosen by N (the layouts above); --threads is ignored, --blocks sets the grid.
#include <cuda/atomic>
#include <cuda_pipeline.h>


#include "matvec.h"
#include "04_shared_vector_tiles.cuh"
#include "05_coalesced_warps.cuh"

namespace {

using matvec::LaunchPlan;

// --- N <= 1024: a warp per row ----------------------------------------------------------------------
constexpr int kWarpLayoutThreads = 256;
constexpr std::size_t kWarpLayoutColumns = 32 * 32;

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
__global__ void __launch_bounds__(kWarpLayoutThreads, E >= 32 ? 1 : 2)
    fused_warp_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns) {
  __shared__ float block_c[kWarpLayoutColumns];
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  float v_lane[E], c_lane[E] = {}, row[E] = {}, next[E] = {};
  load_lane_columns(v, columns, v_lane);
  for (std::size_t j = threadIdx.x; j < columns; j += blockDim.x) block_c[j] = 0.0f;
  std::size_t i = warp;
  if (i < rows) load_lane_columns(a + i * columns, columns, row);
  for (; i < rows; i += warps) {
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
  __syncthreads();  // block_c is zeroed
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = lane + 32 * static_cast<std::size_t>(k);
    if (j < columns) atomicAdd(&block_c[j], c_lane[k]);  // the block's warps, in shared memory
  }
  __syncthreads();
  for (std::size_t j = threadIdx.x; j < columns; j += blockDim.x) partial[blockIdx.x * columns + j] = block_c[j];
}

// --- 1024 < N <= 16384: a block per group of rows ---------------------------------------------------
// Blocks of T = 512 threads (two per SM, so that one block's loads go on while the other waits at
// its barrier) up to 8192 columns, of 1024 beyond.
constexpr int kValuesPerThread = 16;  // E elements of each of R = 16 / E rows
constexpr std::size_t kBlockLayoutColumns = 1024 * kValuesPerThread;
constexpr std::size_t kHalfBlockColumns = 512 * kValuesPerThread;

template <int T, int E, int R>
__device__ inline void load_row_group(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                      float (&x)[R][E]) {
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int k = 0; k < E; ++k) {
      const std::size_t j = threadIdx.x + static_cast<std::size_t>(k) * T;
      x[r][k] = first_row + r < rows && j < columns ? a[(first_row + r) * columns + j] : 0.0f;
    }
}

template <int E, int T>
__global__ void __launch_bounds__(T, 1024 / T)
    fused_block_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns) {
  constexpr int R = kValuesPerThread / E;
  extern __shared__ float v_shared[];
  __shared__ float4 warp_sums[2][R][T / 32 / 4];  // the warps' sums, 4 to a float4
  for (std::size_t j = threadIdx.x; j < columns; j += T) v_shared[j] = v[j];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float c_share[E] = {}, group[R][E] = {}, next[R][E] = {};
  std::size_t first = blockIdx.x * static_cast<std::size_t>(R);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * R;
  if (first < rows) load_row_group<T>(a, first, rows, columns, group);
  __syncthreads();  // v_shared is loaded
  for (int parity = 0; first < rows; first += stride, parity ^= 1) {
    if (first + stride < rows) load_row_group<T>(a, first + stride, rows, columns, next);  // in flight meanwhile
    float dot[R] = {};
#pragma unroll
    for (int k = 0; k < E; ++k) {
      const std::size_t j = threadIdx.x + static_cast<std::size_t>(k) * T;
      const float v_j = j < columns ? v_shared[j] : 0.0f;  // one load of v for R rows
#pragma unroll
      for (int r = 0; r < R; ++r) dot[r] += group[r][k] * v_j;
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      dot[r] = matvec::warp_sum(dot[r]);
      if (lane == 0) reinterpret_cast<float*>(warp_sums[parity][r])[warp] = dot[r];
    }
    __syncthreads();  // the slots of the other parity are rewritten only after the next barrier
#pragma unroll
    for (int r = 0; r < R; ++r) {
      float b_r = 0.0f;
#pragma unroll
      for (int q = 0; q < T / 32 / 4; ++q) {
        const float4 s = warp_sums[parity][r][q];
        b_r += (s.x + s.y) + (s.z + s.w);
      }
#pragma unroll
      for (int k = 0; k < E; ++k) c_share[k] += b_r * group[r][k];
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int k = 0; k < E; ++k) group[r][k] = next[r][k];
  }
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = threadIdx.x + static_cast<std::size_t>(k) * T;
    if (j < columns) partial[blockIdx.x * columns + j] = c_share[k];
  }
}

// --- N > 16384: every block holds a slice of every row ----------------------------------------------
// A group of R rows is 16 values per thread. The slices wait in shared memory, not registers, so that
// many groups can be in flight: asynchronous copies (cp.async) fill kStages stages while the block
// works on older ones.
constexpr int kWideLayoutThreads = 512;
constexpr int kWideValues = 16;  // E columns of each of R = 16 / E rows, per thread and group
constexpr int kWideMaxPerThread = 16;
constexpr int kStages = 6;  // 6 x 32 KB of shared memory per block
// A block posts its parts of B for group g + kAhead before it waits for group g's B: the waits of
// successive groups overlap instead of following one another. Of the kStages stages, kAhead + 1 hold
// posted groups, two are being filled.
constexpr int kAhead = kStages - 3;
constexpr std::size_t kWideSharedBytes = static_cast<std::size_t>(kStages) * kWideValues * kWideLayoutThreads * sizeof(float);

// Each block posts its part of B_i for every row i as one 64-bit word: the group's number + 1 in the
// high half, the float in the low half. A single aligned 64-bit store is seen whole or not at all, so
// a reader that finds the right number has the right value: no atomics, no fences, and every block
// adds the same parts in the same order, so every block gets the same B_i, bit for bit. A lane
// reads the parts of up to kPartsPerLane blocks.
constexpr int kPartsPerLane = 8;
constexpr int kWideMaxBlocks = 32 * kPartsPerLane;

// Scratch of the wide layout: parts[i * blocks + block], zeroed before each launch (number 0: not posted).
using PartWord = unsigned long long;

// Value (r, k) of this thread in a stage: only this thread writes and reads its own slots.
__device__ inline float* slot(float* stage, int r, int k, int E) {
  return stage + (static_cast<std::size_t>(r) * E + k) * kWideLayoutThreads + threadIdx.x;
}

// Starts the copies of this thread's columns of rows first_row .. first_row + R - 1 into a stage. The
// thread's columns t + k threads lie inside the matrix for k < held; its other slots stay zero.
template <int E, int R>
__device__ inline void copy_slices(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                   int held, float* stage) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;  // 32 bits: the plan keeps columns at most 2^21
  const unsigned threads = gridDim.x * blockDim.x;
  const bool whole_group = first_row + R <= rows;  // every group but perhaps the last
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const float* row = a + (first_row + r) * columns + t;
    if (whole_group || first_row + r < rows) {
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (k < held) __pipeline_memcpy_async(slot(stage, r, k, E), row + k * threads, sizeof(float));
    } else {
#pragma unroll
      for (int k = 0; k < E; ++k) *slot(stage, r, k, E) = 0.0f;  // a row past the end
    }
  }
  __pipeline_commit();
}

// The same copies, 16 bytes at a time, when every row starts on a 16-byte boundary (A aligned, N a
// multiple of 4). The stage's slice (r, k) is kWideLayoutThreads consecutive columns of row r; a
// quarter of the block copies it, so a thread copies 4 values of some other threads' columns: four
// copies per thread and group instead of sixteen. Whoever reads a stage must first pass a barrier.
// Pieces past the end of a row are never copied (zero since the start, like the slots above).
template <int E, int R>
__device__ inline void copy_slices_by_16(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                         float* stage) {
  constexpr int kPieces = kWideLayoutThreads / 4;  // of 16 bytes per slice
  constexpr int kPerThread = R * E * kPieces / kWideLayoutThreads;
  const unsigned threads = gridDim.x * kWideLayoutThreads;
#pragma unroll
  for (int n = 0; n < kPerThread; ++n) {
    const int piece = threadIdx.x + n * kWideLayoutThreads;
    const int slice = piece / kPieces, r = slice / E, k = slice % E, first = 4 * (piece % kPieces);
    const unsigned column = blockIdx.x * kWideLayoutThreads + k * threads + first;
    float* to = stage + static_cast<std::size_t>(slice) * kWideLayoutThreads + first;
    if (first_row + r >= rows)
      *reinterpret_cast<float4*>(to) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // a row past the end
    else if (column < columns)
      __pipeline_memcpy_async(to, a + (first_row + r) * columns + column, 4 * sizeof(float));
  }
  __pipeline_commit();
}

// One halving step of warp_sums_of_rows, on the first N of a lane's R values, then the next step:
// the lane keeps half of the N rows and sends the other half to its partner `16 N / R` lanes away,
// which keeps the opposite half. A template per step, so that every index is known at compile time
// and x stays in registers (a loop over the steps left x in local memory at R = 16).
template <int N, int R>
__device__ inline void keep_half_of_rows(float (&x)[R], int lane, int& row) {
  if constexpr (N > 1) {
    constexpr int offset = 16 * N / R;
    const bool upper = lane & offset;  // keeps rows N/2 .. N-1 of the current N
#pragma unroll
    for (int i = 0; i < N / 2; ++i) {
      const float send = upper ? x[i] : x[i + N / 2];
      const float keep = upper ? x[i + N / 2] : x[i];
      x[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
    }
    if (upper) row += N / 2;
    keep_half_of_rows<N / 2>(x, lane, row);
  }
}

// Sums each of a lane's R values over the warp, with R - 1 + 5 - log2(R) shuffles rather than 5 R:
// log2(R) halving steps, then the usual shuffles among the lanes that hold the same row. Afterwards
// x[0] holds the warp's sum of row lane / (32 / R) (for R = 4: lanes 0-7 row 0, lanes 8-15 row 1,
// ...); the function returns that row.
template <int R>
__device__ inline int warp_sums_of_rows(float (&x)[R]) {
  const int lane = threadIdx.x % 32;
  int row = 0;
  keep_half_of_rows<R>(x, lane, row);
#pragma unroll
  for (int offset = 16 / R; offset > 0; offset /= 2) x[0] += __shfl_xor_sync(0xffffffffu, x[0], offset);
  return row;
}

// This block's parts of B for group g (rows g R .. g R + R - 1), posted for the other blocks.
template <int E, int R>
__device__ inline void post_parts(float* stage, const float (&v_thread)[E], std::size_t g, std::size_t rows,
                                  PartWord* parts, float (*warp_sums)[32]) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float dot[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    dot[r] = 0.0f;
#pragma unroll
    for (int k = 0; k < E; ++k) dot[r] += *slot(stage, r, k, E) * v_thread[k];
  }
  const int r = warp_sums_of_rows(dot);  // this lane now holds the warp's sum of row r
  if (lane % (32 / R) == 0) warp_sums[r][warp] = dot[0];
  __syncthreads();
  const std::size_t i = g * R + threadIdx.x;
  if (threadIdx.x < R && i < rows) {
    float part = 0.0f;
    for (int w = 0; w < kWideLayoutThreads / 32; ++w) part += warp_sums[threadIdx.x][w];
    const PartWord word = (static_cast<PartWord>(g + 1) << 32) | __float_as_uint(part);
    cuda::atomic_ref<PartWord, cuda::thread_scope_device>(parts[i * gridDim.x + blockIdx.x]).store(word, cuda::memory_order_relaxed);
  }
}

// Warp w < R of the block asks for the parts of row g R + w: the loads are issued now, and the words
// are looked at one group later, by which time they have usually arrived.
template <int R>
__device__ inline void ask_parts(PartWord* parts, std::size_t g, std::size_t rows, PartWord (&word)[kPartsPerLane]) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t i = g * R + warp;
  if (warp >= R || i >= rows) return;
#pragma unroll
  for (int q = 0; q < kPartsPerLane; ++q) {
    const unsigned block = lane + 32 * q;
    if (block < gridDim.x)
      word[q] = cuda::atomic_ref<PartWord, cuda::thread_scope_device>(parts[i * gridDim.x + block]).load(cuda::memory_order_relaxed);
  }
}

// B_i for the rows of group g, into b_group: warp w adds up row g R + w's parts once all are posted.
template <int R>
__device__ inline void gather_b(PartWord* parts, std::size_t g, std::size_t rows, PartWord (&word)[kPartsPerLane],
                                float* b_group) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (warp >= R) return;
  if (g * R + warp >= rows) {
    if (lane == 0) b_group[warp] = 0.0f;
    return;
  }
  const PartWord posted = static_cast<PartWord>(g + 1) << 32;
  const std::size_t i = g * R + warp;
  for (unsigned pause = 32;; pause = min(2 * pause, 1024u)) {
    bool all_posted = true;
#pragma unroll
    for (int q = 0; q < kPartsPerLane; ++q)
      if (lane + 32 * q < gridDim.x && (word[q] & ~0xffffffffull) != posted) all_posted = false;
    if (__all_sync(0xffffffffu, all_posted)) break;
    // Polls sparingly, and only for the parts still missing: the posters and the copies of A need the
    // same L2.
    __nanosleep(pause);
#pragma unroll
    for (int q = 0; q < kPartsPerLane; ++q) {
      const unsigned block = lane + 32 * q;
      if (block < gridDim.x && (word[q] & ~0xffffffffull) != posted)
        word[q] = cuda::atomic_ref<PartWord, cuda::thread_scope_device>(parts[i * gridDim.x + block]).load(cuda::memory_order_relaxed);
    }
  }
  float b = 0.0f;
#pragma unroll
  for (int q = 0; q < kPartsPerLane; ++q)
    if (lane + 32 * q < gridDim.x) b += __uint_as_float(static_cast<unsigned>(word[q]));
  b = matvec::warp_sum(b);
  if (lane == 0) b_group[warp] = b;
}

template <int E>
__global__ void __launch_bounds__(kWideLayoutThreads, 1)
    fused_wide_rows(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, PartWord* parts) {
  constexpr int R = kWideValues / E;
  extern __shared__ float stages[];  // kStages x R x E x kWideLayoutThreads
  __shared__ float warp_sums[R][32];
  __shared__ float b_group[2][R];  // by the group's parity: a group's B is written while the last is read
  const std::size_t t = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  auto stage = [&](std::size_t g) { return stages + (g % kStages) * kWideValues * kWideLayoutThreads; };
  float v_thread[E], c_thread[E] = {};
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = t + static_cast<std::size_t>(k) * threads;
    v_thread[k] = j < columns ? v[j] : 0.0f;
  }
  int columns_held = 0;  // how many of this thread's columns lie inside the matrix
  while (columns_held < E && t + static_cast<std::size_t>(columns_held) * threads < columns) ++columns_held;
  for (int g = 0; g < kStages; ++g)
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (k >= columns_held) *slot(stage(g), r, k, E) = 0.0f;  // never copied into: zero once
  const std::size_t groups = (rows + R - 1) / R;
  const bool by_16 = columns % 4 == 0 && reinterpret_cast<std::uintptr_t>(a) % 16 == 0;
  auto copy_group = [&](std::size_t g) {
    if (by_16)
      copy_slices_by_16<E, R>(a, g * R, rows, columns, stage(g));
    else
      copy_slices<E, R>(a, g * R, rows, columns, columns_held, stage(g));
  };
  for (int g = 0; g < kStages - 1; ++g) copy_group(g);
  __pipeline_wait_prior(kStages - 2 - kAhead);  // groups 0 .. kAhead have arrived
  __syncthreads();  // and the other threads' copies too
  for (std::size_t g = 0; g < kAhead && g < groups; ++g) {
    post_parts<E, R>(stage(g), v_thread, g, rows, parts, warp_sums);
    __syncthreads();  // warp_sums is read before it is written again
  }
  PartWord word[kPartsPerLane] = {};
  ask_parts<R>(parts, 0, rows, word);
  for (std::size_t g = 0; g < groups; ++g) {
    if (g > 0) {
      __pipeline_wait_prior(kStages - 2 - kAhead);  // this thread's copies of group g + kAhead have arrived
      __syncthreads();  // everyone's have, and everyone is done with group g - 1
    }
    copy_group(g + kStages - 1);  // into the stage of g - 1
    if (g + kAhead < groups) post_parts<E, R>(stage(g + kAhead), v_thread, g + kAhead, rows, parts, warp_sums);
    gather_b<R>(parts, g, rows, word, b_group[g % 2]);  // waits until every block has posted group g
    __syncthreads();
    ask_parts<R>(parts, g + 1, rows, word);  // in flight while this group is applied
    float* held = stage(g);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const float b_r = b_group[g % 2][r];
#pragma unroll
      for (int k = 0; k < E; ++k) c_thread[k] += b_r * *slot(held, r, k, E);
    }
  }
  __pipeline_wait_prior(0);  // no copy outlives the block
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = t + static_cast<std::size_t>(k) * threads;
    if (j < columns) c[j] = c_thread[k];  // each column has one owner: C directly, no partials
  }
}

// --- choosing a layout ------------------------------------------------------------------------------
enum class Layout { kWarpRows, kBlockRows, kWideRows, kTwoPasses };

// The smallest of 1, 2, 4, ... that, times `width` threads, covers `columns`.
int per_thread(std::size_t columns, std::size_t width) {
  int e = 1;
  while (static_cast<std::size_t>(e) * width < columns) e *= 2;
  return e;
}

Layout layout_of(std::size_t columns, const LaunchPlan& p) {
  if (columns <= kWarpLayoutColumns) return Layout::kWarpRows;
  if (columns <= kBlockLayoutColumns) return Layout::kBlockRows;
  if (p.parts > 0) return Layout::kTwoPasses;  // set by plan() when the wide layout cannot run
  return Layout::kWideRows;
}

template <int E>
const void* wide_kernel() {
  return reinterpret_cast<const void*>(fused_wide_rows<E>);
}

const void* wide_kernel_for(int e) {
  switch (e) {
    case 1: return wide_kernel<1>();
    case 2: return wide_kernel<2>();
    case 4: return wide_kernel<4>();
    case 8: return wide_kernel<8>();
    default: return wide_kernel<16>();
  }
}

std::size_t wide_scratch_bytes(std::size_t rows, int blocks) {
  return rows * static_cast<std::size_t>(blocks) * sizeof(PartWord);
}

LaunchPlan two_passes(std::size_t rows, std::size_t columns, const course::DeviceFacts& device) {
  LaunchPlan p;
  p.threads = 256;
  p.parts = matvec::parts_to_fill(rows, columns, p.threads, device);
  p.scratch_bytes = matvec::coalesced_scratch_bytes(rows, columns, p.parts);
  return p;
}

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  if (columns <= kWarpLayoutColumns) {
    p.threads = kWarpLayoutThreads;
    const void* kernel = nullptr;
    switch (per_thread(columns, 32)) {
      case 1: kernel = reinterpret_cast<const void*>(fused_warp_rows<1>); break;
      case 2: kernel = reinterpret_cast<const void*>(fused_warp_rows<2>); break;
      case 4: kernel = reinterpret_cast<const void*>(fused_warp_rows<4>); break;
      case 8: kernel = reinterpret_cast<const void*>(fused_warp_rows<8>); break;
      case 16: kernel = reinterpret_cast<const void*>(fused_warp_rows<16>); break;
      default: kernel = reinterpret_cast<const void*>(fused_warp_rows<32>); break;
    }
    p.blocks = requested.blocks > 0 ? requested.blocks : course::resident_blocks(kernel, p.threads, 0, device);
  } else if (columns <= kBlockLayoutColumns) {
    for (auto kernel : {fused_block_rows<4, 512>, fused_block_rows<8, 512>, fused_block_rows<16, 512>,
                        fused_block_rows<16, 1024>})
      course::require_shared_memory(reinterpret_cast<const void*>(kernel), columns * sizeof(float), device,
                                    "step 07 (v in shared memory)");
    p.threads = columns <= kHalfBlockColumns ? 512 : 1024;
    p.blocks = requested.blocks > 0 ? requested.blocks : device.multiprocessors * (1024 / p.threads);
  } else {
    // One block per SM (or --blocks), all resident at once.
    p.threads = kWideLayoutThreads;
    p.blocks = requested.blocks > 0 ? requested.blocks : device.multiprocessors;
    int e = per_thread(columns, static_cast<std::size_t>(p.blocks) * p.threads);
    if (!device.cooperative_launch || e > kWideMaxPerThread)
      return two_passes(rows, columns, device);
    course::require_shared_memory(wide_kernel_for(e), kWideSharedBytes, device, "step 07 (wide rows)");
    p.blocks = course::cooperative_grid_blocks(wide_kernel_for(e), p.threads, kWideSharedBytes, p.blocks, device);
    e = per_thread(columns, static_cast<std::size_t>(p.blocks) * p.threads);
    if (e > kWideMaxPerThread || p.blocks > kWideMaxBlocks)
      return two_passes(rows, columns, device);
    p.scratch_bytes = wide_scratch_bytes(rows, p.blocks);
    return p;
  }
  p.scratch_bytes = static_cast<std::size_t>(p.blocks) * columns * sizeof(float);  // one partial C per block
  return p;
}

template <int E>
void launch_warp_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns, int blocks,
                      cudaStream_t stream) {
  fused_warp_rows<E><<<blocks, kWarpLayoutThreads, 0, stream>>>(a, v, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
}

template <int E, int T>
void launch_block_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns,
                       int blocks, cudaStream_t stream) {
  fused_block_rows<E, T><<<blocks, T, columns * sizeof(float), stream>>>(a, v, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
}

template <int E>
void launch_wide_rows(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, int blocks,
                      PartWord* parts, cudaStream_t stream) {
  void* arguments[] = {&a, &v, &c, &rows, &columns, &parts};
  CUDA_CHECK(cudaLaunchCooperativeKernel(wide_kernel<E>(), dim3(blocks), dim3(kWideLayoutThreads), arguments,
                                         kWideSharedBytes, stream));
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  float* partial = static_cast<float*>(scratch);
  switch (layout_of(columns, p)) {
    case Layout::kTwoPasses:
      matvec::launch_coalesced_two_pass(a, v, c, rows, columns, p.threads, p.parts, scratch, stream);
      return;
    case Layout::kWarpRows:
      switch (per_thread(columns, 32)) {
        case 1: launch_warp_rows<1>(a, v, partial, rows, columns, p.blocks, stream); break;
        case 2: launch_warp_rows<2>(a, v, partial, rows, columns, p.blocks, stream); break;
        case 4: launch_warp_rows<4>(a, v, partial, rows, columns, p.blocks, stream); break;
        case 8: launch_warp_rows<8>(a, v, partial, rows, columns, p.blocks, stream); break;
        case 16: launch_warp_rows<16>(a, v, partial, rows, columns, p.blocks, stream); break;
        default: launch_warp_rows<32>(a, v, partial, rows, columns, p.blocks, stream); break;
      }
      break;
    case Layout::kBlockRows:
      if (p.threads == 1024) {
        launch_block_rows<16, 1024>(a, v, partial, rows, columns, p.blocks, stream);
        break;
      }
      switch (per_thread(columns, 512)) {  // 4, 8 or 16: more than 1024 columns
        case 4: launch_block_rows<4, 512>(a, v, partial, rows, columns, p.blocks, stream); break;
        case 8: launch_block_rows<8, 512>(a, v, partial, rows, columns, p.blocks, stream); break;
        default: launch_block_rows<16, 512>(a, v, partial, rows, columns, p.blocks, stream); break;
      }
      break;
    case Layout::kWideRows: {
      const int e = per_thread(columns, static_cast<std::size_t>(p.blocks) * kWideLayoutThreads);
      PartWord* parts = static_cast<PartWord*>(scratch);
      CUDA_CHECK(cudaMemsetAsync(parts, 0, wide_scratch_bytes(rows, p.blocks), stream));  // nothing posted yet
      switch (e) {
        case 1: launch_wide_rows<1>(a, v, c, rows, columns, p.blocks, parts, stream); break;
        case 2: launch_wide_rows<2>(a, v, c, rows, columns, p.blocks, parts, stream); break;
        case 4: launch_wide_rows<4>(a, v, c, rows, columns, p.blocks, parts, stream); break;
        case 8: launch_wide_rows<8>(a, v, c, rows, columns, p.blocks, parts, stream); break;
        default: launch_wide_rows<16>(a, v, c, rows, columns, p.blocks, parts, stream); break;
      }
      return;
    }
  }
  matvec::launch_sum_partials(partial, p.blocks, columns, c, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"07", "fused single pass, A read once", "gpu", nullptr, plan, run, 1};
