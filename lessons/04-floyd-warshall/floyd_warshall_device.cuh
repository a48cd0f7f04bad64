// Lesson 04, Floyd-Warshall: device building blocks that several steps share. Each is introduced, and
// explained, by the step named beside it; later steps reuse it from here instead of copying it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "course/launch.h"
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

// Step 06. Phases 1 and 2 close a tile over the TILE vertices of block kb, one k after another. A
// block of 32 x 32 threads does it; thread (y, x) owns the (TILE / 32)^2 elements at rows y + 32a
// and columns x + 32b, and keeps them in registers throughout. For each k a thread needs d[i][k] for
// its rows and d[k][j] for its columns: column k and row k of the tile, which other threads own.
// Their owners publish them in shared memory, one step ahead, in two pairs of buffers used in turn
// (step k reads pair k % 2 while the owners of row and column k + 1 fill pair (k + 1) % 2), so one
// barrier per k suffices and nobody writes what anybody is reading.
template <int TILE>
struct TileCloser {
  static constexpr int R = TILE / 32;
  std::int32_t* row_buffer;     // [2][TILE]: row k of the tile, for the step that reads it
  std::int32_t* column_buffer;  // [2][TILE]: column k of the tile
  std::int32_t mine[R][R];

  __device__ int row(int a) const { return threadIdx.y + 32 * a; }
  __device__ int column(int b) const { return threadIdx.x + 32 * b; }

  // This thread's elements of the TILE x TILE block of d whose top-left corner is (row0, column0).
  __device__ void load(const std::int32_t* d, int n, std::size_t row0, std::size_t column0) {
#pragma unroll
    for (int a = 0; a < R; ++a)
#pragma unroll
      for (int b = 0; b < R; ++b) mine[a][b] = d[(row0 + row(a)) * n + column0 + column(b)];
  }
  __device__ void store(std::int32_t* d, int n, std::size_t row0, std::size_t column0) const {
#pragma unroll
    for (int a = 0; a < R; ++a)
#pragma unroll
      for (int b = 0; b < R; ++b) d[(row0 + row(a)) * n + column0 + column(b)] = mine[a][b];
  }

  // Owners of row k and column k publish them for step k.
  __device__ void publish(int k) {
    std::int32_t* next_row = row_buffer + (k % 2) * TILE;
    std::int32_t* next_column = column_buffer + (k % 2) * TILE;
#pragma unroll
    for (int a = 0; a < R; ++a)
#pragma unroll
      for (int b = 0; b < R; ++b) {
        if (row(a) == k) next_row[column(b)] = mine[a][b];
        if (column(b) == k) next_column[row(a)] = mine[a][b];
      }
  }
};

// Step 06. Phase 1 of round kb: the dependent tile on the diagonal, (kb, kb), closed over its own
// TILE vertices by one block. Shared memory: 4 x TILE ints.
template <int TILE>
__global__ void blocked_phase1(std::int32_t* d, int n, int kb) {
  extern __shared__ std::int32_t buffers[];
  TileCloser<TILE> t{buffers, buffers + 2 * TILE, {}};
  const std::size_t base = static_cast<std::size_t>(kb) * TILE;
  t.load(d, n, base, base);
  t.publish(0);
  __syncthreads();
  for (int k = 0; k < TILE; ++k) {
    const std::int32_t* row_k = t.row_buffer + (k % 2) * TILE;
    const std::int32_t* column_k = t.column_buffer + (k % 2) * TILE;
#pragma unroll
    for (int a = 0; a < t.R; ++a)
#pragma unroll
      for (int b = 0; b < t.R; ++b)
        t.mine[a][b] = __viaddmin_s32(column_k[t.row(a)], row_k[t.column(b)], t.mine[a][b]);
    if (k + 1 < TILE) t.publish(k + 1);
    __syncthreads();
  }
  t.store(d, n, base, base);
}

// Step 06. Phase 2 of round kb: the tiles in row kb (blockIdx.y == 0) and in column kb
// (blockIdx.y == 1), each closed over the kb vertices with the finished diagonal tile, which sits in
// shared memory. A tile in row kb needs d[i][k] from the diagonal tile and d[k][j] from itself; a tile
// in column kb the other way round. Block blockIdx.x works on tile blockIdx.x of the row or column
// (the diagonal tile itself is skipped). Shared memory: TILE x TILE + 4 x TILE ints.
template <int TILE>
__global__ void blocked_phase2(std::int32_t* d, int n, int kb) {
  if (static_cast<int>(blockIdx.x) == kb) return;
  extern __shared__ std::int32_t shared[];
  std::int32_t* diagonal = shared;
  TileCloser<TILE> t{shared + TILE * TILE, shared + TILE * TILE + 2 * TILE, {}};
  const bool in_row = blockIdx.y == 0;
  const std::size_t base = static_cast<std::size_t>(kb) * TILE, other = static_cast<std::size_t>(blockIdx.x) * TILE;
  const std::size_t row0 = in_row ? base : other, column0 = in_row ? other : base;
#pragma unroll
  for (int a = 0; a < t.R; ++a)
#pragma unroll
    for (int b = 0; b < t.R; ++b)
      diagonal[t.row(a) * TILE + t.column(b)] = d[(base + t.row(a)) * n + base + t.column(b)];
  t.load(d, n, row0, column0);
  t.publish(0);
  __syncthreads();
  for (int k = 0; k < TILE; ++k) {
    const std::int32_t* row_k = t.row_buffer + (k % 2) * TILE;
    const std::int32_t* column_k = t.column_buffer + (k % 2) * TILE;
#pragma unroll
    for (int a = 0; a < t.R; ++a)
#pragma unroll
      for (int b = 0; b < t.R; ++b) {
        const std::int32_t d_ik = in_row ? diagonal[t.row(a) * TILE + k] : column_k[t.row(a)];
        const std::int32_t d_kj = in_row ? row_k[t.column(b)] : diagonal[k * TILE + t.column(b)];
        t.mine[a][b] = __viaddmin_s32(d_ik, d_kj, t.mine[a][b]);
      }
    if (k + 1 < TILE) t.publish(k + 1);
    __syncthreads();
  }
  t.store(d, n, row0, column0);
}

// Step 06. Launches phases 1 and 2 of round kb (phase 3 is each step's own).
template <int TILE>
void launch_phases_1_and_2(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
  const dim3 threads(32, 32);
  blocked_phase1<TILE><<<1, threads, 4 * TILE * sizeof(std::int32_t), stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
  blocked_phase2<TILE><<<dim3(padded / TILE, 2), threads, (TILE + 4) * TILE * sizeof(std::int32_t), stream>>>(
      d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

// Step 06. Phase 2 with tiles of 128 x 128 needs more than the default 48 KB of shared memory; a GPU
// that cannot give a block that much skips the step.
template <int TILE>
void allow_phase_shared_memory(const course::DeviceFacts& device) {
  course::require_shared_memory(reinterpret_cast<const void*>(blocked_phase2<TILE>),
                                (TILE + 4) * TILE * sizeof(std::int32_t), device, "phase 2 of the blocked steps");
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
