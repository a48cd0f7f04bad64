// Lesson 02, step 08: a single pass with grid synchronization (cooperative groups).
//
// What changed: no atomics and no separate start-up launch. Each block of the persistent grid writes
// its maximum to its own slot of a scratch array; then the whole grid waits at grid.sync(), the barrier
// of a cooperative launch; then block 0 reduces the slots and writes the answer (the kernel is in
// 08_grid_sync_single_pass.cuh, which step08_finishes_compared.cu times beside other ways to finish).
// One launch does it all: no launch to reset the result before it, and no atomics.
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
#include "course/launch.h"
#include "course/check.h"
#include "max_reduction.h"
#include "08_grid_sync_single_pass.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;
using max_reduction::grid_synchronized_max;

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
  max_reduction::launch_grid_synchronized_max(values, n, static_cast<float*>(scratch), result, p.blocks, p.threads,
                                              stream);
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "08", "single pass, grid synchronization", "gpu", nullptr, plan, run};
