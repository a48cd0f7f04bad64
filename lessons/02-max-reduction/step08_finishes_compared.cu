// Lesson 02, step 08 beside the other ways to finish. Once every block of the persistent grid has its
// maximum, the blocks' maxima must become one answer. Five ways, each reading the array exactly as
// step 07 does (thread_max_vectorized, then block_max), so only the finish differs:
//
//   1. atomics (step 07): each block offers its maximum to the result with atomic_max_float; the
//      result must be set to -infinity first, by a launch of its own.
//   2. a grid barrier (step 08): each block writes its maximum to a slot; one cooperative launch waits
//      at grid.sync(), then block 0 reduces the slots.
//   3. the last block: each block writes its slot, makes it visible to the whole GPU
//      (__threadfence), then counts itself done with an atomic; the block that counts last knows every
//      slot is written and reduces them. One ordinary launch, no barrier, so no limit on the grid.
//   4. a second launch: the blocks write their slots and end; a launch of one block reduces them.
//   5. cub::DeviceReduce::Max (step 09). For an array larger than one block's tile, CUB's dispatch
//      (cub/device/dispatch/dispatch_reduce.cuh) runs way 4: DeviceReduceKernel over a grid of blocks,
//      each reducing an even share into temporary storage, then DeviceReduceSingleTileKernel, one
//      block. The lesson's counters show those two kernels.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "03_gpu_global_atomics.cuh"
#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "08_grid_sync_single_pass.cuh"
#include "compare_variants.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::block_max;
using max_reduction::kLowest;
using max_reduction::thread_max_vectorized;

constexpr int kThreads = 512;

// 1. Atomics.
__global__ void finish_by_atomics(const float* values, std::size_t n, float* result) {
  const float best = block_max(thread_max_vectorized(values, n));
  if (threadIdx.x == 0) max_reduction::atomic_max_float(result, best);
}

// 3. The last block. blocks_done starts at 0 and is set back to 0 by the last block, ready for the
// next launch.
__global__ void finish_in_last_block(const float* values, std::size_t n, float* block_maxima,
                                     unsigned* blocks_done, float* result) {
  const float best = block_max(thread_max_vectorized(values, n));
  __shared__ bool is_last;
  if (threadIdx.x == 0) {
    block_maxima[blockIdx.x] = best;
    __threadfence();  // the slot is visible to every block before the count says it is written
    is_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last) return;
  float partial = kLowest;
  // __ldcg reads from L2, where the other blocks' slots are, never from this SM's L1.
  for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) partial = fmaxf(partial, __ldcg(block_maxima + b));
  const float total = block_max(partial);
  if (threadIdx.x == 0) {
    *result = total;
    *blocks_done = 0;
  }
}

// 4. A second launch: first every block's slot, then one block over the slots.
__global__ void block_maxima_only(const float* values, std::size_t n, float* block_maxima) {
  const float best = block_max(thread_max_vectorized(values, n));
  if (threadIdx.x == 0) block_maxima[blockIdx.x] = best;
}

__global__ void max_of_slots(const float* block_maxima, int count, float* result) {
  float partial = kLowest;
  for (int b = threadIdx.x; b < count; b += blockDim.x) partial = fmaxf(partial, block_maxima[b]);
  const float total = block_max(partial);
  if (threadIdx.x == 0) *result = total;
}

int resident(const void* kernel, const course::DeviceFacts& device) {
  return course::resident_blocks(kernel, kThreads, 0, device);
}

// The device memory the variants share: a slot per block, the last block's counter, CUB's storage.
struct Scratch {
  course::DeviceBuffer<float> slots;
  course::DeviceBuffer<unsigned> blocks_done;
  course::DeviceBuffer<unsigned char> cub_storage;
  Scratch(std::size_t slot_count, std::size_t cub_bytes)
      : slots(slot_count, "block maxima"), blocks_done(1, "block counter"), cub_storage(cub_bytes, "CUB storage") {
    CUDA_CHECK(cudaMemset(blocks_done.data(), 0, sizeof(unsigned)));
  }
};

std::vector<max_reduction::Variant> make_finishes(std::size_t n, const course::DeviceFacts& device) {
  const int atomics_blocks = resident(reinterpret_cast<const void*>(finish_by_atomics), device);
  const int barrier_blocks = course::cooperative_grid_blocks(
      reinterpret_cast<const void*>(max_reduction::grid_synchronized_max), kThreads, 0, 0, device);
  const int last_blocks = resident(reinterpret_cast<const void*>(finish_in_last_block), device);
  const int two_launch_blocks = resident(reinterpret_cast<const void*>(block_maxima_only), device);
  std::size_t cub_bytes = 0;
  CUDA_CHECK(cub::DeviceReduce::Max(nullptr, cub_bytes, static_cast<const float*>(nullptr),
                                    static_cast<float*>(nullptr), n));
  const int most = std::max(std::max(barrier_blocks, last_blocks), two_launch_blocks);
  auto scratch = std::make_shared<Scratch>(static_cast<std::size_t>(most), cub_bytes > 0 ? cub_bytes : 1);

  using max_reduction::Variant;
  return {
      Variant{"1. atomics, after a launch that resets the result (step 07)", atomics_blocks,
              [=](const float* values, std::size_t count, float* result, cudaStream_t s) {
                max_reduction::start_at_lowest(result, s);
                finish_by_atomics<<<atomics_blocks, kThreads, 0, s>>>(values, count, result);
                CUDA_CHECK_LAUNCH();
              }},
      Variant{"2. a grid barrier, one cooperative launch (step 08)", barrier_blocks,
              [=](const float* values, std::size_t count, float* result, cudaStream_t s) {
                max_reduction::launch_grid_synchronized_max(values, count, scratch->slots.data(), result,
                                                            barrier_blocks, kThreads, s);
              }},
      Variant{"3. the last block to finish reduces the slots", last_blocks,
              [=](const float* values, std::size_t count, float* result, cudaStream_t s) {
                finish_in_last_block<<<last_blocks, kThreads, 0, s>>>(values, count, scratch->slots.data(),
                                                                      scratch->blocks_done.data(), result);
                CUDA_CHECK_LAUNCH();
              }},
      Variant{"4. a second launch of one block reduces the slots", two_launch_blocks,
              [=](const float* values, std::size_t count, float* result, cudaStream_t s) {
                block_maxima_only<<<two_launch_blocks, kThreads, 0, s>>>(values, count, scratch->slots.data());
                CUDA_CHECK_LAUNCH();
                max_of_slots<<<1, kThreads, 0, s>>>(scratch->slots.data(), two_launch_blocks, result);
                CUDA_CHECK_LAUNCH();
              }},
      Variant{"5. cub::DeviceReduce::Max (step 09; its own grid)", 0,
              [=](const float* values, std::size_t count, float* result, cudaStream_t s) {
                std::size_t bytes = scratch->cub_storage.size();
                CUDA_CHECK(cub::DeviceReduce::Max(scratch->cub_storage.data(), bytes, values, result, count, s));
              }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  return max_reduction::compare_variants(argc, argv, "lesson02_step08_finishes_compared",
                                         "Five ways to combine the blocks' maxima, 512 threads per block",
                                         make_finishes);
}
