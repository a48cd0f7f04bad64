// Lesson 04, Floyd-Warshall: the plumbing the GPU steps share. The device code each step teaches is in
// that step's file, or in a header named after it when a later step reuses it (04_gpu_launch_per_k.cuh,
// 05_grid_sync.cuh, 07_blocked_shared_tiles.cuh, 08_blocked_register_tiles.cuh, 09_register_phases.cuh,
// 10_double_buffered_copies.cuh, 11_min_plus_panels.cuh, 12_look_ahead.cuh, 13_lean_main_loop.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "floyd_warshall.h"

namespace floyd_warshall {

// Every GPU step starts from a copy of the graph: the distances are computed in place in the output,
// so the input stays untouched for the next run.
inline void copy_graph(const std::int32_t* graph, std::int32_t* dist, std::size_t n, cudaStream_t stream) {
  CUDA_CHECK(cudaMemcpyAsync(dist, graph, n * n * sizeof(std::int32_t), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace floyd_warshall
