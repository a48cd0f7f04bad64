// Lesson 02, step 05: shared-memory tree, sequential addressing.
//
// What changed: only the loop of step 04. Round s now pairs thread t with t + s for t < s, starting
// with s = half the block: the active threads are always the first s, packed together.
//
// Why it is faster: whole warps either all work or all skip the round, so no warp runs a branch for a
// handful of active lanes (no divergence), and `t < s` replaces the slow modulo. Bank conflicts are
// not part of the gain: step 04's tree, which reads tile[t] and tile[t + s], takes no more passes per
// shared-memory load than this one (the README's counters). Consecutive threads here read consecutive
// words, one per bank; it is the other common form of step 04's tree, indexed tile[2*s*t], whose
// lanes would collide in a bank more each round.
//
// What it still costs: the last five rounds run inside a single warp yet pay a block-wide barrier
// each, and one thread per element means ~160,000 blocks, each paying start-up and one atomic.
//
// Launch: as step 04 (power-of-two blocks, 256 threads by default; --blocks ignored).
#include "course/check.h"
#include "max_reduction.h"
#include "03_gpu_global_atomics.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

__global__ void block_max_sequential(const float* values, std::size_t n, float* result) {
  extern __shared__ float tile[];
  const unsigned t = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + t;
  tile[t] = i < n ? values[i] : max_reduction::kLowest;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s) tile[t] = fmaxf(tile[t], tile[t + s]);
    __syncthreads();
  }
  if (t == 0) max_reduction::atomic_max_float(result, tile[0]);
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan& requested) {
  return max_reduction::one_thread_per_element(
      n, max_reduction::power_of_two_threads(requested.threads, 256));
}

void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void*, cudaStream_t stream) {
  max_reduction::start_at_lowest(result, stream);
  block_max_sequential<<<p.blocks, p.threads, p.threads * sizeof(float), stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "05", "shared-memory tree, sequential addressing", "gpu", nullptr, plan, run};
