// Exercise 01-A, solution: Manhattan (L1) distances with shared-memory tiles.
//
// Lesson 01's step 05 with one change in the innermost loop: |a - b| in place of (a - b)^2. A block
// of 16 x 16 threads computes a 16 x 16 tile of C; the rows of A and B it needs pass through shared
// memory 16 elements at a time, zero-filled past the ends (|0 - 0| adds nothing). B's tile has a
// 17th column so that the 16 threads reading one column of it hit 16 different banks.
#include "manhattan.h"

#include "course/check.h"
#include "course/errors.h"

namespace exercise01 {
namespace {

constexpr int kTile = 16;

__global__ void manhattan_tiles(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                                std::size_t tiles_across) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row0 = blockIdx.x / tiles_across * kTile, col0 = blockIdx.x % tiles_across * kTile;
  float sum = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += kTile) {
    const std::size_t x = x0 + tx;
    tile_a[ty][tx] = row0 + ty < m && x < n ? a[(row0 + ty) * n + x] : 0.0f;
    tile_b[ty][tx] = col0 + ty < k && x < n ? b[(col0 + ty) * n + x] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int e = 0; e < kTile; ++e) sum += fabsf(tile_a[ty][e] - tile_b[tx][e]);
    __syncthreads();
  }
  const std::size_t i = row0 + ty, j = col0 + tx;
  if (i < m && j < k) c[i * k + j] = sum;
}

}  // namespace

void manhattan_distances(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                         cudaStream_t stream) {
  const std::size_t tiles_across = (k + kTile - 1) / kTile, tiles = (m + kTile - 1) / kTile * tiles_across;
  if (tiles > 2147483647u) throw course::UsageError("m x k needs more than 2^31 - 1 tiles");
  manhattan_tiles<<<static_cast<unsigned>(tiles), dim3(kTile, kTile), 0, stream>>>(a, b, c, m, k, n, tiles_across);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
