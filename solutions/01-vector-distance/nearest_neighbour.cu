// Exercise 01-B, solution: nearest neighbours fused into the tiled distance kernel.
//
// The distances come from lesson 01's step 05 (16 x 16 tiles through shared memory, B's tile padded),
// but no thread stores its distance. Each packs it with its column into one 64-bit number,
//     (distance << 32) | j,
// which orders pairs by distance first and, for equal distances, by j: the smallest packed number is
// the nearest row of B, ties going to the smaller j. (Distances are non-negative int32, so as
// unsigned numbers they keep their order.) The 16 threads of a row of the tile find their smallest by
// shuffles, and one of them folds it into best[i] with atomicMin, against the other blocks of the same
// rows. A last small kernel unpacks best into index and distance. C is never written.
#include "nearest_neighbour.h"

#include "course/check.h"
#include "course/errors.h"

namespace exercise01 {
namespace {

constexpr int kTile = 16;

__global__ void nearest_in_tiles(const std::int32_t* a, const std::int32_t* b, unsigned long long* best, std::size_t m,
                                 std::size_t k, std::size_t n, std::size_t tiles_across) {
  __shared__ std::int32_t tile_a[kTile][kTile];
  __shared__ std::int32_t tile_b[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const std::size_t row0 = blockIdx.x / tiles_across * kTile, col0 = blockIdx.x % tiles_across * kTile;
  std::int32_t sum = 0;
  for (std::size_t x0 = 0; x0 < n; x0 += kTile) {
    const std::size_t x = x0 + tx;
    tile_a[ty][tx] = row0 + ty < m && x < n ? a[(row0 + ty) * n + x] : 0;
    tile_b[ty][tx] = col0 + ty < k && x < n ? b[(col0 + ty) * n + x] : 0;
    __syncthreads();
#pragma unroll
    for (int e = 0; e < kTile; ++e) {
      const std::int32_t d = tile_a[ty][e] - tile_b[tx][e];
      sum += d * d;
    }
    __syncthreads();
  }
  const std::size_t i = row0 + ty, j = col0 + tx;
  unsigned long long packed = j < k ? static_cast<unsigned long long>(static_cast<std::uint32_t>(sum)) << 32 | j
                                    : ~0ull;  // past the end of B: never the nearest
  // The 16 threads of row ty are lanes 16 (ty % 2) .. + 15 of their warp: xor offsets below 16 stay
  // among them.
  for (int offset = kTile / 2; offset > 0; offset /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, packed, offset);
    packed = other < packed ? other : packed;
  }
  if (tx == 0 && i < m) atomicMin(best + i, packed);
}

__global__ void unpack(const unsigned long long* best, std::uint32_t* index, std::int32_t* distance, std::size_t m) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= m) return;
  index[i] = static_cast<std::uint32_t>(best[i] & 0xffffffffu);
  distance[i] = static_cast<std::int32_t>(best[i] >> 32);
}

}  // namespace

std::size_t nearest_neighbour_scratch_bytes(std::size_t m, std::size_t) { return m * sizeof(unsigned long long); }

void nearest_neighbours(const std::int32_t* a, const std::int32_t* b, std::uint32_t* index, std::int32_t* distance,
                        std::size_t m, std::size_t k, std::size_t n, void* scratch, cudaStream_t stream) {
  unsigned long long* best = static_cast<unsigned long long*>(scratch);
  CUDA_CHECK(cudaMemsetAsync(best, 0xFF, m * sizeof(unsigned long long), stream));  // "nothing found yet"
  const std::size_t tiles_across = (k + kTile - 1) / kTile, tiles = (m + kTile - 1) / kTile * tiles_across;
  if (tiles > 2147483647u) throw course::UsageError("m x k needs more than 2^31 - 1 tiles");
  nearest_in_tiles<<<static_cast<unsigned>(tiles), dim3(kTile, kTile), 0, stream>>>(a, b, best, m, k, n, tiles_across);
  CUDA_CHECK_LAUNCH();
  unpack<<<static_cast<unsigned>((m + 255) / 256), 256, 0, stream>>>(best, index, distance, m);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
