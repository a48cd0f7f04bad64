// Lesson 04: the host side of the shared building blocks (see floyd_warshall_device.cuh): the
// cooperative launch of steps 04-05, and the padded working matrix of steps 06-07.
#include "floyd_warshall_device.cuh"

#include "course/launch.h"

namespace floyd_warshall {

namespace {
__global__ void fill_no_edge(std::int32_t* d, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    d[i] = kNoEdge;
}
}  // namespace

LaunchPlan cooperative_plan(const void* kernel, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.blocks = course::cooperative_grid_blocks(kernel, p.threads, 0, requested.blocks, device);
  return p;
}

void launch_all_rounds(const void* kernel, const std::int32_t* graph, std::int32_t* dist, std::size_t n,
                       const LaunchPlan& plan, cudaStream_t stream) {
  copy_graph(graph, dist, n, stream);
  int vertices = static_cast<int>(n);
  void* arguments[] = {&dist, &vertices};
  CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(plan.blocks), dim3(plan.threads), arguments, 0, stream));
}

std::size_t padded_size(std::size_t n, std::size_t tile) { return (n + tile - 1) / tile * tile; }

std::int32_t* start_padded(const std::int32_t* graph, std::int32_t* dist, std::size_t n, std::size_t padded,
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

void finish_padded(const std::int32_t* work, std::int32_t* dist, std::size_t n, std::size_t padded,
                   cudaStream_t stream) {
  if (work == dist) return;
  const std::size_t row = sizeof(std::int32_t);
  CUDA_CHECK(cudaMemcpy2DAsync(dist, n * row, work, padded * row, n * row, n, cudaMemcpyDeviceToDevice, stream));
}

}  // namespace floyd_warshall
