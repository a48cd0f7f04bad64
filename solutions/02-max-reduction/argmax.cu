// Exercise 02-A, solution: argmax with warp shuffles.
//
// Two launches. First, a persistent grid: every thread walks the array with a grid stride, keeping
// its best (value, index) pair in registers; because its indices only grow, a strict `>` already
// keeps the first occurrence. Each block then reduces its pairs with warp shuffles (both halves of the
// pair travel together) and writes one pair to scratch. Second, a single block reduces those pairs
// the same way and writes the answer. Ties are broken towards the smaller index at every stage, so
// the result is the first occurrence no matter how the work was split.
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

// a beats b if it is larger, or equal and earlier.
__device__ inline Best better(Best a, Best b) {
  return (a.value > b.value || (a.value == b.value && a.index < b.index)) ? a : b;
}

__device__ inline Best warp_argmax(Best best) {
  for (int offset = 16; offset > 0; offset /= 2) {
    Best other;
    other.value = __shfl_xor_sync(0xffffffffu, best.value, offset);
    other.index = __shfl_xor_sync(0xffffffffu, best.index, offset);
    best = better(best, other);
  }
  return best;
}

// The block's best pair, valid in thread 0.
__device__ inline Best block_argmax(Best best) {
  __shared__ Best warp_best[kThreads / 32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  best = warp_argmax(best);
  if (lane == 0) warp_best[warp] = best;
  __syncthreads();
  if (warp == 0) best = warp_argmax(lane < kThreads / 32 ? warp_best[lane] : Best{-INFINITY, ~0ull});
  return best;
}

__global__ void __launch_bounds__(kThreads) block_argmaxima(const float* values, std::size_t n, Best* partial) {
  Best best{-INFINITY, ~0ull};
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    if (values[i] > best.value) best = Best{values[i], i};
  best = block_argmax(best);
  if (threadIdx.x == 0) partial[blockIdx.x] = best;
}

__global__ void __launch_bounds__(kThreads) final_argmax(const Best* partial, int count, ArgMax* result) {
  Best best{-INFINITY, ~0ull};
  for (int i = threadIdx.x; i < count; i += blockDim.x) best = better(best, partial[i]);
  best = block_argmax(best);
  if (threadIdx.x == 0) *result = ArgMax{best.value, best.index};
}

// Enough blocks to fill the GPU (4 per SM), never more than there are elements to give them.
int grid_size(std::size_t n) {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t needed = (n + kThreads - 1) / kThreads;
  return static_cast<int>(needed < std::size_t(4) * sms ? needed : std::size_t(4) * sms);
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
