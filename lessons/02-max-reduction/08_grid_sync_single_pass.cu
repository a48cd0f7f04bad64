// Lesson 02, step 08: a single pass with grid synchronization (cooperative groups).
//
// What changed: no atomics and no separate start-up launch. Each block of the persistent grid writes
// its maximum to its own slot of a scratch array; then the whole grid waits at grid.sync(), the barrier
// of a cooperative launch; then block 0 reduces the slots and writes the answer. One launch does it
// all, and the answer never depends on the order in which atomics land.
//
// Why a grid barrier needs a cooperative launch: a barrier over all blocks only returns if every block
// is running at the same time. In an ordinary launch the GPU may hold some blocks back until others
// finish, and blocks spinning at a home-made barrier would wait forever for blocks that never start.
// cudaLaunchCooperativeKernel refuses, instead of hanging, a grid that cannot be resident all at once;
// plan() checks the same limit first (with the occupancy calculator) so a bad --blocks gets a clear
// message.
//
// What it costs: the cooperative launch and the grid-wide barrier take a few microseconds; block 0
// does the final reduction alone, while the rest of the GPU idles.
//
// Launch: as step 07 (512 threads, SMs x resident blocks); --blocks may not exceed what fits at once.
#include <cooperative_groups.h>

#include "course/launch.h"
#include "course/check.h"
#include "max_reduction.h"
#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;
namespace cg = cooperative_groups;

__global__ void grid_synchronized_max(const float* values, std::size_t n, float* block_maxima, float* result) {
  const float best = max_reduction::block_max(max_reduction::thread_max_vectorized(values, n));
  if (threadIdx.x == 0) block_maxima[blockIdx.x] = best;
  cg::this_grid().sync();  // every block's maximum is now in block_maxima
  if (blockIdx.x != 0) return;
  float partial = max_reduction::kLowest;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) partial = fmaxf(partial, block_maxima[b]);
  const float total = max_reduction::block_max(partial);
  if (threadIdx.x == 0) *result = total;
}

LaunchPlan plan(std::size_t, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 512);
  p.blocks = course::cooperative_grid_blocks(reinterpret_cast<const void*>(grid_synchronized_max), p.threads, 0,
                                             requested.blocks, device);
  p.scratch_bytes = p.blocks * sizeof(float);
  return p;
}

void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  float* block_maxima = static_cast<float*>(scratch);
  void* arguments[] = {&values, &n, &block_maxima, &result};
  CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(grid_synchronized_max), dim3(p.blocks),
                                         dim3(p.threads), arguments, 0, stream));
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "08", "single pass, grid synchronization", "gpu", nullptr, plan, run};
