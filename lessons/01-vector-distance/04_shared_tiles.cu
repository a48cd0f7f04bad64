// Lesson 01, step 04: tiles of A and B in shared memory (the original study's second GPU version).
//
// What changed: a block of 16 x 16 threads computes a 16 x 16 tile of C, and the 16 rows of A and the
// 16 rows of B that tile needs are brought into shared memory 16 elements at a time. Each thread loads
// one element of A's tile and one of B's; after a barrier, every thread reads 16 elements of its row
// of A and 16 of its row of B from shared memory; after a second barrier the next 16 elements come in.
//
// Why it is faster: each element loaded from global memory is now used by 16 threads, so the block
// reads A and B 16 times less often than step 03 did, and the loads are coalesced: the 16 threads of a
// row of the block read 16 neighbouring elements of one row.
//
// What it costs: two barriers per 16 elements, and shared-memory traffic: every term reads two values
// from shared memory. And those reads are not all equal. The compiler reads both tiles 16 bytes (four
// elements) at a time, one LDS.128 instruction per four terms. For tile_a[ty][e] the 16 threads of a
// half-warp read the same 16 bytes, which the hardware broadcasts. For tile_b[tx][e] they read 16
// pieces of 16 bytes, one from each of 16 rows, at the same column. Shared memory is 32 banks of 4
// bytes (the word at offset w is in bank w % 32), and a row of the tile is 16 words, so rows 0, 2, 4,
// ... start in bank 0 and rows 1, 3, 5, ... in bank 16: the 16 pieces fall into the same 8 banks, and
// the shared memory serves them one pass (a "wavefront") after another. Nsight Compute counts 9
// wavefronts per load instruction where 1 or 2 would do: a bank conflict (the lesson's README has the
// counts). Step 05 removes it.
//
// Any M, K, N: a tile that runs past the end of A, B or the vectors is filled with zeros, which add
// (0 - 0)^2 = 0 to every sum, and threads outside C compute but do not store.
#include <cstdint>

#include "course/check.h"
#include "course/errors.h"
#include "distance.h"

namespace {

constexpr int kTile = 16;  // the tile of C is kTile x kTile, and so are the tiles of A and B

template <class T>
__global__ void shared_tiles(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n,
                             std::size_t tiles_across) {
  __shared__ T tile_a[kTile][kTile];  // tile_a[r][x] = A[row0 + r][x0 + x]
  __shared__ T tile_b[kTile][kTile];  // tile_b[r][x] = B[col0 + r][x0 + x]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row0 = blockIdx.x / tiles_across * kTile, col0 = blockIdx.x % tiles_across * kTile;
  T sum = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += kTile) {
    const std::size_t x = x0 + tx;
    tile_a[ty][tx] = row0 + ty < m && x < n ? a[(row0 + ty) * n + x] : T(0);
    tile_b[ty][tx] = col0 + ty < k && x < n ? b[(col0 + ty) * n + x] : T(0);
    __syncthreads();
#pragma unroll
    for (int e = 0; e < kTile; ++e) {
      const T d = tile_a[ty][e] - tile_b[tx][e];
      sum += d * d;
    }
    __syncthreads();
  }
  const std::size_t i = row0 + ty, j = col0 + tx;
  if (i < m && j < k) c[i * k + j] = sum;
}

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type, const course::DeviceFacts&) {
  if (((m + kTile - 1) / kTile) * ((k + kTile - 1) / kTile) > 2147483647u)
    throw course::UsageError("M x K needs more than 2^31 - 1 tiles of 16 x 16");
  return {};
}

template <class T>
void run(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, const distance::LaunchPlan&,
         void*, cudaStream_t stream) {
  const std::size_t tiles_down = (m + kTile - 1) / kTile, tiles_across = (k + kTile - 1) / kTile;
  shared_tiles<T><<<static_cast<unsigned>(tiles_down * tiles_across), dim3(kTile, kTile), 0, stream>>>(
      a, b, c, m, k, n, tiles_across);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const distance::Step distance::kThisStep = {
    "04", "shared-memory tiles, 16 x 16", "gpu", distance::Form::Direct, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run<float>, run<std::int32_t>};
