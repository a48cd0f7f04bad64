// Lesson 04, step 05: one cooperative launch for all rounds. Step 06 launches the same way.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "course/launch.h"
#include "floyd_warshall.h"
#include "floyd_warshall_device.cuh"

namespace floyd_warshall {

// Steps 05 and 06 run all rounds in one cooperative launch of a kernel(int32_t* d, int n): the plan
// sizes the grid so that every block is resident at once (a GPU without cooperative launches skips
// the step), and the launch copies the graph and starts the kernel with cudaLaunchCooperativeKernel.
inline LaunchPlan cooperative_plan(const void* kernel, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.blocks = course::cooperative_grid_blocks(kernel, p.threads, 0, requested.blocks, device);
  return p;
}

inline void launch_all_rounds(const void* kernel, const std::int32_t* graph, std::int32_t* dist, std::size_t n,
                              const LaunchPlan& plan, cudaStream_t stream) {
  copy_graph(graph, dist, n, stream);
  int vertices = static_cast<int>(n);
  void* arguments[] = {&dist, &vertices};
  CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(plan.blocks), dim3(plan.threads), arguments, 0, stream));
}

}  // namespace floyd_warshall
