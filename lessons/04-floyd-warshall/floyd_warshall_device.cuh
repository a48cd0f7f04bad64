// Lesson 04, Floyd-Warshall: device building blocks that several steps share. Each is introduced, and
// explained, by the step named beside it; later steps reuse it from here instead of copying it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "floyd_warshall.h"

namespace floyd_warshall {

// Step 03. Every GPU step starts from a copy of the graph: the distances are computed in place in
// the output, so the input stays untouched for the next run.
inline void copy_graph(const std::int32_t* graph, std::int32_t* dist, std::size_t n, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dist, graph, n * n * sizeof(std::int32_t), cudaMemcpyDeviceToDevice, stream));
}

// Step 03. The relaxation at the heart of every step: is the path i -> k -> j shorter than the best
// so far? Only an improvement is written. In round k neither row k nor column k can improve (the
// diagonal is 0, or kNoEdge for padding), so no thread ever writes what another thread reads in the
// same round, and elements that do not change cost no memory write.
__device__ inline void relax(std::int32_t* d_ij, std::int32_t d_ik, std::int32_t d_kj) {
  const std::int32_t through_k = d_ik + d_kj;  // both at most kNoEdge: no overflow
  if (through_k < *d_ij) *d_ij = through_k;
}

// Step 03. Threads per block: --threads rounded down to whole warps, 256 by default.
inline int whole_warps_or_default(const LaunchPlan& requested) {
  const int threads = requested.threads > 0 ? requested.threads : 256;
  return threads < 32 ? 32 : (threads > 1024 ? 1024 : threads / 32 * 32);
}

// Step 04. Steps 04 and 05 run all rounds in one cooperative launch of a kernel(int32_t* d, int n):
// the plan sizes the grid so that every block is resident at once, and the launch copies the graph
// and starts the kernel with cudaLaunchCooperativeKernel.
LaunchPlan cooperative_plan(const void* kernel, const course::DeviceFacts& device, const LaunchPlan& requested);
void launch_all_rounds(const void* kernel, const std::int32_t* graph, std::int32_t* dist, std::size_t n,
                       const LaunchPlan& plan, cudaStream_t stream);

// Step 06. The blocked steps work on tiles, so they copy the graph into a matrix padded to a multiple
// of the tile. The padding vertices have no edges (kNoEdge everywhere, their diagonal included), so
// no path runs through them and they change nothing. With n already a multiple of the tile, they work
// in the output directly.
std::size_t padded_size(std::size_t n, std::size_t tile);
std::int32_t* start_padded(const std::int32_t* graph, std::int32_t* dist, std::size_t n, std::size_t padded,
                           void* scratch, cudaStream_t stream);
void finish_padded(const std::int32_t* work, std::int32_t* dist, std::size_t n, std::size_t padded,
                   cudaStream_t stream);

// Step 06. Phases 1 and 2 close a block of the matrix over the TILE vertices of round kb, one k after
// another. A block of 32 x 32 threads does it; thread (y, x) owns ROWS x COLUMNS elements, at rows
// y + 32a and columns x + 32b, and keeps them in registers throughout. For each k a thread needs
// d[i][k] for its rows and d[k][j] for its columns. Where those lie in the block's own part of the
// matrix, their owners publish them in shared memory one step ahead, in two pairs of buffers used in
// turn (step k reads pair k % 2 while the owners of row and column k + 1 fill the other pair), so one
// barrier per k suffices and nobody writes what anybody is reading.
template <int ROWS, int COLUMNS>
struct Owned {
  std::int32_t value[ROWS][COLUMNS];

  __device__ static int row(int a) { return threadIdx.y + 32 * a; }
  __device__ static int column(int b) { return threadIdx.x + 32 * b; }

  // The owners of row k publish it into row_out[column], the owners of column k into column_out[row].
  __device__ void publish(int k, std::int32_t* row_out, std::int32_t* column_out) const {
    if (row_out != nullptr && static_cast<int>(threadIdx.y) == k % 32)
#pragma unroll
      for (int a = 0; a < ROWS; ++a)
        if (a == k / 32)
#pragma unroll
          for (int b = 0; b < COLUMNS; ++b) row_out[column(b)] = value[a][b];
    if (column_out != nullptr && static_cast<int>(threadIdx.x) == k % 32)
#pragma unroll
      for (int b = 0; b < COLUMNS; ++b)
        if (b == k / 32)
#pragma unroll
          for (int a = 0; a < ROWS; ++a) column_out[row(a)] = value[a][b];
  }

  __device__ void load(const std::int32_t* d, int n, std::size_t row0, std::size_t column0) {
#pragma unroll
    for (int a = 0; a < ROWS; ++a)
#pragma unroll
      for (int b = 0; b < COLUMNS; ++b) value[a][b] = d[(row0 + row(a)) * n + column0 + column(b)];
  }

  __device__ void store(std::int32_t* d, int n, std::size_t row0, std::size_t column0) const {
#pragma unroll
    for (int a = 0; a < ROWS; ++a)
#pragma unroll
      for (int b = 0; b < COLUMNS; ++b) d[(row0 + row(a)) * n + column0 + column(b)] = value[a][b];
  }
};

// Step 06. Phase 1 of round kb: the dependent tile on the diagonal, (kb, kb), closed over its own
// TILE vertices by one block. Shared memory: 4 x TILE ints (two pairs of row and column buffers).
template <int TILE>
__global__ void blocked_phase1(std::int32_t* d, int n, int kb) {
  extern __shared__ std::int32_t buffers[];
  std::int32_t* rows = buffers;              // [2][TILE]
  std::int32_t* columns = buffers + 2 * TILE;  // [2][TILE]
  Owned<TILE / 32, TILE / 32> mine;
  const std::size_t base = static_cast<std::size_t>(kb) * TILE;
  mine.load(d, n, base, base);
  mine.publish(0, rows, columns);
  __syncthreads();
  for (int k = 0; k < TILE; ++k) {
    const std::int32_t* row_k = rows + (k % 2) * TILE;
    const std::int32_t* column_k = columns + (k % 2) * TILE;
#pragma unroll
    for (int a = 0; a < TILE / 32; ++a)
#pragma unroll
      for (int b = 0; b < TILE / 32; ++b)
        mine.value[a][b] = __viaddmin_s32(column_k[mine.row(a)], row_k[mine.column(b)], mine.value[a][b]);
    if (k + 1 < TILE) mine.publish(k + 1, rows + ((k + 1) % 2) * TILE, columns + ((k + 1) % 2) * TILE);
    __syncthreads();
  }
  mine.store(d, n, base, base);
}

// Step 06. Phase 2 of round kb: the tiles in row kb (IN_ROW) or in column kb, closed over the kb
// vertices with the finished diagonal tile, which sits in shared memory. A tile in row kb updates
// d[i][j] from d[i][k] (diagonal tile) and d[k][j] (its own row k); one in column kb from d[i][k] (its
// own column k) and d[k][j] (diagonal tile). A row tile's columns are independent of each other, and a
// column tile's rows, so each block takes a 32-wide slice of a tile: a TILE x 32 slice of a row tile
// or a 32 x TILE slice of a column tile. Block blockIdx.x takes slice blockIdx.x % (TILE / 32) of tile
// blockIdx.x / (TILE / 32); the diagonal tile itself is skipped. Shared memory: TILE x TILE + 64 ints.
template <int TILE, bool IN_ROW>
__global__ void blocked_phase2(std::int32_t* d, int n, int kb) {
  constexpr int kSlices = TILE / 32;
  const int tile = blockIdx.x / kSlices, slice = blockIdx.x % kSlices;
  if (tile == kb) return;
  extern __shared__ std::int32_t shared[];
  std::int32_t* diagonal = shared;                  // [TILE][TILE]
  std::int32_t* exchange = shared + TILE * TILE;    // [2][32]: my slice's row k or column k
  const std::size_t base = static_cast<std::size_t>(kb) * TILE;
  const std::size_t row0 = IN_ROW ? base : static_cast<std::size_t>(tile) * TILE + 32 * slice;
  const std::size_t column0 = IN_ROW ? static_cast<std::size_t>(tile) * TILE + 32 * slice : base;
  Owned<IN_ROW ? kSlices : 1, IN_ROW ? 1 : kSlices> mine;
  for (int e = threadIdx.y * 32 + threadIdx.x; e < TILE * TILE; e += 32 * 32)
    diagonal[e] = d[(base + e / TILE) * n + base + e % TILE];
  mine.load(d, n, row0, column0);
  mine.publish(0, IN_ROW ? exchange : nullptr, IN_ROW ? nullptr : exchange);
  __syncthreads();
  for (int k = 0; k < TILE; ++k) {
    const std::int32_t* own_k = exchange + (k % 2) * 32;
#pragma unroll
    for (int a = 0; a < (IN_ROW ? kSlices : 1); ++a)
#pragma unroll
      for (int b = 0; b < (IN_ROW ? 1 : kSlices); ++b) {
        const int r = mine.row(a), c = mine.column(b);
        const std::int32_t d_ik = IN_ROW ? diagonal[r * TILE + k] : own_k[r];
        const std::int32_t d_kj = IN_ROW ? own_k[c] : diagonal[k * TILE + c];
        mine.value[a][b] = __viaddmin_s32(d_ik, d_kj, mine.value[a][b]);
      }
    std::int32_t* next = exchange + ((k + 1) % 2) * 32;
    if (k + 1 < TILE) mine.publish(k + 1, IN_ROW ? next : nullptr, IN_ROW ? nullptr : next);
    __syncthreads();
  }
  mine.store(d, n, row0, column0);
}

// Step 06. Launches phases 1 and 2 of round kb (phase 3 is each step's own).
template <int TILE>
void launch_phases_1_and_2(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
  const dim3 threads(32, 32);
  const int slices = padded / TILE * (TILE / 32);
  const std::size_t phase2_shared = (TILE * TILE + 64) * sizeof(std::int32_t);
  blocked_phase1<TILE><<<1, threads, 4 * TILE * sizeof(std::int32_t), stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
  blocked_phase2<TILE, true><<<slices, threads, phase2_shared, stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
  blocked_phase2<TILE, false><<<slices, threads, phase2_shared, stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

// Step 06. Phase 2 with tiles of 128 x 128 needs more than the default 48 KB of shared memory.
template <int TILE>
void allow_phase_shared_memory() {
  const int bytes = (TILE * TILE + 64) * static_cast<int>(sizeof(std::int32_t));
  CUDA_CHECK(cudaFuncSetAttribute(blocked_phase2<TILE, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CUDA_CHECK(cudaFuncSetAttribute(blocked_phase2<TILE, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

// Step 06. The plan of a blocked step: n padded to its tile, a padded working matrix when needed.
inline LaunchPlan blocked_plan(std::size_t n, std::size_t tile, int threads) {
  LaunchPlan p;
  p.threads = threads;
  p.padded = padded_size(n, tile);
  p.blocks = static_cast<int>((p.padded / tile) * (p.padded / tile));
  p.scratch_bytes = p.padded == n ? 0 : p.padded * p.padded * sizeof(std::int32_t);
  return p;
}

// Step 06. The rounds of a blocked step: phases 1 and 2 as above, then the step's own phase 3,
// launched by `phase3(work, padded, kb, tiles, stream)`.
template <int TILE, class Phase3>
void run_blocked(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& plan,
                 void* scratch, cudaStream_t stream, Phase3 phase3) {
  std::int32_t* work = start_padded(graph, dist, n, plan.padded, scratch, stream);
  const int padded = static_cast<int>(plan.padded), tiles = padded / TILE;
  for (int kb = 0; kb < tiles; ++kb) {
    launch_phases_1_and_2<TILE>(work, padded, kb, stream);
    phase3(work, padded, kb, tiles, stream);
    CUDA_CHECK_LAUNCH();
  }
  finish_padded(work, dist, n, plan.padded, stream);
}

}  // namespace floyd_warshall
