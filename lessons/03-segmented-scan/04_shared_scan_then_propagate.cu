// Lesson 03, step 04: each block scans its tile in shared memory; then the tile totals are scanned and
// propagated (a tile scan, applied again to the totals, and a propagation kernel).
//
// What changed: step 03 read and wrote the whole array in global memory in each of its 26 rounds. Here
// a block of 512 threads loads a tile of 512 pairs (flag, value) into shared memory once, runs the same
// Hillis-Steele rounds there (9 of them, with a barrier after each instead of a new launch), and writes
// the tile back once. What a block cannot see, the tiles before it, is handled by scan-then-propagate
// (04_shared_scan_then_propagate.cuh): the tiles' totals are scanned by the same kernel, one level up,
// and a last kernel carries each tile's predecessor into the elements before its first head.
//
// Why it is faster: global memory traffic falls from one pass over the array per round (26 rounds at
// n = 60 million) to the tile scan's one pass (it reads values and flags and writes the values) plus
// propagation's rewrite of what comes before each tile's first head, and the rounds' traffic stays in
// shared memory, on the chip. The README's counters at 2^24 elements give the bytes of step 03's
// rounds, and of the tile scans and the propagation here.
//
// What it costs: inside the tile, Hillis-Steele still does log2(512) = 9 operations per element where
// one would do, and every round ends with a barrier. Step 05 cuts the work; step 06 the barriers.
//
// Launch: 512 threads per block, one element per thread (or --threads, whole warps).
#include <cstdint>

#include "03_gpu_hillis_steele.cuh"
#include "04_shared_scan_then_propagate.cuh"
#include "course/launch.h"
#include "segmented_scan.h"

namespace {

using segscan::Flagged;
using segscan::TileTotals;

// One tile of blockDim.x elements, scanned in shared memory by rounds that ping-pong between two halves
// (in place, a thread could read a neighbour that the same round has already updated).
template <class T, class Op>
__global__ void scan_tiles_in_shared_memory(const T* values, const std::uint8_t* flags, T* result, std::size_t n,
                                            TileTotals<T> totals) {
  extern __shared__ unsigned char shared[];
  const unsigned size = blockDim.x, t = threadIdx.x;
  T* tile_values = reinterpret_cast<T*>(shared);  // [2][size]
  std::uint8_t* tile_flags = reinterpret_cast<std::uint8_t*>(tile_values + 2 * size);  // [2][size]
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(size) + t;
  // Past the end: a head, so that nothing there reaches back into the tile.
  tile_values[t] = i < n ? values[i] : T{};
  tile_flags[t] = i < n ? flags[i] : 1;
  __syncthreads();
  unsigned in = 0;  // the half the round reads
  for (unsigned distance = 1; distance < size; distance *= 2) {
    Flagged<T> mine{tile_values[in * size + t], tile_flags[in * size + t]};
    if (t >= distance) {
      const Flagged<T> left{tile_values[in * size + t - distance], tile_flags[in * size + t - distance]};
      mine = segscan::segmented<Op>(left, mine);
    }
    tile_values[(1 - in) * size + t] = mine.value;
    tile_flags[(1 - in) * size + t] = mine.flag;
    in = 1 - in;
    __syncthreads();
  }
  if (i < n) result[i] = tile_values[in * size + t];
  if (totals.values == nullptr) return;
  // tile_flags now says, for each element, whether a head lies at or before it in the tile.
  const bool head_so_far = tile_flags[in * size + t] != 0;
  const bool head_before = t > 0 && tile_flags[in * size + t - 1] != 0;
  if (head_so_far && !head_before) totals.first_head[blockIdx.x] = t;
  if (t == size - 1) {
    totals.values[blockIdx.x] = tile_values[in * size + t];
    totals.flags[blockIdx.x] = head_so_far;
    if (!head_so_far) totals.first_head[blockIdx.x] = size;
  }
}

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts&,
                         const segscan::LaunchPlan& requested) {
  segscan::LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 512);
  p.scratch_bytes = segscan::scan_then_propagate_scratch(n, p.threads, segscan::value_bytes(scan.type));
  return p;
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    using Op = decltype(op);
    const int threads = p.threads;
    auto scan_tiles = [threads](const T* in, const std::uint8_t* in_flags, T* out, std::size_t count,
                                TileTotals<T> totals, cudaStream_t s) {
      const unsigned blocks = static_cast<unsigned>((count + threads - 1) / threads);
      const std::size_t shared = 2 * static_cast<std::size_t>(threads) * (sizeof(T) + 1);
      scan_tiles_in_shared_memory<T, Op><<<blocks, threads, shared, s>>>(in, in_flags, out, count, totals);
      CUDA_CHECK_LAUNCH();
    };
    segscan::scan_then_propagate<T, Op>(static_cast<const T*>(values), flags, static_cast<T*>(result), n,
                                        static_cast<std::size_t>(threads), scan_tiles,
                                        static_cast<unsigned char*>(scratch), stream);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"04", "tile scan in shared memory, then propagate", "gpu", nullptr, plan,
                                          run, segscan::kThreadsOption};
