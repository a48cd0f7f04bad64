// Exercise 03-B: one sum per segment, written compactly. YOUR CODE GOES HERE.
//
// sums[s] = the sum of segment s. The host code below is done: the library's scan of the flags gives
// each element i its segment's number, ids[i] - 1 (ids[i] counts the heads up to and including i), and
// clear_sums gives every segment's sum a zero to start from. What is left is add_segments, which adds
// every value to its segment's sum:
//   - the first version that works: atomicAdd(&sums[ids[i] - 1], values[i]) for every element. Grade
//     it; then see its time beside the solution's (`./course grade` prints both). Every element of a
//     segment adds to the same address;
//   - the better one: let each block scan its 256 pairs (flag, value) with lesson 03's segmented block
//     scan, segscan::block_exclusive_scan (06_warp_shuffle.cuh), so that the last element of each
//     piece of a segment inside the block holds the piece's sum, and only those elements add to sums.
//     An element ends a piece when it is the block's last, the array's last, or the next element is
//     a head.
// Sums of floats added in an order the atomics choose are checked within lesson 03's tolerance.
//
// Grade your work:   ./course grade 03 segment_sums
// The tests try 1, 2, 31, 33, 1000, 999983 and 60,000,000 elements, several seeds, random segments, one
// giant segment, segments of length 1, long and short mixed, and heads on block boundaries.
//
// Traps:
//   - ids[i] counts heads up to and including i: the segment's number is ids[i] - 1.
//   - A segment may start in one block and end in another: each block adds only its pieces' sums, so
//     atomics are still needed where pieces of one segment meet.
//   - The last element of the array ends a piece even when no head follows it.
// Target: your time within 1.2x of the solution's on your GPU (on an H100 the solution takes 0.64 ms at
// n=60000000); `./course grade` prints the ratio and says whether you met it (advisory: the grade does
// not depend on it).
#include "segment_sums.h"

#include <cub/device/device_scan.cuh>

#include <cstdint>

#include "06_warp_shuffle.cuh"
#include "operators.h"
#include "course/check.h"

namespace exercise03 {
namespace {

constexpr int kThreads = 256;

// Each head gives its segment's sum a zero to start from.
__global__ void clear_sums(const std::uint8_t* flags, const unsigned* ids, std::size_t n, float* sums) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n && flags[i]) sums[ids[i] - 1] = 0.0f;
}

// Adds every element's value to its segment's sum.
__global__ void add_segments(const float* values, const std::uint8_t* flags, const unsigned* ids, std::size_t n,
                             float* sums) {
  // TODO: see the top of the file. Element i is blockIdx.x * blockDim.x + threadIdx.x; elements past n
  // add nothing (but with the block scan, every thread must still take part in it).
}

std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

std::size_t library_scratch_bytes(std::size_t n) {
  std::size_t bytes = 0;
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, static_cast<const std::uint8_t*>(nullptr),
                                           static_cast<unsigned*>(nullptr), static_cast<std::uint32_t>(n)));
  return bytes;
}

}  // namespace

std::size_t segment_sums_scratch_bytes(std::size_t n) {
  return aligned(n * sizeof(unsigned)) + library_scratch_bytes(n);
}

void segment_sums(const float* values, const std::uint8_t* flags, std::size_t n, float* sums, void* scratch,
                  cudaStream_t stream) {
  auto* ids = static_cast<unsigned*>(scratch);  // ids[i]: heads up to and including i
  void* library_scratch = static_cast<unsigned char*>(scratch) + aligned(n * sizeof(unsigned));
  std::size_t library_bytes = library_scratch_bytes(n);
  CUDA_CHECK(cub::DeviceScan::InclusiveSum(library_scratch, library_bytes, flags, ids, static_cast<std::uint32_t>(n),
                                           stream));
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  clear_sums<<<blocks, kThreads, 0, stream>>>(flags, ids, n, sums);
  CUDA_CHECK_LAUNCH();
  add_segments<<<blocks, kThreads, 0, stream>>>(values, flags, ids, n, sums);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise03
