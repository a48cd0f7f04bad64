// Lesson 02, step 03: naive GPU, one global atomic per element.
//
// What changed: one thread per element, and every thread folds its value into the single result with
// an atomic max in global memory. CUDA has no atomic max for floats; atomic_max_float, in
// 03_gpu_global_atomics.cuh because steps 04 to 07 use it too, builds one out of the integer atomics.
//
// Why it is (still) slow: the reads are perfectly coalesced, but all n atomics target one address, so
// they cannot spread over the memory system: the step runs at the rate one address takes atomics
// (the README's ladder gives it), far below what the reads alone allow. Every later step
// attacks this: combine values inside the block first, so only one value per block (or none) reaches
// global memory.
//
// This file is also the lesson's one full page of host code: once the course's step skeleton has read
// the options, its main makes the array, allocates device memory, copies the array over, launches
// (timed), copies the answer back and checks it. The later steps leave that to the lesson's driver
// (max_reduction.cpp, step_main.cpp), which does the same with owning buffers and a stream of its own.
//
// Launch: 256 threads per block (or --threads, rounded to whole warps); blocks = ceil(n / threads),
// so --blocks is ignored.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "03_gpu_global_atomics.cuh"
#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"
#include "course/timing.h"
#include "max_reduction.h"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

// Thread i reads element i and offers it to the one result.
__global__ void max_by_global_atomics(const float* values, std::size_t n, float* result) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) max_reduction::atomic_max_float(result, values[i]);
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan& requested) {
  return max_reduction::one_thread_per_element(n, course::whole_warps(requested.threads, 256));
}

// One run: the result starts at -infinity (a one-thread launch), then every element is offered to it.
void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void*, cudaStream_t stream) {
  max_reduction::start_at_lowest(result, stream);
  max_by_global_atomics<<<p.blocks, p.threads, 0, stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

// The step as the lesson's tests (and its later steps' tools) see it.
const max_reduction::Step max_reduction::kThisStep = {
    "03", "GPU, one global atomic per element", "gpu", nullptr, plan, run};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<max_reduction::Lesson>(argc, argv, max_reduction::kThisStep, [](max_reduction::Request& request) {
    const std::vector<float> values = max_reduction::load_input(request);  // --input, or seeded floats
    const std::size_t n = request.n = values.size(), bytes = n * sizeof(float);
    course::Measurement m = max_reduction::Lesson::describe(max_reduction::kThisStep, request);
    course::require_cuda_device();

    // Device memory for the array and the one result. Asking first turns an array that cannot fit
    // into one clear line (exit code 2) rather than a failed cudaMalloc.
    course::ensure_device_memory(bytes + sizeof(float), "the array and the result");
    float *d_values = nullptr, *d_result = nullptr;
    CUDA_CHECK(cudaMalloc(&d_values, bytes));
    CUDA_CHECK(cudaMalloc(&d_result, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_values, values.data(), bytes, cudaMemcpyHostToDevice));

    const LaunchPlan p = plan(n, course::query_device(), request.requested);

    // Warm-up runs, then --reps timed runs, each between two CUDA events; before each, the result is
    // set to 0xFFFFFFFF (a NaN), so a run that forgot to write it cannot pass. Everything goes into the
    // default stream, which also orders the runs after the copy above.
    cudaStream_t stream = nullptr;
    m.time = course::time_gpu([&](cudaStream_t s) { run(d_values, n, d_result, p, nullptr, s); },
                              request.common.timing, stream,
                              [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(d_result, 0xFF, sizeof(float), s)); });

    float got = 0;
    CUDA_CHECK(cudaMemcpy(&got, d_result, sizeof(float), cudaMemcpyDeviceToHost));  // waits for the last run
    CUDA_CHECK(cudaFree(d_values));
    CUDA_CHECK(cudaFree(d_result));
    // Check against the CPU's answer (exactly: a maximum involves no rounding), print, --output.
    return max_reduction::report_gpu(m, values, got, request,
                                     std::to_string(p.blocks) + " blocks x " + std::to_string(p.threads) + " threads");
  });
}
