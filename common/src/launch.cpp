#include "course/launch.h"

#include <cuda_runtime_api.h>

#include <string>

#include "course/check.h"
#include "course/errors.h"

namespace course {

int whole_warps(int requested, int preferred) {
  const int threads = requested > 0 ? requested : preferred;
  return threads < 32 ? 32 : (threads > 1024 ? 1024 : threads / 32 * 32);
}

int resident_blocks(const void* kernel, int threads, std::size_t shared_bytes, const DeviceFacts& device) {
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return per_sm * device.multiprocessors;
}

int cooperative_grid_blocks(const void* kernel, int threads, std::size_t shared_bytes, int requested_blocks,
                            const DeviceFacts& device) {
  if (!device.cooperative_launch)
    throw NotSupportedError(device.name + " does not support cooperative launches, which blocks that wait for each other need");
  const int fits = resident_blocks(kernel, threads, shared_bytes, device);
  if (requested_blocks == 0) return fits;
  if (requested_blocks > fits)
    throw UsageError("--blocks " + std::to_string(requested_blocks) +
                     ": blocks that wait for each other must all be resident at once, and " + device.name + " holds at most " +
                     std::to_string(fits) + " blocks of " + std::to_string(threads) + " threads");
  return requested_blocks;
}

void require_shared_memory(const void* kernel, std::size_t bytes, const DeviceFacts& device, const char* what) {
  const std::size_t limit = device.shared_memory_per_block_optin > 0 ? device.shared_memory_per_block_optin
                                                                     : device.shared_memory_per_block;
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  if (bytes + attributes.sharedSizeBytes > limit)  // the kernel's static shared memory counts too
    throw NotSupportedError(std::string(what) + " needs " + std::to_string((bytes + attributes.sharedSizeBytes + 1023) / 1024) +
                            " KB of shared memory per block; " +
                            device.name + " gives a block at most " + std::to_string(limit / 1024) + " KB");
  if (bytes > device.shared_memory_per_block)
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

}  // namespace course
