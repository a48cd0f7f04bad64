// Lesson 04, step 07: the blocked algorithm's padding, its plan and its rounds, which steps 08 to 11
// reuse with larger tiles and phases of their own. Step 07's own phases are in its file.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "course/launch.h"
#include "floyd_warshall.h"
#include "floyd_warshall_device.cuh"

namespace floyd_warshall {

// The blocked steps work on tiles, so they copy the graph into a matrix padded to a multiple of the
// tile. The padding vertices have no edges (kNoEdge everywhere, their diagonal included), so no path
// runs through them and they change nothing. With n already a multiple of the tile, they work in the
// output directly.
inline std::size_t padded_size(std::size_t n, std::size_t tile) { return (n + tile - 1) / tile * tile; }

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

// The rounds of a blocked step: `phases_1_and_2(work, padded, kb, tiles, stream)`, then the step's
// own phase 3, launched by `phase3(work, padded, kb, tiles, stream)`.
template <int TILE, class Phases12, class Phase3>
void run_rounds(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& plan, void* scratch,
                cudaStream_t stream, Phases12 phases_1_and_2, Phase3 phase3) {
  std::int32_t* work = start_padded(graph, dist, n, plan.padded, scratch, stream);
  const int padded = static_cast<int>(plan.padded), tiles = padded / TILE;
  for (int kb = 0; kb < tiles; ++kb) {
    phases_1_and_2(work, padded, kb, tiles, stream);
    phase3(work, padded, kb, tiles, stream);
    CUDA_CHECK_LAUNCH();
  }
  finish_padded(work, dist, n, plan.padded, stream);
}

}  // namespace floyd_warshall
