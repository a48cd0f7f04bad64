// Lesson 01, step 12: step 11's kernels after one short norm pass over A and B together (the story is
// in 12_norms_in_one_launch.cu).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "11_tf32_warpgroup_tma.cuh"
#include "course/check.h"
#include "course/device.h"

namespace norms_in_one_launch {

constexpr int kLoadsInFlight = 4;  // independent loads each lane issues before it adds any of them
constexpr int kThreads = 256;

// norms[r] = |row r|^2 for the m rows of A followed by the k rows of B: one warp per row. A lane reads
// kLoadsInFlight groups of 4 elements (16-byte loads where kVector: n a multiple of 4, rows aligned), all
// issued before the first is added, into as many partial sums; the warp adds its lanes' sums at the end.
template <bool kVector>
__global__ void __launch_bounds__(kThreads)
    row_norms(const float* a, std::size_t m, const float* b, std::size_t k, std::size_t n, float* norms) {
  const unsigned lane = threadIdx.x % 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * kThreads / 32;
  constexpr std::size_t kStride = 32 * 4;  // elements the warp covers per group
  for (std::size_t r = (blockIdx.x * static_cast<std::size_t>(kThreads) + threadIdx.x) / 32; r < m + k; r += warps) {
    const float* row = r < m ? a + r * n : b + (r - m) * n;
    float sums[kLoadsInFlight] = {};
    for (std::size_t x0 = lane * 4; x0 < n; x0 += kStride * kLoadsInFlight) {
      float v[kLoadsInFlight][4];
#pragma unroll
      for (int g = 0; g < kLoadsInFlight; ++g) {
        const std::size_t x = x0 + g * kStride;
        if constexpr (kVector) {
          const float4 q = x < n ? *reinterpret_cast<const float4*>(row + x) : float4{0.0f, 0.0f, 0.0f, 0.0f};
          v[g][0] = q.x, v[g][1] = q.y, v[g][2] = q.z, v[g][3] = q.w;
        } else {
#pragma unroll
          for (int e = 0; e < 4; ++e) v[g][e] = x + e < n ? row[x + e] : 0.0f;
        }
      }
#pragma unroll
      for (int g = 0; g < kLoadsInFlight; ++g)
#pragma unroll
        for (int e = 0; e < 4; ++e) sums[g] = fmaf(v[g][e], v[g][e], sums[g]);
    }
    float sum = 0.0f;
#pragma unroll
    for (int g = 0; g < kLoadsInFlight; ++g) sum += sums[g];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (lane == 0) norms[r] = sum;
  }
}

// Enqueues row_norms: norms[0, m) of A's rows, norms[m, m + k) of B's.
inline void launch_row_norms(const float* a, std::size_t m, const float* b, std::size_t k, std::size_t n,
                             float* norms, cudaStream_t stream) {
  const std::size_t blocks = (m + k + kThreads / 32 - 1) / (kThreads / 32);
  const unsigned grid = static_cast<unsigned>(blocks < 65536 ? blocks : 65536);
  if (register_tiles::aligned_rows(a, n) && register_tiles::aligned_rows(b, n))
    row_norms<true><<<grid, kThreads, 0, stream>>>(a, m, b, k, n, norms);
  else
    row_norms<false><<<grid, kThreads, 0, stream>>>(a, m, b, k, n, norms);
  CUDA_CHECK_LAUNCH();
}

// Everything launch() needs done once (step 11's preparation): returns the scratch bytes (the norms).
inline std::size_t prepare(std::size_t m, std::size_t k, const course::DeviceFacts& device, const char* what) {
  return warpgroup_tma::prepare(m, k, device, what);
}

// Enqueues the norms of A and B in one launch, then step 11's products (and its choice of tiles; rows
// the TMA cannot read go to step 09's kernel, as in step 11).
inline void launch(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                   void* scratch, cudaStream_t stream) {
  const norm_expansion::Norms<float> norms = norm_expansion::norms_in<float>(scratch, m);
  launch_row_norms(a, m, b, k, n, norms.a, stream);  // A's and then B's, as norms_in() lays them out
  warpgroup_tma::launch_products(a, b, c, m, k, n, norms.a, norms.b, warpgroup_tma::Inputs::Rounded, stream);
}

}  // namespace norms_in_one_launch
