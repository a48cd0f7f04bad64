// Lesson 04, step 07: the blocked algorithm's padding, its plan, its rounds and its phases 1 and 2, which
// steps 08 to 14 reuse with larger tiles (step 08 with these phases 1 and 2, step 09 on with phases of
// their own). Step 07's phase 3 is in its file.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"
#include "floyd_warshall.h"
#include "floyd_warshall_device.cuh"

namespace floyd_warshall {

// The blocked steps work on tiles, so they copy the graph into a matrix padded to a multiple of the
// tile. The padding vertices have no edges (kNoEdge everywhere, their diagonal included), so no path
// runs through them and they change nothing. With n already a multiple of the tile, they work in the
// output directly.
inline std::size_t padded_size(std::size_t n, std::size_t tile) { return (n + tile - 1) / tile * tile; }

// Every element of the padded matrix to kNoEdge, by a grid-stride loop, so that one fixed grid covers
// any size.
static __global__ void fill_no_edge(std::int32_t* d, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    d[i] = kNoEdge;
}

inline std::int32_t* start_padded(const std::int32_t* graph, std::int32_t* dist, std::size_t n, std::size_t padded,
                                  void* scratch, cudaStream_t stream) {
  if (padded == n) {
    copy_graph(graph, dist, n, stream);
    return dist;
  }
  std::int32_t* work = static_cast<std::int32_t*>(scratch);
  fill_no_edge<<<1024, 256, 0, stream>>>(work, padded * padded);
  CUDA_CHECK_LAUNCH();
  const std::size_t row = sizeof(std::int32_t);
  CUDA_CHECK(cudaMemcpy2DAsync(work, padded * row, graph, n * row, n * row, n, cudaMemcpyDeviceToDevice, stream));
  return work;
}

inline void finish_padded(const std::int32_t* work, std::int32_t* dist, std::size_t n, std::size_t padded,
                          cudaStream_t stream) {
  if (work == dist) return;
  const std::size_t row = sizeof(std::int32_t);
  CUDA_CHECK(cudaMemcpy2DAsync(dist, n * row, work, padded * row, n * row, n, cudaMemcpyDeviceToDevice, stream));
}

// The plan of a blocked step: n padded to its tile, a padded working matrix when needed.
inline LaunchPlan blocked_plan(std::size_t n, std::size_t tile, int threads) {
  LaunchPlan p;
  p.threads = threads;
  p.padded = padded_size(n, tile);
  p.blocks = static_cast<int>((p.padded / tile) * (p.padded / tile));
  p.scratch_bytes = p.padded == n ? 0 : p.padded * p.padded * sizeof(std::int32_t);
  return p;
}

// Phases 1 and 2 as a textbook writes them: a block of 32 x 32 threads closes a TILE x TILE tile that
// waits in shared memory, thread (y, x) owning the elements at rows y + 32a and columns x + 32b (one
// element in step 07's tiles of 32, 4 or 16 in step 08's of 64 or 128). For each k it reads d[i][k] and
// d[k][j] there. Two barriers per k: one before anyone writes step k's results, so that no thread
// still reading step k sees a new value, and one after, before step k + 1 reads them.
template <int TILE>
__device__ inline void close_plain(std::int32_t (*tile)[TILE], const std::int32_t (*column_source)[TILE],
                                   const std::int32_t (*row_source)[TILE]) {
  constexpr int R = TILE / 32;
  const int y = threadIdx.y, x = threadIdx.x;
  for (int k = 0; k < TILE; ++k) {
    std::int32_t best[R][R];
#pragma unroll
    for (int a = 0; a < R; ++a)
#pragma unroll
      for (int b = 0; b < R; ++b)
        best[a][b] = min(tile[y + 32 * a][x + 32 * b], column_source[y + 32 * a][k] + row_source[k][x + 32 * b]);
    __syncthreads();
#pragma unroll
    for (int a = 0; a < R; ++a)
#pragma unroll
      for (int b = 0; b < R; ++b) tile[y + 32 * a][x + 32 * b] = best[a][b];
    __syncthreads();
  }
}

// Copies this thread's elements of the TILE x TILE block of d at (row0, column0) into `tile`
// (to_shared) or back.
template <int TILE>
__device__ inline void move_plain_tile(std::int32_t* d, int n, std::size_t row0, std::size_t column0,
                                       std::int32_t (*tile)[TILE], bool to_shared) {
  const int y = threadIdx.y, x = threadIdx.x;
#pragma unroll
  for (int a = 0; a < TILE / 32; ++a)
#pragma unroll
    for (int b = 0; b < TILE / 32; ++b) {
      std::int32_t& element = d[(row0 + y + 32 * a) * n + column0 + x + 32 * b];
      if (to_shared)
        tile[y + 32 * a][x + 32 * b] = element;
      else
        element = tile[y + 32 * a][x + 32 * b];
    }
}

// Phase 1: the diagonal tile (kb, kb) supplies both d[i][k] and d[k][j]. Shared memory: TILE x TILE ints.
template <int TILE>
__global__ void plain_phase1(std::int32_t* d, int n, int kb) {
  extern __shared__ std::int32_t plain_tiles[];
  auto tile = reinterpret_cast<std::int32_t (*)[TILE]>(plain_tiles);
  const std::size_t base = static_cast<std::size_t>(kb) * TILE;
  move_plain_tile<TILE>(d, n, base, base, tile, true);
  __syncthreads();
  close_plain<TILE>(tile, tile, tile);
  move_plain_tile<TILE>(d, n, base, base, tile, false);
}

// Phase 2: a tile of row kb (blockIdx.y == 0) takes d[i][k] from the diagonal tile and d[k][j]
// from itself; a tile of column kb (blockIdx.y == 1) the other way round. Shared memory: two tiles.
template <int TILE>
__global__ void plain_phase2(std::int32_t* d, int n, int kb) {
  if (static_cast<int>(blockIdx.x) == kb) return;  // the diagonal tile: phase 1 closed it
  extern __shared__ std::int32_t plain_tiles[];
  auto diagonal = reinterpret_cast<std::int32_t (*)[TILE]>(plain_tiles);
  auto tile = reinterpret_cast<std::int32_t (*)[TILE]>(plain_tiles + TILE * TILE);
  const bool in_row = blockIdx.y == 0;
  const std::size_t base = static_cast<std::size_t>(kb) * TILE, other = static_cast<std::size_t>(blockIdx.x) * TILE;
  const std::size_t row0 = in_row ? base : other, column0 = in_row ? other : base;
  move_plain_tile<TILE>(d, n, base, base, diagonal, true);
  move_plain_tile<TILE>(d, n, row0, column0, tile, true);
  __syncthreads();
  if (in_row)
    close_plain<TILE>(tile, diagonal, tile);
  else
    close_plain<TILE>(tile, tile, diagonal);
  move_plain_tile<TILE>(d, n, row0, column0, tile, false);
}

// Phases 1 and 2 as steps 07 and 08 launch them: allow<TILE>(device) lets the kernels have their
// shared memory (two tiles of 128 need more than the default 48 KB; a GPU that cannot give a block
// that much skips the step), launch<TILE>(d, padded, kb, stream) runs round kb's phases 1 and 2.
struct PlainPhases {
  template <int TILE>
  static void allow(const course::DeviceFacts& device) {
    course::require_shared_memory(reinterpret_cast<const void*>(plain_phase1<TILE>), TILE * TILE * sizeof(std::int32_t),
                                  device, "phase 1 of the blocked steps");
    course::require_shared_memory(reinterpret_cast<const void*>(plain_phase2<TILE>),
                                  2 * TILE * TILE * sizeof(std::int32_t), device, "phase 2 of the blocked steps");
  }
  template <int TILE>
  static void launch(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
    plain_phase1<TILE><<<1, dim3(32, 32), TILE * TILE * sizeof(std::int32_t), stream>>>(d, padded, kb);
    CUDA_CHECK_LAUNCH();
    plain_phase2<TILE><<<dim3(padded / TILE, 2), dim3(32, 32), 2 * TILE * TILE * sizeof(std::int32_t), stream>>>(
        d, padded, kb);
    CUDA_CHECK_LAUNCH();
  }
};

// The rounds of a blocked step: Phases::launch<TILE>(work, padded, kb, stream) for phases 1 and 2
// (PlainPhases above, or step 09's RegisterPhases), then the step's own phase 3, launched by
// `phase3(work, padded, kb, tiles, stream)`.
template <int TILE, class Phases, class Phase3>
void run_rounds(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& plan, void* scratch,
                cudaStream_t stream, Phase3 phase3) {
  std::int32_t* work = start_padded(graph, dist, n, plan.padded, scratch, stream);
  const int padded = static_cast<int>(plan.padded), tiles = padded / TILE;
  for (int kb = 0; kb < tiles; ++kb) {
    Phases::template launch<TILE>(work, padded, kb, stream);
    phase3(work, padded, kb, tiles, stream);
    CUDA_CHECK_LAUNCH();
  }
  finish_padded(work, dist, n, plan.padded, stream);
}

}  // namespace floyd_warshall
