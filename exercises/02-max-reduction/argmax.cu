// Exercise 02-A: argmax with warp shuffles. YOUR CODE GOES HERE.
//
// Find the largest value of values[0..n) and the FIRST index where it occurs (see argmax.h).
// Build on lesson 02, steps 06-07: a persistent grid whose threads stride through the array, warp
// shuffles inside each block, one result per block in `scratch`, and a second small launch that
// combines those. What is new is that a value travels with its index, and ties must go to the
// smaller index at every stage, so the answer does not depend on how the work was split.
//
// Grade your work:   ./course grade 02 argmax
// The tests try n = 1, 2, 31, 33, 1000, 999983 and 40,960,000, repeated maxima, maxima at either
// end, negative and all-equal values, arrays that do not start on a 16-byte boundary. TODOs 1-4 must
// be done for them to pass; TODO 5 is for speed.
//
// Traps:
//   - A pair crosses a shuffle as two shuffles, value and index (the index is 64 bits; the 64-bit
//     overload of __shfl_xor_sync moves it whole). Both use the full mask 0xffffffff, so every lane of
//     the warp must reach them: no early `return` for threads with nothing to read; give them the
//     identity Best{-INFINITY, ~0ull} instead.
//   - Ties go to the smaller index at every stage (a thread's own loop, the warp, the block, the
//     final launch), or the answer depends on how the work was split.
//   - In a block's last round warp 0 reads one pair per warp; lanes past the number of warps must
//     read the identity, not whatever shared memory holds.
//   - grid_size() is called twice, for the scratch size and for the launch: it must answer the same.
//   - float4 loads are not required; if you add them, the tests shift the array off a 16-byte
//     boundary, so read the head and tail one float at a time (lesson 02's split_for_float4).
// Target: your time within 1.2x of the solution's on your GPU (on an H100 the solution takes 0.062 ms
// at n=40960000); `./course grade` prints the ratio and says whether you met it (advisory: the grade
// does not depend on it).
#include "argmax.h"

#include <cmath>

#include "course/check.h"

namespace exercise02 {
namespace {

constexpr int kThreads = 256;

struct Best {
  float value;
  std::uint64_t index;
};

// Returns whichever of a and b is larger, or on equal values the one with the smaller index.
[[maybe_unused]] __device__ inline Best better(Best a, Best b) {
  // TODO 1: compare a and b as described above.
  return a;
}

// Returns the best pair of the whole warp (in every lane).
[[maybe_unused]] __device__ inline Best warp_argmax(Best best) {
  // TODO 2: five rounds of __shfl_xor_sync (offsets 16, 8, 4, 2, 1), exchanging both value and
  // index, keeping better(best, other) each round.
  return best;
}

// Each block writes its best pair to partial[blockIdx.x].
__global__ void __launch_bounds__(kThreads) block_argmaxima(const float* values, std::size_t n, Best* partial) {
  // TODO 3: grid-stride loop over values keeping this thread's best pair, starting from
  // Best{-INFINITY, ~0ull}; then warp_argmax; lane 0 of each warp writes to a __shared__ array;
  // __syncthreads(); warp 0 reduces those; thread 0 writes partial[blockIdx.x].
}

// One block combines the `count` partial pairs and writes the answer.
__global__ void __launch_bounds__(kThreads) final_argmax(const Best* partial, int count, ArgMax* result) {
  // TODO 4: as in block_argmaxima, but over partial[0..count); thread 0 writes *result.
}

int grid_size(std::size_t n) {
  // TODO 5 (optional): choose blocks from the SM count (cudaDeviceGetAttribute with
  // cudaDevAttrMultiProcessorCount); more than (n + kThreads - 1) / kThreads is wasted.
  (void)n;
  return 1;
}

}  // namespace

std::size_t argmax_scratch_bytes(std::size_t n) { return grid_size(n) * sizeof(Best); }

void argmax(const float* values, std::size_t n, ArgMax* result, void* scratch, cudaStream_t stream) {
  const int blocks = grid_size(n);
  Best* partial = static_cast<Best*>(scratch);
  block_argmaxima<<<blocks, kThreads, 0, stream>>>(values, n, partial);
  CUDA_CHECK_LAUNCH();
  final_argmax<<<1, kThreads, 0, stream>>>(partial, blocks, result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise02
