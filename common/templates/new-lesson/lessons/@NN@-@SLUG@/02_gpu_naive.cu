// Lesson @NN@, step 02: naive GPU, one thread per element.
//
// What changed: the loop of step 01 becomes a grid of threads, thread i computing y[i]. Neighbouring
// threads read and write neighbouring floats, so every warp's loads and stores are coalesced: the step
// is bound by memory bandwidth, and the table sets its rate against the device-to-device copy.
//
// Launch: 256 threads per block (or --threads, rounded to whole warps); blocks to cover n.
#include <cuda_runtime.h>

#include "@FILE@.h"
#include "course/check.h"
#include "course/launch.h"

namespace {

using @FILE@::LaunchPlan;

__global__ void one_thread_per_element(const float* x, float* y, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = 2.0f * x[i] + 1.0f;
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.blocks = static_cast<int>((n + p.threads - 1) / p.threads);
  return p;
}

void run(const float* x, float* y, std::size_t n, const LaunchPlan& p, cudaStream_t stream) {
  one_thread_per_element<<<p.blocks, p.threads, 0, stream>>>(x, y, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const @FILE@::Step @FILE@::kThisStep = {"02", "naive GPU, one thread per element", "gpu", nullptr, plan, run};
