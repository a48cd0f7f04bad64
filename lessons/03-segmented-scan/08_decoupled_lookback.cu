// Lesson 03, step 08: a single pass, the chained scan with decoupled look-back.
//
// What changed: step 07 scanned each tile in registers but needed several launches (the tiles,
// their totals, the propagation), because a block could not learn what came before its tile. Here
// one kernel does it all. Each block scans its tile as in step 07 and then obtains the running
// value at the end of the previous tile from the blocks before it, through a status word per tile
// in global memory:
//   kAggregateReady: the tile's own total is published (it holds no head, so it continues whatever ran
//                    before it);
//   kPrefixReady:    the running value at the tile's end is published: nothing before it matters.
// A tile that contains a head knows its running value at its end at once (the segment restarted inside
// it), so it publishes kPrefixReady before looking back at all. Any other tile publishes its aggregate
// first, then looks back: warp 0 reads the status of the 32 tiles before it at once, one per lane,
// waits until the lanes up to the nearest kPrefixReady have published something, and combines those
// values, oldest first. If none of the 32 has its prefix ready, it combines all 32 aggregates and
// moves 32 tiles further back. Then it publishes its own prefix, and the threads before the tile's
// first head finish their elements. The other threads need nothing from before the tile, and a warp
// made only of them stores its results while warp 0 looks back, instead of waiting for it (a warp
// stores its runs together, through its stage, so a warp with any thread before the first head waits).
//
// Why a head stops the look-back early: a predecessor with a head publishes its prefix immediately,
// without waiting for anyone. With segments of about 1000 elements almost every tile (4096 to 16384
// elements) has a head, so the look-back usually stops at the tile just before. Only long segments
// make it walk.
//
// Why it cannot deadlock: a block takes its tile number from an atomic counter when it starts, not
// from blockIdx.x, so every tile it waits for belongs to a block that is already running (the GPU may
// start blocks in any order, and a block that waited for one not yet started, while holding the SM it
// needs, would wait forever). And no block waits for anything but aggregates and prefixes that its
// predecessors publish without waiting.
//
// Why memory ordering matters: a tile publishes two things, a value and its state. Another SM may see
// two writes in the other order: they go to different addresses, and neither the compiler nor the
// memory system promises to keep them in program order. A reader that saw the new state and then read
// the old value would use garbage. `volatile` only stops the compiler from caching or dropping the
// accesses; it orders nothing between them. Two ways out, one per element size:
//   - 4-byte values (int32, uint32, float): state and value share one 8-byte word, written with one
//     store and read with one load. A reader sees both or neither, and there is nothing to order.
//   - 8-byte values do not fit beside a state in 8 bytes: the value is written first, then the state
//     with release semantics (every write before it is visible to whoever sees the state), and the
//     reader loads the state with acquire semantics before it reads the value: cuda::atomic_ref with
//     memory_order_release and memory_order_acquire at device scope.
//
// How it moves the tile: as step 07 with --staged-loads, each warp's 32 runs pass through shared
// memory, so that every global access of a warp covers 32 neighbouring elements. For 4-byte elements
// this is a little faster than step 07's 16-byte accesses per thread; for 8-byte elements it is much
// faster (a run of 16 doubles is 128 bytes, and a warp's 16-byte accesses to 32 such runs touch 32
// lines at once: the README's counters). And the number of blocks an SM holds is chosen per element
// type, operator and run length (blocks_per_sm): more blocks per SM hide the wait of one block's
// look-back behind the others' memory traffic, as long as the registers they leave each thread suffice.
//
// What it costs: waiting, for the tiles whose first elements need what came before them (the README's
// table of segment patterns shows how much: least when every element is a head and no tile waits,
// most with one giant segment, where every tile must look back); one small memset per run to clear
// the statuses and the counter; and shared memory for the warps' stages.
//
// Launch: one block per tile, 512 threads per block (or --threads, whole warps, up to 512 and what
// the stages' shared memory allows), --items elements per thread. Without --items the step takes the
// run length, of 8, 16 and 32, that keeps the most elements on an SM at once: resident blocks (what the
// kernel's registers and stages leave room for, from the occupancy calculator) x threads x elements.
// A longer run holds more bytes in flight per thread, but where its registers halve the blocks an SM
// holds it gains nothing.
//
// Where the code is: this file holds the kernel, which takes its tile; 08_decoupled_lookback.cuh holds
// what the block then does (scan_tile_and_look_back: the tile, the publication, the look-back, the
// stores), the tiles' states, blocks_per_sm, and the host side (plan_single_pass, run_single_pass:
// the scratch, the choice of run length, the launch), all of which step 09 reuses.
#include <cstdint>

#include "08_decoupled_lookback.cuh"
#include "segmented_scan.h"

namespace {

// One block per tile, its number taken from the counter, not from blockIdx.x: the tiles go out in the
// order the blocks start, so every tile a block waits for belongs to a block that has started.
template <class T, class Op, int kItems>
__global__ void __launch_bounds__(512, segscan::blocks_per_sm<T, Op, kItems>())
    scan_single_pass(const T* values, const std::uint8_t* flags, T* result, std::size_t n,
                     segscan::TileStatus<T> status, unsigned* next_tile) {
  __shared__ unsigned tile;
  if (threadIdx.x == 0) tile = atomicAdd(next_tile, 1u);  // tiles in the order blocks start
  __syncthreads();
  segscan::scan_tile_and_look_back<T, Op, kItems>(values, flags, result, n, status, tile);
}

// What the single pass's plan and launch (08_decoupled_lookback.cuh) take from this step: its kernel,
// for each element type, operator and run length.
struct SinglePass {
  template <class T, class Op, int kItems>
  static auto kernel() { return scan_single_pass<T, Op, kItems>; }
};

}  // namespace

const segscan::Step segscan::kThisStep = {"08", "single pass, decoupled look-back", "gpu", nullptr,
                                          segscan::plan_single_pass<SinglePass>,
                                          segscan::run_single_pass<SinglePass>,
                                          segscan::kThreadsOption | segscan::kItemsOption};
