// Lesson 02, step 03: naive GPU, one global atomic per element.
//
// What changed: one thread per element, and every thread folds its value into the single result with
// an atomic max in global memory (atomic_max_float, in 03_gpu_global_atomics.cuh because steps 04 to 07 use it too, builds a float max
// out of the integer atomics CUDA provides).
//
// Why it is (still) slow: the reads are perfectly coalesced, but all n atomics target one address, so
// the L2 cache must apply them one after another. The step runs at the rate of a single serialised
// atomic unit, far below memory bandwidth. Every later step attacks this: combine values inside the
// block first, so only one value per block (or none) reaches global memory.
//
// Launch: 256 threads per block (or --threads, rounded to whole warps); blocks = ceil(n / threads),
// so --blocks is ignored.
#include "max_reduction.h"
#include "03_gpu_global_atomics.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

__global__ void max_by_global_atomics(const float* values, std::size_t n, float* result) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) max_reduction::atomic_max_float(result, values[i]);
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan& requested) {
  return max_reduction::one_thread_per_element(
      n, course::whole_warps(requested.threads, 256));
}

void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void*, cudaStream_t stream) {
  max_reduction::start_at_lowest(result, stream);
  max_by_global_atomics<<<p.blocks, p.threads, 0, stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "03", "GPU, one global atomic per element", "gpu", nullptr, plan, run};
