// stub: // Exercise 03-A: stream compaction with a scan. YOUR CODE GOES HERE.
// >>> solution
// Exercise 03-A, solution: stream compaction with a scan.
// <<<
//
// Keep the elements greater than zero, in their order, packed at the start of `kept`. Where does a
// kept element go? To the number of kept elements before it: the exclusive scan of the 0/1 "keep"
// predicate (lesson 03 scans values; here you scan 0s and 1s). The host code below is done; it runs
// three kernels over tiles of 1024 elements, one per thread:
//   1. count_kept:  tile_counts[b] = the number of kept elements in tile b. A warp can count its 32
//                   with one __ballot_sync and __popc.
//   2. scan_counts: one block: tile_starts[b] = the kept elements in tiles 0 .. b - 1 (an exclusive
//                   scan of the counts, 1024 at a time, carrying the running total from chunk to
//                   chunk), and *count = the total.
//   3. scatter:     each kept element goes to tile_starts[b] + its rank in the tile: the kept lanes
//                   below it in its warp (__popc of the ballot, masked) plus the kept elements of the
//                   warps before it (a scan of the 32 warps' counts in shared memory).
//
// Grade your work:   ./course grade 03 compact
// The tests try 1, 2, 31, 33, 1000, 999983 and 60,000,000 elements, several seeds, everything kept,
// one element kept, zeros (not kept) and long runs; the count and every kept element must be exact.
//
// Traps:
//   - The last tile is partial: lanes past n keep nothing, but they still take part in __ballot_sync
//     with the full mask.
//   - The mask of "kept lanes below me" is (1u << lane) - 1, which is 0 for lane 0.
//   - scan_counts carries the running total from one chunk of 1024 counts to the next; a scan of
//     one chunk alone is right only for arrays of at most 1024 tiles.
// Target: your time within 1.2x of the solution's on your GPU (on an H100 the solution takes 0.56 ms at
// n=60000000); `./course grade` prints the ratio and says whether you met it (advisory: the grade does
// not depend on it).
// >>> solution
//
// Where does a kept element go? To the number of kept elements before it: the exclusive scan of the
// 0/1 "keep" predicate. Three kernels, the scan-then-propagate of lesson 03 turned around (the tiles'
// totals are scanned first, so the last kernel can write each element straight to its place):
//   1. count_kept: each block counts the kept elements of its tile; a warp counts its 32 with one
//      ballot and a population count;
//   2. scan_counts: one block turns the tiles' counts into each tile's first output position, 1024
//      tiles at a time, carrying the running total from chunk to chunk, and writes the total;
//   3. scatter: each block ranks its kept elements (the kept lanes below it in its warp, by ballot and
//      popc, plus the kept elements of the warps before it, by a scan of the warps' counts) and writes
//      each to its tile's position plus its rank.
// <<<
#include "compact.h"

#include <cstdint>

#include "course/check.h"

namespace exercise03 {

inline constexpr unsigned kFullWarp = 0xFFFFFFFFu;  // every lane of a warp, for __ballot_sync and shuffles

__device__ inline bool keep(float x) { return x > 0.0f; }

namespace {

constexpr int kThreads = 1024;  // one element per thread: a tile is 1024 elements

// >>> solution
// The sum of x over the 32 lanes, in every lane.
template <class U>
__device__ inline U warp_sum(U x) {
  for (int distance = 16; distance > 0; distance /= 2) x += __shfl_xor_sync(kFullWarp, x, distance);
  return x;
}

// The inclusive scan of x over the 32 lanes.
template <class U>
__device__ inline U warp_inclusive_sum(U x) {
  const unsigned lane = threadIdx.x % 32;
  for (unsigned distance = 1; distance < 32; distance *= 2) {
    const U left = __shfl_up_sync(kFullWarp, x, distance);
    if (lane >= distance) x += left;
  }
  return x;
}
// <<<

__global__ void count_kept(const float* values, std::size_t n, unsigned* tile_counts) {
  // TODO 1: count the kept elements of tile blockIdx.x (elements past n are not kept) and write the
  // count to tile_counts[blockIdx.x]. Every lane of a warp must take part in __ballot_sync.
  // >>> solution
  __shared__ unsigned warp_counts[kThreads / 32];
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(kThreads) + threadIdx.x;
  const unsigned votes = __ballot_sync(kFullWarp, i < n && keep(values[i]));
  if (threadIdx.x % 32 == 0) warp_counts[threadIdx.x / 32] = __popc(votes);
  __syncthreads();
  if (threadIdx.x < 32) {
    const unsigned total = warp_sum(warp_counts[threadIdx.x]);
    if (threadIdx.x == 0) tile_counts[blockIdx.x] = total;
  }
  // <<<
}

__global__ void scan_counts(const unsigned* tile_counts, std::size_t tiles, unsigned long long* tile_starts,
                            unsigned long long* count) {
  // TODO 2: one block of kThreads threads. For t = 0 .. tiles - 1: tile_starts[t] = the sum of
  // tile_counts[0 .. t - 1]; then *count = the sum of all of them.
  // >>> solution
  __shared__ unsigned long long warp_totals[kThreads / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned long long carry = 0;  // kept elements in the chunks done so far (the same in every thread)
  for (std::size_t first = 0; first < tiles; first += kThreads) {
    const std::size_t t = first + threadIdx.x;
    const unsigned long long mine = t < tiles ? tile_counts[t] : 0;
    const unsigned long long inclusive = warp_inclusive_sum(mine);
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) warp_totals[lane] = warp_inclusive_sum(warp_totals[lane]);
    __syncthreads();
    const unsigned long long before = (warp > 0 ? warp_totals[warp - 1] : 0) + inclusive - mine;
    if (t < tiles) tile_starts[t] = carry + before;
    carry += warp_totals[kThreads / 32 - 1];
    __syncthreads();  // everyone has read warp_totals before the next chunk rewrites it
  }
  if (threadIdx.x == 0) *count = carry;
  // <<<
}

__global__ void scatter(const float* values, std::size_t n, const unsigned long long* tile_starts, float* kept) {
  // TODO 3: write each kept element of tile blockIdx.x to kept[tile_starts[blockIdx.x] + its rank in the
  // tile].
  // >>> solution
  __shared__ unsigned warp_starts[kThreads / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(kThreads) + threadIdx.x;
  const float x = i < n ? values[i] : 0.0f;
  const bool kept_here = i < n && keep(x);
  const unsigned votes = __ballot_sync(kFullWarp, kept_here);
  if (lane == 0) warp_starts[warp] = __popc(votes);
  __syncthreads();
  if (warp == 0) {
    const unsigned count = warp_starts[lane];
    warp_starts[lane] = warp_inclusive_sum(count) - count;  // exclusive: kept in the warps before
  }
  __syncthreads();
  const unsigned below = __popc(votes & ((1u << lane) - 1u));  // kept lanes below this one
  if (kept_here) kept[tile_starts[blockIdx.x] + warp_starts[warp] + below] = x;
  // <<<
}

std::size_t tiles_for(std::size_t n) { return (n + kThreads - 1) / kThreads; }
std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace

std::size_t compact_positive_scratch_bytes(std::size_t n) {
  return aligned(tiles_for(n) * sizeof(unsigned)) + tiles_for(n) * sizeof(unsigned long long);
}

void compact_positive(const float* values, std::size_t n, float* kept, unsigned long long* count, void* scratch,
                      cudaStream_t stream) {
  const std::size_t tiles = tiles_for(n);
  auto* counts = static_cast<unsigned*>(scratch);
  auto* starts =
      reinterpret_cast<unsigned long long*>(static_cast<unsigned char*>(scratch) + aligned(tiles * sizeof(unsigned)));
  count_kept<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(values, n, counts);
  CUDA_CHECK_LAUNCH();
  scan_counts<<<1, kThreads, 0, stream>>>(counts, tiles, starts, count);
  CUDA_CHECK_LAUNCH();
  scatter<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(values, n, starts, kept);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise03
