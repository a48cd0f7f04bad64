// Lesson 04, step 05: one launch for all k, with grid synchronization.
//
// What changed: instead of n launches, one cooperative launch of a persistent grid (as many blocks as
// the GPU holds at once) loops over k itself. Blocks stride over the rows, threads along each row,
// and after each round the whole grid meets at grid.sync() before anyone starts round k + 1.
//
// What it should save: the n launches of step 04, 2048 at n = 2048; the rounds' work is the same. On
// the original study's GTX 960 that cut the time from 5.6 s to 3.2 s. On the H100 and the H200 it does not
// pay (the README's ladder): the H100's counters show its warps waiting above all at the grid barrier, with twice the
// instructions per element of step 04.
//
// Why it must be a cooperative launch: a barrier over all blocks only works if all blocks are running
// at the same time. A hand-made barrier (a global counter that each block increments and then spins
// on) deadlocks as soon as the grid has more blocks than fit on the GPU: the spinning blocks occupy
// the SMs, and the blocks they wait for can never be scheduled. cudaLaunchCooperativeKernel refuses
// such a grid instead of hanging, and plan() sizes the grid with the occupancy calculator so that it
// always fits (a --blocks that does not fit gets a one-line error).
//
// Launch: 256 threads per block (or --threads, whole warps); blocks = what fits at once (or --blocks).
#include <cooperative_groups.h>

#include "floyd_warshall.h"
#include "04_gpu_launch_per_k.cuh"
#include "05_grid_sync.cuh"

namespace {

using floyd_warshall::LaunchPlan;
namespace cg = cooperative_groups;

__global__ void all_rounds_grid_sync(std::int32_t* d, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int k = 0; k < n; ++k) {
    for (int i = blockIdx.x; i < n; i += gridDim.x)
      for (int j = threadIdx.x; j < n; j += blockDim.x)
        floyd_warshall::relax(&d[static_cast<std::size_t>(i) * n + j], d[static_cast<std::size_t>(i) * n + k],
                              d[static_cast<std::size_t>(k) * n + j]);
    grid.sync();  // round k is finished everywhere before round k + 1 reads it
  }
}

LaunchPlan plan(std::size_t, const course::DeviceFacts& device, const LaunchPlan& requested) {
  return floyd_warshall::cooperative_plan(reinterpret_cast<const void*>(all_rounds_grid_sync), device, requested);
}

void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void*,
         cudaStream_t stream) {
  floyd_warshall::launch_all_rounds(reinterpret_cast<const void*>(all_rounds_grid_sync), graph, dist, n, p, stream);
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "05", "one launch, grid synchronization", "gpu", nullptr, plan, run, floyd_warshall::kDefaultVertices, 2049};
