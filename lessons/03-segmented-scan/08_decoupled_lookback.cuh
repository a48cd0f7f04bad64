// Lesson 03, step 08's building blocks, used by step 09: the tiles' published states, the warp that
// looks back through them, how many blocks an SM should hold, the work of a block once it has its tile,
// and the host side of a single-pass step (its scratch, its launch plan and its launch). Step 08's
// header comment tells why each piece is as it is; a step hands this file its kernel (see
// plan_single_pass) and keeps only what it changes.
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "03_gpu_hillis_steele.cuh"
#include "04_shared_scan_then_propagate.cuh"
#include "06_warp_shuffle.cuh"
#include "07_registers_per_thread.cuh"
#include "course/check.h"
#include "course/launch.h"
#include "segmented_scan.h"

namespace segscan {

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
    // Lanes past the nearest prefix (older tiles that prefix already covers), and lanes before tile 0,
    // add nothing.
    if (!((needed >> lane) & 1u) || predecessor < 0) value = Op::template identity<T>();
    // Combine the window, the older tile (higher lane) always on the left.
#pragma unroll
    for (unsigned distance = 1; distance < 32; distance *= 2) {
      const T older = __shfl_down_sync(kFullWarp, value, distance);
      if (lane + distance < 32) value = Op()(older, value);
    }
    // Lane 0 now holds the whole window, which lies before every tile passed so far.
    newer = Op()(__shfl_sync(kFullWarp, value, 0), newer);
    if (prefixes) return newer;
  }
}

// How many blocks of 512 threads an SM should hold, which caps the registers of a thread at
// 65536 / (512 x blocks): 3 blocks, 40 registers; 2 blocks, 64; 1 block, 128. The kernel's registers
// grow with the bytes of a run, and for max and min the compiler asks for more than for sums and
// products. The counts were the fastest of 1, 2 and 3 blocks for each type and operator at 16 elements
// per thread on the H100 (the README's section on 8-byte elements), runs of 64 bytes (4-byte types)
// and 128 bytes (8-byte types); other run lengths get the count of their bytes, so a longer run asks
// for as many blocks or fewer. Capped lower, a kernel spills registers to memory and slows down.
template <class T, class Op, int kItems>
constexpr int blocks_per_sm() {
  constexpr bool max_or_min = std::is_same<Op, Max>::value || std::is_same<Op, Min>::value;
  constexpr int run_bytes = kItems * static_cast<int>(sizeof(T));
  constexpr int blocks = run_bytes <= 64 ? 3 : run_bytes <= 128 ? 2 : 1;
  return max_or_min && blocks > 1 ? blocks - 1 : blocks;
}

// What a block of a single-pass kernel does once it has its tile: the tile, as in step 07 with
// --staged-loads (each warp's runs pass through its stage in shared memory, every access coalesced;
// each thread scans its run in registers; the block scans the runs' totals), then the publication and
// the look-back, then the stores.
template <class T, class Op, int kItems>
__device__ __forceinline__ void scan_tile_and_look_back(const T* values, const std::uint8_t* flags, T* result,
                                                        std::size_t n, const TileStatus<T>& status, unsigned tile) {
  __shared__ BlockScanStorage<T> storage;
  __shared__ T carried;
  const std::size_t warp_first = (tile * static_cast<std::size_t>(blockDim.x) + threadIdx.x / 32 * 32) * kItems;
  WarpStage<T, kItems>& stage = warp_stage<T, kItems>();
  ThreadItems<T, kItems> items;
  load_items_staged(values, flags, warp_first, n, stage, items);
  const Flagged<T> run_total = scan_items<Op>(items);
  Flagged<T> tile_total;
  const Flagged<T> prefix = block_exclusive_scan<Op>(run_total, storage, tile_total);

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
        // A tile with a head published its prefix above; one without has it only now.
        if (!tile_total.flag) publish(status, tile, kPrefixReady, Op()(before, tile_total.value));
        carried = before;
      }
    }
  }
  if (!needs_carry) add_prefix<Op>(prefix, items);
  if (!warp_waits) store_items_staged(items, result, warp_first, n, stage);
  __syncthreads();  // `carried`, written by thread 0, is read by every thread that needs it
  if (needs_carry) add_prefix<Op>(segmented<Op>(Flagged<T>{carried, 0}, prefix), items);
  if (warp_waits) store_items_staged(items, result, warp_first, n, stage);
}

// ---- The host side of a single-pass step -------------------------------------------------------

// Scratch: the tile counter and the status words and states (cleared together before each run), then
// the 8-byte values' aggregates and prefixes.
struct Layout {
  std::size_t tiles, word_offset, state_offset, clear_bytes, aggregate_offset, prefix_offset, total;
};

inline Layout layout(std::size_t n, std::size_t tile, std::size_t value_size) {
  Layout l;
  l.tiles = (n + tile - 1) / tile;
  l.word_offset = sizeof(unsigned long long);  // after the counter
  l.state_offset = l.word_offset + l.tiles * sizeof(unsigned long long);
  l.clear_bytes = l.state_offset + l.tiles * sizeof(unsigned);
  l.aggregate_offset = aligned_bytes(l.clear_bytes);
  l.prefix_offset = l.aggregate_offset + aligned_bytes(l.tiles * value_size);
  l.total = l.prefix_offset + aligned_bytes(l.tiles * value_size);
  return l;
}

/// How many elements the blocks of @p kernel launched as @p p keep on one SM at once: the blocks the
/// occupancy calculator says fit (registers, shared memory, threads) x threads x elements per thread.
inline long long resident_elements(const void* kernel, const LaunchPlan& p) {
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, p.threads, p.shared_bytes));
  return static_cast<long long>(blocks) * p.threads * p.items;
}

/// A single-pass kernel for elements of type T: values, flags, result, n, the tiles' states, the tile
/// counter, then what the step adds (step 09: how many tiles ahead it prefetches).
template <class T, class... Extra>
using SinglePassKernel = void (*)(const T*, const std::uint8_t*, T*, std::size_t, TileStatus<T>, unsigned*, Extra...);

/// Calls @p f with the run length @p items (8, 16 or 32) as a compile-time constant,
/// std::integral_constant<int, items>, for the templates that take it.
template <class F>
decltype(auto) with_run_length(int items, F&& f) {
  switch (items) {
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: return f(std::integral_constant<int, 32>{});
  }
}

/// The kernel of step `Kernels` for the scan's element type and operator and `items` elements per thread:
/// `Kernels::kernel<T, Op, kItems>()`, the one thing a single-pass step tells this file.
template <class Kernels, class T, class Op>
auto single_pass_kernel(int items) {
  return with_run_length(items, [](auto run) { return Kernels::template kernel<T, Op, decltype(run)::value>(); });
}

/// The launch of a single-pass step with `items` elements per thread (its kernel in @p kernel): as many
/// threads as asked (whole warps, up to 512) if the kernel's registers allow that many in a block and
/// their warps' stages fit in the shared memory a block may have, and scratch for the tiles' states.
template <class Kernels>
LaunchPlan plan_single_pass_for(int items, std::size_t n, Scan scan, const course::DeviceFacts& device,
                                const LaunchPlan& requested, const void*& kernel) {
  LaunchPlan p;
  p.items = items;
  std::size_t stage_bytes = 0;
  kernel = with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    stage_bytes = with_run_length(items, [](auto run) { return sizeof(WarpStage<T, decltype(run)::value>); });
    return reinterpret_cast<const void*>(single_pass_kernel<Kernels, T, decltype(op)>(items));
  });
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  p.threads = std::min(course::whole_warps(requested.threads, 512), attributes.maxThreadsPerBlock / 32 * 32);
  fit_warp_stages(kernel, attributes.sharedSizeBytes, stage_bytes, device, p,
                  (std::string("step ") + kThisStep.number).c_str());
  p.scratch_bytes = layout(n, static_cast<std::size_t>(p.threads) * p.items, value_bytes(scan.type)).total;
  return p;
}

/// The launch of a single-pass step: with --items, that run length; without, the run length of 8, 16
/// and 32 whose blocks keep the most elements on an SM at once (resident_elements), the shorter on a
/// tie. `Kernels` is the step's kernel, as single_pass_kernel takes it.
template <class Kernels>
LaunchPlan plan_single_pass(std::size_t n, Scan scan, const course::DeviceFacts& device, const LaunchPlan& requested) {
  const void* kernel = nullptr;
  if (requested.items > 0) return plan_single_pass_for<Kernels>(requested.items, n, scan, device, requested, kernel);
  LaunchPlan best;
  long long most = -1;
  for (int items : {8, 16, 32}) {
    const LaunchPlan p = plan_single_pass_for<Kernels>(items, n, scan, device, requested, kernel);
    const long long resident = resident_elements(kernel, p);
    if (resident > most) best = p, most = resident;
  }
  return best;
}

/// Enqueues a single-pass step's scan: clears the tile counter and the states, then launches one block
/// per tile of the step's kernel, with @p extra after the arguments every single-pass kernel takes.
template <class Kernels, class... Extra>
void run_single_pass(const void* values, const std::uint8_t* flags, void* result, std::size_t n, Scan scan,
                     const LaunchPlan& p, void* scratch, cudaStream_t stream, Extra... extra) {
  with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    const SinglePassKernel<T, Extra...> kernel = single_pass_kernel<Kernels, T, decltype(op)>(p.items);
    const Layout l = layout(n, static_cast<std::size_t>(p.threads) * p.items, sizeof(T));
    auto* bytes = static_cast<unsigned char*>(scratch);
    const TileStatus<T> status{reinterpret_cast<unsigned long long*>(bytes + l.word_offset),
                               reinterpret_cast<unsigned*>(bytes + l.state_offset),
                               reinterpret_cast<T*>(bytes + l.aggregate_offset),
                               reinterpret_cast<T*>(bytes + l.prefix_offset)};
    CUDA_CHECK(cudaMemsetAsync(bytes, 0, l.clear_bytes, stream));
    kernel<<<static_cast<unsigned>(l.tiles), p.threads, p.shared_bytes, stream>>>(
        static_cast<const T*>(values), flags, static_cast<T*>(result), n, status, reinterpret_cast<unsigned*>(bytes),
        extra...);
    CUDA_CHECK_LAUNCH();
  });
}

}  // namespace segscan
