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
// first head finish their elements. The other threads need nothing from before the tile: they store
// their results while warp 0 looks back, instead of waiting for it.
//
// Why a head stops the look-back early: a predecessor with a head publishes its prefix immediately,
// without waiting for anyone. With segments of about 1000 elements almost every tile of 8192 has a
// head, so the look-back usually stops at the tile just before. Only long segments make it walk.
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
// type and operator (blocks_per_sm below): more blocks per SM hide the wait of one block's look-back
// behind the others' memory traffic, as long as the registers they leave each thread suffice.
//
// What it costs: waiting, for the tiles whose first elements need what came before them (the README's
// table of segment patterns shows how much: least when every element is a head and no tile waits,
// most with one giant segment, where every tile must look back); one small memset per run to clear
// the statuses and the counter; and shared memory for the warps' stages.
//
// Launch: one block per tile, 512 threads per block (or --threads, whole warps, up to 512 and what
// the stages' shared memory allows), --items elements per thread (16 by default).
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "03_gpu_hillis_steele.cuh"
#include "04_shared_scan_then_propagate.cuh"
#include "06_warp_shuffle.cuh"
#include "07_registers_per_thread.cuh"
#include "course/check.h"
#include "course/launch.h"
#include "segmented_scan.h"

namespace {

using segscan::Flagged;
using segscan::kFullWarp;
using segscan::ThreadItems;

constexpr int kDefaultItems = 16;

enum TileState : unsigned { kNotReady = 0, kAggregateReady = 1, kPrefixReady = 2 };

// What every tile publishes, one entry per tile, in global memory, cleared to kNotReady before every run.
template <class T>
struct TileStatus {
  unsigned long long* word;  // 4-byte values: the state in the high half, the value's bits in the low half
  unsigned* state;           // 8-byte values: the state ...
  T* aggregate;              // ... the tile's own total, valid from kAggregateReady on
  T* prefix;                 // ... the running value at the tile's end, valid at kPrefixReady
};

template <class T>
__device__ inline void publish(const TileStatus<T>& status, unsigned tile, TileState state, T value) {
  if constexpr (sizeof(T) == 4) {
    unsigned bits;
    std::memcpy(&bits, &value, sizeof bits);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status.word[tile]);
    word.store(static_cast<unsigned long long>(state) << 32 | bits, cuda::memory_order_relaxed);  // one store
  } else {
    (state == kPrefixReady ? status.prefix : status.aggregate)[tile] = value;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> word(status.state[tile]);
    word.store(state, cuda::memory_order_release);  // the value written above is visible first
  }
}

// The state of tile `tile`, and its value in `value` when the state is not kNotReady.
template <class T>
__device__ inline unsigned observe(const TileStatus<T>& status, unsigned tile, T& value) {
  if constexpr (sizeof(T) == 4) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(status.word[tile]);
    const unsigned long long both = word.load(cuda::memory_order_relaxed);  // one load
    const unsigned bits = static_cast<unsigned>(both);
    std::memcpy(&value, &bits, sizeof bits);
    return static_cast<unsigned>(both >> 32);
  } else {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> word(status.state[tile]);
    const unsigned state = word.load(cuda::memory_order_acquire);  // what was written before the release ...
    if (state != kNotReady)  // ... is seen here
      value = state == kPrefixReady ? status.prefix[tile] : status.aggregate[tile];
    return state;
  }
}

// Warp 0 of tile `tile` > 0: the running value at the end of tile `tile - 1`, in every lane.
template <class T, class Op>
__device__ T look_back(const TileStatus<T>& status, unsigned tile) {
  const unsigned lane = threadIdx.x % 32;
  T newer = Op::template identity<T>();  // the aggregates passed so far, combined
  for (long long newest = static_cast<long long>(tile) - 1;; newest -= 32) {
    const long long predecessor = newest - lane;  // lane 0: the nearest tile, lane 31: the farthest
    unsigned state, ready, prefixes, needed;
    T value = Op::template identity<T>();
    do {
      state = predecessor >= 0 ? observe(status, static_cast<unsigned>(predecessor), value) : unsigned{kPrefixReady};
      ready = __ballot_sync(kFullWarp, state != kNotReady);
      prefixes = __ballot_sync(kFullWarp, state == kPrefixReady);
      // The lanes that matter: up to the nearest prefix, or all 32 if there is none yet.
      needed = prefixes ? kFullWarp >> (32 - __ffs(prefixes)) : kFullWarp;
    } while ((ready & needed) != needed);
    if (!((needed >> lane) & 1u) || predecessor < 0) value = Op::template identity<T>();
    // Combine the window, the older tile (higher lane) always on the left.
#pragma unroll
    for (unsigned distance = 1; distance < 32; distance *= 2) {
      const T older = __shfl_down_sync(kFullWarp, value, distance);
      if (lane + distance < 32) value = Op()(older, value);
    }
    newer = Op()(__shfl_sync(kFullWarp, value, 0), newer);
    if (prefixes) return newer;
  }
}

// How many blocks of 512 threads an SM should hold, which caps the registers of a thread at
// 65536 / (512 x blocks): 3 blocks, 40 registers; 2 blocks, 64; 1 block, all it wants. The kernel's
// registers grow with the bytes of a run, and for max and min the compiler asks for more than for sums
// and products. The counts below were the fastest of 1, 2 and 3 blocks for each type and operator at
// the default 16 elements on the H100 (the README's section on 8-byte elements); capped lower, a
// kernel spills registers to memory and slows down.
template <class T, class Op, int kItems>
constexpr int blocks_per_sm() {
  constexpr bool max_or_min = std::is_same<Op, segscan::Max>::value || std::is_same<Op, segscan::Min>::value;
  constexpr int run_bytes = kItems * static_cast<int>(sizeof(T));
  constexpr int blocks = run_bytes <= 64 ? 3 : run_bytes <= 128 ? 2 : 1;
  return max_or_min && blocks > 1 ? blocks - 1 : blocks;
}

template <class T, class Op, int kItems>
__global__ void __launch_bounds__(512, blocks_per_sm<T, Op, kItems>())
    scan_single_pass(const T* values, const std::uint8_t* flags, T* result, std::size_t n, TileStatus<T> status,
                     unsigned* next_tile) {
  __shared__ segscan::BlockScanStorage<T> storage;
  __shared__ unsigned tile_shared;
  __shared__ T carried;
  if (threadIdx.x == 0) tile_shared = atomicAdd(next_tile, 1u);  // tiles in the order blocks start
  __syncthreads();
  const unsigned tile = tile_shared;

  // The tile, as in step 07 with --staged-loads: each warp's runs pass through its stage in shared
  // memory, every access coalesced; each thread scans its run in registers; the block scans the runs'
  // totals.
  const std::size_t warp_first = (tile * static_cast<std::size_t>(blockDim.x) + threadIdx.x / 32 * 32) * kItems;
  segscan::WarpStage<T, kItems>& stage = segscan::warp_stage<T, kItems>();
  ThreadItems<T, kItems> items;
  segscan::load_items_staged(values, flags, warp_first, n, stage, items);
  const Flagged<T> run_total = segscan::scan_items<Op>(items);
  Flagged<T> tile_total;
  const Flagged<T> prefix = segscan::block_exclusive_scan<Op>(run_total, storage, tile_total);

  // A thread whose run has a head before it in the tile, or starts with one, is done; only the
  // threads before the tile's first head wait for the carry. A warp stores its runs together, so a
  // warp that has any such thread stores after the wait; the others store at once, while warp 0
  // looks back.
  const bool needs_carry = tile > 0 && !prefix.flag && !(items.heads & 1u);
  const bool warp_waits = __any_sync(kFullWarp, needs_carry);
  if (threadIdx.x < 32) {
    if (threadIdx.x == 0) {
      // Nothing before the end of tile 0, or of a tile with a head, depends on earlier tiles.
      publish(status, tile, tile == 0 || tile_total.flag ? kPrefixReady : kAggregateReady, tile_total.value);
    }
    if (__shfl_sync(kFullWarp, needs_carry, 0)) {  // thread 0 waits whenever anyone does
      const T before = look_back<T, Op>(status, tile);
      if (threadIdx.x == 0) {
        if (!tile_total.flag) publish(status, tile, kPrefixReady, Op()(before, tile_total.value));
        carried = before;
      }
    }
  }
  if (!needs_carry) segscan::add_prefix<Op>(prefix, items);
  if (!warp_waits) segscan::store_items_staged(items, result, warp_first, n, stage);
  __syncthreads();
  if (needs_carry) segscan::add_prefix<Op>(segscan::segmented<Op>(Flagged<T>{carried, 0}, prefix), items);
  if (warp_waits) segscan::store_items_staged(items, result, warp_first, n, stage);
}

template <class T, class Op>
const void* kernel_for(int items) {
  switch (items) {
    case 8: return reinterpret_cast<const void*>(scan_single_pass<T, Op, 8>);
    case 16: return reinterpret_cast<const void*>(scan_single_pass<T, Op, 16>);
    default: return reinterpret_cast<const void*>(scan_single_pass<T, Op, 32>);
  }
}

// Scratch: the tile counter and the status words and states (cleared together before each run), then
// the 8-byte values' aggregates and prefixes.
struct Layout {
  std::size_t tiles, word_offset, state_offset, clear_bytes, aggregate_offset, prefix_offset, total;
};

Layout layout(std::size_t n, std::size_t tile, std::size_t value_size) {
  Layout l;
  l.tiles = (n + tile - 1) / tile;
  l.word_offset = sizeof(unsigned long long);  // after the counter
  l.state_offset = l.word_offset + l.tiles * sizeof(unsigned long long);
  l.clear_bytes = l.state_offset + l.tiles * sizeof(unsigned);
  l.aggregate_offset = segscan::aligned_bytes(l.clear_bytes);
  l.prefix_offset = l.aggregate_offset + segscan::aligned_bytes(l.tiles * value_size);
  l.total = l.prefix_offset + segscan::aligned_bytes(l.tiles * value_size);
  return l;
}

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts& device,
                         const segscan::LaunchPlan& requested) {
  segscan::LaunchPlan p;
  p.items = requested.items > 0 ? requested.items : kDefaultItems;
  std::size_t stage_bytes = 0;
  const void* kernel = segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    stage_bytes = p.items == 8    ? sizeof(segscan::WarpStage<T, 8>)
                  : p.items == 16 ? sizeof(segscan::WarpStage<T, 16>)
                                  : sizeof(segscan::WarpStage<T, 32>);
    return kernel_for<T, decltype(op)>(p.items);
  });
  // As many threads as asked, if the kernel's registers allow that many in a block and their warps'
  // stages fit in the shared memory a block may have.
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  p.threads = std::min(course::whole_warps(requested.threads, 512), attributes.maxThreadsPerBlock / 32 * 32);
  segscan::fit_warp_stages(kernel, attributes.sharedSizeBytes, stage_bytes, device, p, "step 08");
  p.scratch_bytes = layout(n, static_cast<std::size_t>(p.threads) * p.items, segscan::value_bytes(scan.type)).total;
  return p;
}

template <class T, class Op, int kItems>
void launch(const T* values, const std::uint8_t* flags, T* result, std::size_t n, const segscan::LaunchPlan& p,
            void* scratch, cudaStream_t stream) {
  const Layout l = layout(n, static_cast<std::size_t>(p.threads) * kItems, sizeof(T));
  auto* bytes = static_cast<unsigned char*>(scratch);
  unsigned* next_tile = reinterpret_cast<unsigned*>(bytes);
  const TileStatus<T> status{reinterpret_cast<unsigned long long*>(bytes + l.word_offset),
                             reinterpret_cast<unsigned*>(bytes + l.state_offset),
                             reinterpret_cast<T*>(bytes + l.aggregate_offset),
                             reinterpret_cast<T*>(bytes + l.prefix_offset)};
  CUDA_CHECK(cudaMemsetAsync(bytes, 0, l.clear_bytes, stream));
  scan_single_pass<T, Op, kItems><<<static_cast<unsigned>(l.tiles), p.threads, p.shared_bytes, stream>>>(
      values, flags, result, n, status, next_tile);
  CUDA_CHECK_LAUNCH();
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    using Op = decltype(op);
    const T* in = static_cast<const T*>(values);
    T* out = static_cast<T*>(result);
    switch (p.items) {
      case 8: launch<T, Op, 8>(in, flags, out, n, p, scratch, stream); break;
      case 16: launch<T, Op, 16>(in, flags, out, n, p, scratch, stream); break;
      default: launch<T, Op, 32>(in, flags, out, n, p, scratch, stream); break;
    }
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"08", "single pass, decoupled look-back", "gpu", nullptr, plan, run,
                                          segscan::kThreadsOption | segscan::kItemsOption};
