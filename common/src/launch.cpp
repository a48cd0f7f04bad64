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
  if (!device.cooperative_launch) throw UsageError(device.name + " does not support cooperative launches");
  const int fits = resident_blocks(kernel, threads, shared_bytes, device);
  if (requested_blocks == 0) return fits;
  if (requested_blocks > fits)
    throw UsageError("--blocks " + std::to_string(requested_blocks) +
                     ": a grid barrier needs every block resident at once, and " + device.name + " holds at most " +
                     std::to_string(fits) + " blocks of " + std::to_string(threads) + " threads");
  return requested_blocks;
}

}  // namespace course
