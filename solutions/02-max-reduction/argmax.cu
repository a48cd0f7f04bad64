// Exercise 02-A, solution: argmax with warp shuffles.
//
// Two launches. First, a persistent grid: every thread walks the array with a grid stride in 16-byte
// vectors (float4; the few elements before the first 16-byte boundary and after the last whole vector
// one at a time, split as lesson 02's split_for_float4 does), keeping its best (value, index) pair in registers. A thread meets its indices in
// increasing order, so a strict `>` already keeps the first occurrence. Each block then reduces its
// pairs with warp shuffles (both halves of the pair travel together) and writes one pair to scratch.
// Second, a single block reduces those pairs the same way and writes the answer. Ties go to the
// smaller index at every stage, so the result is the first occurrence however the work was split.
#include "argmax.h"

#include <cmath>
#include <cstdint>

#include "course/check.h"
#include "07_persistent_vector_loads.cuh"

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

// Keeps (x, i) if x beats the best so far; indices arrive in increasing order.
__device__ inline void consider(Best& best, float x, std::uint64_t i) {
  if (x > best.value) best = Best{x, i};
}

__global__ void __launch_bounds__(kThreads) block_argmaxima(const float* values, std::size_t n, Best* partial) {
  const std::size_t thread = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t threads = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const max_reduction::Float4Split split = max_reduction::split_for_float4(values, n);
  const std::size_t tail_start = split.tail_start;
  Best best{-INFINITY, ~0ull};
  if (thread < split.head) consider(best, values[thread], thread);
  for (std::size_t v = thread; v < split.vector_count; v += threads) {
    const float4 x = split.vectors[v];
    const std::uint64_t i = split.head + 4 * v;
    consider(best, x.x, i);
    consider(best, x.y, i + 1);
    consider(best, x.z, i + 2);
    consider(best, x.w, i + 3);
  }
  if (thread < n - tail_start) consider(best, values[tail_start + thread], tail_start + thread);
  best = block_argmax(best);
  if (threadIdx.x == 0) partial[blockIdx.x] = best;
}

__global__ void __launch_bounds__(kThreads) final_argmax(const Best* partial, int count, ArgMax* result) {
  Best best{-INFINITY, ~0ull};
  for (int i = threadIdx.x; i < count; i += blockDim.x) best = better(best, partial[i]);
  best = block_argmax(best);
  if (threadIdx.x == 0) *result = ArgMax{best.value, best.index};
}

// Enough blocks to fill the GPU (8 resident blocks of 256 threads per SM), never more than there are
// vectors to give them.
int grid_size(std::size_t n) {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t needed = (n / 4 + kThreads) / kThreads;
  return static_cast<int>(needed < std::size_t(8) * sms ? needed : std::size_t(8) * sms);
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
