// Lesson 04, step 08: phases 1 and 2 with the tile in registers, for the rounds of steps 08 to 11
// (steps 10 and 11 keep phase 1). Step 07 closes its tiles as a textbook does, an element per thread
// in shared memory and two barriers per k; here every thread keeps its elements of the tile in
// registers, as step 08's micro-tiles do in phase 3, and two tools of other rungs meet them: a warp
// shuffle (lesson 02's step 06) and two buffers used in turn (step 09's two stages). Step 07's
// --register-phases runs these at its rounds of 32, to measure what they buy (the README's table
// "step 07's phases 1 and 2, plain and in registers").
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "07_blocked_shared_tiles.cuh"
#include "course/check.h"
#include "course/device.h"
#include "floyd_warshall.h"

namespace floyd_warshall {

// Phases 1 and 2 close a tile over the TILE vertices of block kb, one k after another. A block of
// 32 x 32 threads does it; thread (y, x) owns the (TILE / 32)^2 elements at rows y + 32a and columns
// x + 32b and keeps them in registers throughout. Warp y is the 32 threads with that y, so a warp
// owns whole rows of the tile. For each k a thread needs d[i][k] for its rows and d[k][j] for its
// columns:
//   - d[i][k] (column k) sits in the thread's own warp: lane k % 32 holds it, in register b = k / 32.
//     A warp shuffle (__shfl_sync) hands it over, no shared memory and no barrier;
//   - d[k][j] (row k) belongs to another warp, warp k % 32. That warp writes its row to shared
//     memory, and one barrier per k makes it visible. Two buffers used in turn (step k uses buffer
//     k % 2) mean the writers of row k + 1 never overwrite what a slow warp still reads for step k.
// Worked example, TILE = 128 (4 x 4 elements a thread), k = 70 = 2 * 32 + 6: thread (y = 5, x = 9)
// owns rows 5, 37, 69, 101 and columns 9, 41, 73, 105. d[5][70] is in lane 6 of its own warp,
// register b = 2 (column 6 + 64 = 70); d[70][9] belongs to warp 6, register a = 2 (row 6 + 64 = 70),
// and reaches the thread through shared memory.
// Row k and column k do not change during step k (d[k][k] = 0), so reading them while updating is safe.
template <int TILE>
struct TileCloser {
  static constexpr int R = TILE / 32;
  std::int32_t* row_buffer;  // [2][TILE]: row k of the tile, for step k
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

  // Row k = 32 * ka + lane of the tile, from the warp that owns it into shared memory, then the
  // barrier. Returns the buffer that now holds it. (Callers unroll their loop over ka, so mine[ka]
  // is a fixed register.)
  __device__ const std::int32_t* share_row(int ka, int lane) {
    std::int32_t* buffer = row_buffer + (lane % 2) * TILE;
    if (static_cast<int>(threadIdx.y) == lane)
#pragma unroll
      for (int b = 0; b < R; ++b) buffer[column(b)] = mine[ka][b];
    __syncthreads();
    return buffer;
  }
  // d[i][k] for this thread's row a and k = 32 * ka + lane: lane `lane` of this warp holds it.
  __device__ std::int32_t column_value(int a, int ka, int lane) const {
    return __shfl_sync(0xffffffffu, mine[a][ka], lane);
  }
};

// Phase 1 of round kb: the dependent tile on the diagonal, (kb, kb), closed over its own
// TILE vertices by one block. Shared memory: 2 x TILE ints. __launch_bounds__ holds it to 32
// registers a thread, so that its 1024 threads fit on an SM beside one block of step 08's phase 3
// (step 11 runs the two side by side, on two streams).
template <int TILE>
__global__ void __launch_bounds__(1024, 2) blocked_phase1(std::int32_t* d, int n, int kb) {
  extern __shared__ std::int32_t buffers[];
  TileCloser<TILE> t{buffers, {}};
  const std::size_t base = static_cast<std::size_t>(kb) * TILE;
  t.load(d, n, base, base);
#pragma unroll
  for (int ka = 0; ka < t.R; ++ka)
    for (int lane = 0; lane < 32; ++lane) {  // k = 32 * ka + lane
      const std::int32_t* row_k = t.share_row(ka, lane);
#pragma unroll
      for (int a = 0; a < t.R; ++a) {
        const std::int32_t d_ik = t.column_value(a, ka, lane);
#pragma unroll
        for (int b = 0; b < t.R; ++b) t.mine[a][b] = __viaddmin_s32(d_ik, row_k[t.column(b)], t.mine[a][b]);
      }
    }
  t.store(d, n, base, base);
}

// Phase 2 of round kb: the tiles in row kb (blockIdx.y == 0) and in column kb
// (blockIdx.y == 1), each closed over the kb vertices with the finished diagonal tile, which sits in
// shared memory. A tile in row kb needs d[i][k] from the diagonal tile and d[k][j] from itself (its
// row k, shared by the warp that owns it); a tile in column kb needs d[i][k] from itself (its column
// k, by shuffle) and d[k][j] from the diagonal tile. Block blockIdx.x works on tile blockIdx.x of
// the row or column (the diagonal tile itself is skipped). Shared memory: TILE x TILE + 2 x TILE ints.
template <int TILE>
__global__ void blocked_phase2(std::int32_t* d, int n, int kb) {
  if (static_cast<int>(blockIdx.x) == kb) return;
  extern __shared__ std::int32_t shared[];
  std::int32_t* diagonal = shared;
  TileCloser<TILE> t{shared + TILE * TILE, {}};
  const bool in_row = blockIdx.y == 0;
  const std::size_t base = static_cast<std::size_t>(kb) * TILE, other = static_cast<std::size_t>(blockIdx.x) * TILE;
  const std::size_t row0 = in_row ? base : other, column0 = in_row ? other : base;
#pragma unroll
  for (int a = 0; a < t.R; ++a)
#pragma unroll
    for (int b = 0; b < t.R; ++b)
      diagonal[t.row(a) * TILE + t.column(b)] = d[(base + t.row(a)) * n + base + t.column(b)];
  t.load(d, n, row0, column0);
#pragma unroll
  for (int ka = 0; ka < t.R; ++ka)
    for (int lane = 0; lane < 32; ++lane) {  // k = 32 * ka + lane
      const int k = 32 * ka + lane;
      // The barrier inside share_row also covers the diagonal's loading, the first time round.
      const std::int32_t* row_k = t.share_row(ka, lane);
#pragma unroll
      for (int a = 0; a < t.R; ++a) {
        const std::int32_t d_ik = in_row ? diagonal[t.row(a) * TILE + k] : t.column_value(a, ka, lane);
#pragma unroll
        for (int b = 0; b < t.R; ++b) {
          const std::int32_t d_kj = in_row ? row_k[t.column(b)] : diagonal[k * TILE + t.column(b)];
          t.mine[a][b] = __viaddmin_s32(d_ik, d_kj, t.mine[a][b]);
        }
      }
    }
  t.store(d, n, row0, column0);
}

// Launches phase 1 of round kb: one block.
template <int TILE>
void launch_phase1(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
  blocked_phase1<TILE><<<1, dim3(32, 32), 2 * TILE * sizeof(std::int32_t), stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

// Launches phases 1 and 2 of round kb (phase 3 is each step's own).
template <int TILE>
void launch_phases_1_and_2(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
  launch_phase1<TILE>(d, padded, kb, stream);
  blocked_phase2<TILE><<<dim3(padded / TILE, 2), dim3(32, 32), (TILE + 2) * TILE * sizeof(std::int32_t), stream>>>(
      d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

// Phase 2 with tiles of 128 x 128 needs more than the default 48 KB of shared memory; a GPU
// that cannot give a block that much skips the step.
template <int TILE>
void allow_phase_shared_memory(const course::DeviceFacts& device) {
  course::require_shared_memory(reinterpret_cast<const void*>(blocked_phase2<TILE>),
                                (TILE + 2) * TILE * sizeof(std::int32_t), device, "phase 2 of the blocked steps");
}

// The rounds (07_blocked_shared_tiles.cuh) with phases 1 and 2 as above.
template <int TILE, class Phase3>
void run_blocked(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& plan,
                 void* scratch, cudaStream_t stream, Phase3 phase3) {
  run_rounds<TILE>(graph, dist, n, plan, scratch, stream,
                   [](std::int32_t* work, int padded, int kb, int, cudaStream_t s) {
                     launch_phases_1_and_2<TILE>(work, padded, kb, s);
                   },
                   phase3);
}

}  // namespace floyd_warshall
