// Lesson 03, step 09: step 08, with each block asking the L2 cache to fetch a later tile's data.
//
// What changed: a few lines at the start of each block. Thread 0 of the block that takes tile t also
// asks the L2 cache to fetch the values and flags of tile t + D, D tiles ahead, with two bulk
// prefetches (cp.async.bulk.prefetch.L2: one instruction for a whole contiguous range, carried out by
// the memory system in the background; no register, no shared memory and no thread waits for it).
// Everything else is step 08's: the tile, the publication, the look-back and the stores
// (scan_tile_and_look_back), the launch plan and the run (08_decoupled_lookback.cuh).
//
// Why it can be faster: a block of step 08 issues its loads in one burst, when it starts, and then spends
// most of its life not loading: scanning, at barriers, waiting for the look-back, storing. The SM's
// other blocks fill some of those gaps, but not all, and while too few loads are outstanding the
// memory delivers less than it could. The prefetch keeps requests outstanding whatever the blocks are
// doing: tiles go out in the order of the counter, so by the time a block takes tile t + D its data is
// on its way or already in L2, and its loads wait for the L2 instead of DRAM. DRAM sees the same bytes
// as in step 08, each value and flag still read once; they are only asked for earlier.
//
// How far ahead: far enough that the data has arrived when its block starts, near enough that it is
// still in L2 then. The L2 also holds the tiles the running blocks are reading and the results on
// their way out to DRAM, so prefetched lines that wait too long are evicted before their block reads
// them, and DRAM delivers those bytes twice: too far ahead can be worse than no prefetch. The step
// takes D so that the D tiles ahead hold a 24th of the L2's size in values and flags (plan below), a
// tuned share, not a derived one: the runner's table "step 09 by prefetch distance and block size"
// runs it beside nearer and farther distances.
// --prefetch-tiles N chooses D; 0 turns the prefetch off.
//
// What it costs: two instructions per block, and room in the L2 for D tiles that no block reads yet.
// The bulk prefetch moves whole 16-byte units, so the last tile's ragged end is left to its block's
// own loads; and it is an instruction of sm_90 (Hopper) and later: built for an older GPU, the kernel
// prefetches nothing and is step 08's.
//
// One more change: the step launches blocks of 256 threads by default, where step 08 launches 512, so
// that a block's barriers and look-back hold back fewer warps at a time. That is a second change beside
// the prefetch; the same table also runs the step with 512 threads and without the prefetch, so that
// each change's share shows.
#include <algorithm>
#include <cstdint>

#include "08_decoupled_lookback.cuh"
#include "segmented_scan.h"

namespace {

// Asks the L2 cache to fetch `bytes` bytes from `from` (global memory) in the background. The bulk
// prefetch takes 16-byte aligned addresses and whole 16-byte units; a range that is not aligned is
// left out (a prefetch is only a hint), and a ragged end is cut short, so nothing past the array is read.
__device__ inline void prefetch_to_l2(const void* from, std::size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  bytes = bytes / 16 * 16;
  if (bytes == 0 || reinterpret_cast<std::uintptr_t>(from) % 16 != 0) return;
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(from), "r"(static_cast<unsigned>(bytes))
               : "memory");
#else
  (void)from;
  (void)bytes;
#endif
}

// The values and flags of tile `tile` (of `tile_elements` each), those inside the array, into L2.
template <class T>
__device__ inline void prefetch_tile(const T* values, const std::uint8_t* flags, std::size_t n, std::size_t tile,
                                     std::size_t tile_elements) {
  const std::size_t first = tile * tile_elements;
  if (first >= n) return;
  const std::size_t count = n - first < tile_elements ? n - first : tile_elements;
  prefetch_to_l2(values + first, count * sizeof(T));
  prefetch_to_l2(flags + first, count);
}

// Step 08's kernel, with the prefetch of the tile `prefetch_tiles` ahead of the block's own.
template <class T, class Op, int kItems>
__global__ void __launch_bounds__(512, segscan::blocks_per_sm<T, Op, kItems>())
    scan_single_pass_prefetching(const T* values, const std::uint8_t* flags, T* result, std::size_t n,
                                 segscan::TileStatus<T> status, unsigned* next_tile, unsigned prefetch_tiles) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) {
    tile = atomicAdd(next_tile, 1u);  // tiles in the order blocks start
    // The new line: a later tile's data, on its way into L2 before its block starts.
    if (prefetch_tiles > 0)
      prefetch_tile(values, flags, n, static_cast<std::size_t>(tile) + prefetch_tiles,
                    static_cast<std::size_t>(blockDim.x) * kItems);
  }
  __syncthreads();
  segscan::scan_tile_and_look_back<T, Op, kItems>(values, flags, result, n, status, tile);
}

// What the single pass's plan and launch (08_decoupled_lookback.cuh) take from this step: its kernel,
// for each element type, operator and run length.
struct Prefetching {
  template <class T, class Op, int kItems>
  static auto kernel() { return scan_single_pass_prefetching<T, Op, kItems>; }
};

// Step 08's plan (its run length by occupancy), for blocks of 256 threads unless --threads says
// otherwise, and the distance: without --prefetch-tiles, as many tiles as hold a 24th of the L2's size
// in values and flags, at least one.
segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts& device,
                         const segscan::LaunchPlan& requested) {
  constexpr int kDefaultThreads = 256;
  constexpr std::size_t kL2Share = 24;  // the prefetched tiles may fill 1/kL2Share of the L2
  segscan::LaunchPlan asked = requested;
  if (asked.threads == 0) asked.threads = kDefaultThreads;
  segscan::LaunchPlan p = segscan::plan_single_pass<Prefetching>(n, scan, device, asked);
  const std::size_t tile_bytes = static_cast<std::size_t>(p.threads) * p.items * (segscan::value_bytes(scan.type) + 1);
  p.prefetch_tiles = requested.prefetch_tiles >= 0
                         ? requested.prefetch_tiles
                         : static_cast<int>(std::max<std::size_t>(1, device.l2_bytes / kL2Share / tile_bytes));
  return p;
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::run_single_pass<Prefetching>(values, flags, result, n, scan, p, scratch, stream,
                                        static_cast<unsigned>(p.prefetch_tiles));
}

}  // namespace

const segscan::Step segscan::kThisStep = {"09", "single pass, a later tile prefetched into L2", "gpu", nullptr, plan,
                                          run,
                                          segscan::kThreadsOption | segscan::kItemsOption | segscan::kPrefetchOption};
