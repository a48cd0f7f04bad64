// Lesson 01, step 05: the same tiles without bank conflicts (the original study's third GPU version).
//
// What changed: one number. B's tile gets a 17th, unused column: tile_b[kTile][kTile + 1].
//
// Why it is faster: shared memory is 32 banks, 4 bytes wide; the word at offset w lives in bank
// w % 32, and a bank serves one address per pass. In step 04 the 16 threads of a half-warp read 16
// bytes each from 16 rows of tile_b whose starts all lie in bank 0 or bank 16, so the shared memory
// served them one pass after another: 9 passes per load on average. With rows 17 words long, row tx
// starts at offset 17 tx, and 17 tx mod 32 takes 16 different values for tx = 0..15: the word
// tile_b[tx][e] of each thread is in a bank of its own, and a load is served in about one pass (the
// README's counts). tile_a[ty][e] was never a problem: all 16 threads of a
// half-warp read the same bytes, which the hardware broadcasts.
//
// What it costs: 64 bytes of shared memory per block, and more load instructions. A row of B's tile
// no longer starts on a 16-byte boundary, so the compiler reads it one word at a time (LDS) instead of
// four (LDS.128): more shared loads, but far fewer passes in all (the lesson's README has the
// counts). And the padding gives the store a small conflict of its own: a warp writes
// two rows of tile_b, offsets 0..15 and 17..32, and offsets 0 and 32 share bank 0, so each store takes
// two passes (one store per 16 loads).
//
// Any M, K, N, as in step 04.
#include <cstdint>

#include "course/check.h"
#include "course/errors.h"
#include "distance.h"

namespace {

constexpr int kTile = 16;  // the tile of C is kTile x kTile, and so are the tiles of A and B

template <class T>
__global__ void padded_tiles(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n,
                             std::size_t tiles_across) {
  __shared__ T tile_a[kTile][kTile];      // read as a broadcast: no padding needed
  __shared__ T tile_b[kTile][kTile + 1];  // one extra column: row r starts in bank 17 r % 32
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
  padded_tiles<T><<<static_cast<unsigned>(tiles_down * tiles_across), dim3(kTile, kTile), 0, stream>>>(
      a, b, c, m, k, n, tiles_across);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const distance::Step distance::kThisStep = {
    "05", "padded tiles, no bank conflicts", "gpu", distance::Form::Direct, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run<float>, run<std::int32_t>};
