// Lesson 02, step 09: the library reference, cub::DeviceReduce::Max.
//
// CUB is the CUDA toolkit's library of tuned parallel primitives; its device-wide reduction is what a
// production code would call. It is here as the yardstick: the best hand-written step should match it.
// CUB works in two calls: the first, with a null buffer, only reports how much temporary storage it
// needs (done once, in plan()); the second does the reduction. For an array larger than one tile that
// is two launches (cub/device/dispatch/dispatch_reduce.cuh): a grid of blocks, each reducing its share
// with vector loads into registers and writing a partial, then one block over the partials.
//
// Launch: CUB chooses; --threads and --blocks are ignored.
#include <cub/device/device_reduce.cuh>

#include "course/check.h"
#include "max_reduction.h"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan&) {
  LaunchPlan p;
  CUDA_CHECK(cub::DeviceReduce::Max(nullptr, p.scratch_bytes, static_cast<const float*>(nullptr),
                                    static_cast<float*>(nullptr), n));
  if (p.scratch_bytes == 0) p.scratch_bytes = 1;  // a null buffer would mean "size query" again
  return p;
}

void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  std::size_t bytes = p.scratch_bytes;
  CUDA_CHECK(cub::DeviceReduce::Max(scratch, bytes, values, result, n, stream));
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "09", "cub::DeviceReduce::Max (library)", "library", nullptr, plan, run};
