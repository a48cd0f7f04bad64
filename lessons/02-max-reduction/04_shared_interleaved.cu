// Lesson 02, step 04: shared-memory tree, interleaved addressing.
//
// What changed: each block loads one element per thread into shared memory and reduces it there as a
// binary tree: in round s, thread t (when t is a multiple of 2s) keeps max(tile[t], tile[t + s]).
// After log2(block) rounds tile[0] holds the block's maximum, and only that one value goes to global
// memory with an atomic. n atomics become n / 256.
//
// Why it is faster: the atomics on one address were the bottleneck; now nearly all the work is in
// shared memory, which is on the SM and fast.
//
// What it costs: the test `t % (2 * s) == 0` keeps threads scattered across every warp, so in each
// round every warp still executes the branch while fewer and fewer of its threads do useful work
// (divergence), and the modulo itself is slow. Half the threads idle after the first round, and the
// block waits at a barrier every round. Step 05 keeps the active threads packed together instead.
//
// Launch: 256 threads per block (or --threads, rounded down to a power of two between 32 and 1024:
// the tree halves the block each round); blocks = ceil(n / threads), so --blocks is ignored.
#include "course/check.h"
#include "max_reduction.h"
#include "03_gpu_global_atomics.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

__global__ void block_max_interleaved(const float* values, std::size_t n, float* result) {
  extern __shared__ float tile[];
  const unsigned t = threadIdx.x;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + t;
  tile[t] = i < n ? values[i] : max_reduction::kLowest;  // the last block may run past n
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0) tile[t] = fmaxf(tile[t], tile[t + s]);
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
  block_max_interleaved<<<p.blocks, p.threads, p.threads * sizeof(float), stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "04", "shared-memory tree, interleaved addressing", "gpu", nullptr, plan, run};
