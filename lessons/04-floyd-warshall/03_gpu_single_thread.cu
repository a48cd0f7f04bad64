// Lesson 04, step 03: the same triple loop, on ONE GPU thread.
//
// What changed: nothing but where the loop runs. One thread of one block does all n^3 updates.
//
// Why it is here: to see that a GPU is not a fast CPU. A GPU core runs at a lower clock than a CPU
// core, has no out-of-order execution and waits hundreds of cycles for each memory access that misses
// the cache; all its speed comes from running tens of thousands of threads at once. One thread is
// slower than the CPU loop, so this step runs by default at n = 256 (512 times less work than n = 2048)
// and the table compares rates (operations per second), not times.
//
// Launch: 1 block of 1 thread; --threads and --blocks are ignored.
#include "floyd_warshall.h"
#include "floyd_warshall_device.cuh"

namespace {

using floyd_warshall::LaunchPlan;

__global__ void floyd_warshall_one_thread(std::int32_t* d, int n) {
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) d[i * n + j] = min(d[i * n + j], d[i * n + k] + d[k * n + j]);
}

LaunchPlan plan(std::size_t, const course::DeviceFacts&, const LaunchPlan&) {
  LaunchPlan p;
  p.threads = 1;
  p.blocks = 1;
  return p;
}

void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan&, void*, cudaStream_t stream) {
  floyd_warshall::copy_graph(graph, dist, n, stream);
  floyd_warshall_one_thread<<<1, 1, 0, stream>>>(dist, static_cast<int>(n));
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "03", "one GPU thread", "gpu", nullptr, plan, run, 256, 64};
