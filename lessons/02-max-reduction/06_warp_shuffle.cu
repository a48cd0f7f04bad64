// Lesson 02, step 06: warp shuffle.
//
// What changed: the shared-memory tree is gone. Within a warp, lanes exchange values register to
// register with __shfl_xor_sync: five exchanges leave the warp's maximum in every lane (warp_max). Only
// the warp leaders write to shared memory, once, and the first warp reduces those (block_max). Both
// helpers are in 06_warp_shuffle.cuh, since steps 07 and 08 reuse them.
//
// Why it is faster: a shuffle moves data without a shared-memory store, load and barrier per round;
// the block now meets at one barrier instead of log2(block). Any multiple of 32 threads works.
//
// What it still costs: one element per thread. Each thread issues a single 4-byte load and then
// spends far longer reducing than loading, and the ~160,000 blocks each pay launch and atomic costs.
// Step 07 gives every thread many elements.
//
// Launch: 256 threads per block (or --threads, rounded to whole warps); blocks = ceil(n / threads).
#include "max_reduction.h"
#include "03_gpu_global_atomics.cuh"
#include "06_warp_shuffle.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

__global__ void block_max_shuffle(const float* values, std::size_t n, float* result) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const float best = max_reduction::block_max(i < n ? values[i] : max_reduction::kLowest);
  if (threadIdx.x == 0) max_reduction::atomic_max_float(result, best);
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan& requested) {
  return max_reduction::one_thread_per_element(
      n, course::whole_warps(requested.threads, 256));
}

void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void*, cudaStream_t stream) {
  max_reduction::start_at_lowest(result, stream);
  block_max_shuffle<<<p.blocks, p.threads, 0, stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {"06", "warp shuffle", "gpu", nullptr, plan, run};
