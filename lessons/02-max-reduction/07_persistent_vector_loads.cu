// Lesson 02, step 07: register caching with vector loads, in a persistent grid.
//
// What changed: the grid no longer has one thread per element. It has just enough blocks to fill
// every SM once (a "persistent" grid: SMs x resident blocks per SM), and each thread strides through
// the array keeping its running maximum in a register. The loads are 16 bytes wide (float4), and each
// loop turn issues four of them before using any (thread_max_vectorized, in
// 07_persistent_vector_loads.cuh, which step 08 includes too). Blocks then reduce with warp shuffles
// (step 06) and add one atomic each.
//
// Why it is faster: the reduction is memory-bound, so what matters is keeping enough bytes in flight
// to cover memory latency. The grid's blocks (528 on an H100 or an H200: 132 SMs x 4 blocks of 512 threads) pay
// block and atomic costs once each instead of 160,000 times (step 06); a float4 load is one
// instruction for four elements; and four independent 16-byte loads per thread, across every resident
// thread, put several megabytes in flight. It reads the array near the read bandwidth (the README's
// ladder). step07_ideas_apart.cu times these ideas one at a time (the README's table of step 07's
// ideas): the persistent grid buys the most, the float4 loads next, the loads in flight a
// little (nothing on the H100), and the streaming loads nothing that the runs can tell apart.
//
// What it costs: a second tiny launch to set the result to -infinity before the atomics, and more code
// for the unaligned head and the tail (n need not be a multiple of 4).
//
// Launch: 512 threads per block (or --threads, rounded to whole warps); blocks = SMs x the blocks of
// that size an SM holds at once (or --blocks). The launch-configuration sweep varies both.
#include "course/launch.h"
#include "max_reduction.h"
#include "03_gpu_global_atomics.cuh"
#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::LaunchPlan;

__global__ void persistent_max(const float* values, std::size_t n, float* result) {
  const float best = max_reduction::block_max(max_reduction::thread_max_vectorized(values, n));
  if (threadIdx.x == 0) max_reduction::atomic_max_float(result, best);
}

LaunchPlan plan(std::size_t, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 512);
  p.blocks = requested.blocks > 0
                 ? requested.blocks
                 : course::resident_blocks(reinterpret_cast<const void*>(persistent_max), p.threads, 0, device);
  return p;
}

void run(const float* values, std::size_t n, float* result, const LaunchPlan& p, void*, cudaStream_t stream) {
  max_reduction::start_at_lowest(result, stream);
  persistent_max<<<p.blocks, p.threads, 0, stream>>>(values, n, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "07", "register caching, vector loads, persistent grid", "gpu", nullptr, plan, run};
