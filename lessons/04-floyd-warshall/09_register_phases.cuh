// Lesson 04, step 09: phases 1 and 2 with the tile in registers, for the rounds of steps 09 and 10
// (steps 11 to 14 keep phase 1; the story is in 09_register_phases.cu). Steps 07 and 08 close their
// tiles as a textbook does, the tile in shared memory and two barriers per k
// (07_blocked_shared_tiles.cuh); here every thread keeps its elements of the tile in registers, as
// step 08's micro-tiles do in phase 3, and two tools of other rungs meet them: a warp shuffle (lesson
// 02's step 06) and two buffers used in turn (the idea of step 10's two stages).
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
// (step 12 runs the two side by side, on two streams).
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
  if (static_cast<int>(blockIdx.x) == kb) return;  // the diagonal tile: phase 1 closed it
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

// Phases 1 and 2 as steps 09 and 10 launch them, in place of step 07's PlainPhases
// (07_blocked_shared_tiles.cuh): allow<TILE>(device) lets phase 2 have its shared memory (tiles of 128
// need more than the default 48 KB; a GPU that cannot give a block that much skips the step),
// launch<TILE>(d, padded, kb, stream) runs round kb's phases 1 and 2.
struct RegisterPhases {
  template <int TILE>
  static void allow(const course::DeviceFacts& device) {
    course::require_shared_memory(reinterpret_cast<const void*>(blocked_phase2<TILE>),
                                  (TILE + 2) * TILE * sizeof(std::int32_t), device, "phase 2 of the blocked steps");
  }
  template <int TILE>
  static void launch(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
    launch_phase1<TILE>(d, padded, kb, stream);
    blocked_phase2<TILE><<<dim3(padded / TILE, 2), dim3(32, 32), (TILE + 2) * TILE * sizeof(std::int32_t), stream>>>(
        d, padded, kb);
    CUDA_CHECK_LAUNCH();
  }
};

}  // namespace floyd_warshall
