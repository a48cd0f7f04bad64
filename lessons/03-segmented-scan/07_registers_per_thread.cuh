// Lesson 03, step 07's building blocks, used by step 08 (and 09): a thread's run of consecutive elements in
// registers, loaded and stored with 16-byte accesses (or, with --staged-loads, accesses staged through
// shared memory), and scanned sequentially.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "03_gpu_hillis_steele.cuh"
#include "course/launch.h"
#include "segmented_scan.h"

namespace segscan {

/// The elements of one thread: `kItems` consecutive values in registers, and their head flags as the
/// bits of one word (bit k: element k starts a segment): one 32-bit word instead of kItems bytes.
template <class T, int kItems>
struct ThreadItems {
  static_assert(kItems <= 32, "one bit per element in a 32-bit word");
  T values[kItems];
  unsigned heads;
};

/// Copies `kBytes` bytes (a multiple of 8) from 16- or 8-byte aligned global memory into a register
/// array with the widest accesses that fit. Indices are compile-time constants, so `to` stays in
/// registers.
template <int kBytes, class Element>
__device__ inline void load_wide(const void* from, Element* to) {
  static_assert(kBytes % 8 == 0, "whole 8-byte words");
  if constexpr (kBytes % 16 == 0) {
#pragma unroll
    for (int c = 0; c < kBytes / 16; ++c) {
      const uint4 chunk = static_cast<const uint4*>(from)[c];
      std::memcpy(reinterpret_cast<unsigned char*>(to) + 16 * c, &chunk, 16);
    }
  } else {
#pragma unroll
    for (int c = 0; c < kBytes / 8; ++c) {
      const uint2 chunk = static_cast<const uint2*>(from)[c];
      std::memcpy(reinterpret_cast<unsigned char*>(to) + 8 * c, &chunk, 8);
    }
  }
}

/// The reverse: a register array to aligned global memory, 16 bytes at a time.
template <int kBytes, class Element>
__device__ inline void store_wide(const Element* from, void* to) {
  static_assert(kBytes % 16 == 0, "whole 16-byte words");
#pragma unroll
  for (int c = 0; c < kBytes / 16; ++c) {
    uint4 chunk;
    std::memcpy(&chunk, reinterpret_cast<const unsigned char*>(from) + 16 * c, 16);
    static_cast<uint4*>(to)[c] = chunk;
  }
}

/// Loads elements first .. first + kItems - 1. A whole run inside the array, from aligned arrays, is
/// read with wide loads; otherwise element by element, with elements past the end made heads (so that
/// nothing there reaches back).
template <class T, int kItems>
__device__ inline void load_items(const T* values, const std::uint8_t* flags, std::size_t first, std::size_t n,
                                  bool aligned, ThreadItems<T, kItems>& items) {
  std::uint8_t bytes[kItems];
  if (aligned && first + kItems <= n) {
    load_wide<kItems * sizeof(T)>(values + first, items.values);
    load_wide<kItems>(flags + first, bytes);
  } else {
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
      const bool inside = first + k < n;
      items.values[k] = inside ? values[first + k] : T{};
      bytes[k] = inside ? flags[first + k] : 1;
    }
  }
  items.heads = 0;
#pragma unroll
  for (int k = 0; k < kItems; ++k) items.heads |= static_cast<unsigned>(bytes[k] != 0) << k;
}

/// Stores the values of elements first .. first + kItems - 1 that lie inside the array.
template <class T, int kItems>
__device__ inline void store_items(const ThreadItems<T, kItems>& items, T* result, std::size_t first, std::size_t n,
                                   bool aligned) {
  if (aligned && first + kItems <= n) {
    store_wide<kItems * sizeof(T)>(items.values, result + first);
    return;
  }
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (first + k < n) result[first + k] = items.values[k];
}

/// Staged accesses (--staged-loads): a warp's 32 runs, 32 x kItems consecutive elements, travel
/// between global memory and the threads' registers through shared memory. In global memory the warp
/// reads and writes 32 neighbouring elements per instruction (coalesced: every byte of a sector is
/// used); in shared memory each thread picks up its own run. The flags travel four at a time, one
/// 4-byte word per lane, and each thread reads its run's kItems flags with one or two wide loads
/// (for 8 and 16 elements per thread, the lanes of a load phase read neighbouring words: no conflict).
template <class T, int kItems>
struct alignas(16) WarpStage {
  T values[32 * (kItems + 1)];  // with room for the padding of staged_slot
  std::uint8_t flags[32 * kItems];
};

/// The stage of the calling thread's warp, in the block's dynamic shared memory (one WarpStage per warp).
template <class T, int kItems>
__device__ inline WarpStage<T, kItems>& warp_stage() {
  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  return reinterpret_cast<WarpStage<T, kItems>*>(dynamic_shared)[threadIdx.x / 32];
}

/// The launch of a kernel whose warps each hold a WarpStage of `stage_bytes` in dynamic shared memory:
/// caps p.threads so that their stages fit beside the kernel's `static_bytes` in what a block may have
/// (at least one warp; where not even that fits, require_shared_memory says so, a SKIP), sets
/// p.shared_bytes and raises the kernel's limit to it.
inline void fit_warp_stages(const void* kernel, std::size_t static_bytes, std::size_t stage_bytes,
                            const course::DeviceFacts& device, LaunchPlan& p, const char* what) {
  const std::size_t room = device.shared_memory_per_block_optin - static_bytes;
  p.threads = std::min(p.threads, std::max(1, static_cast<int>(room / stage_bytes)) * 32);
  p.shared_bytes = static_cast<std::size_t>(p.threads / 32) * stage_bytes;
  course::require_shared_memory(kernel, p.shared_bytes, device, what);
}

/// The slot of the warp's element p (0 .. 32 kItems - 1) in the stage, padded so that both ways of
/// reading it are free of bank conflicts: 32 lanes taking 32 neighbouring elements, and 32 lanes taking
/// element k of their own runs (p = lane x kItems + k).
///   4-byte elements: one spare slot after every 32 elements. Neighbours stay neighbours, and lane
///     `lane`'s element k lands in bank (lane x kItems + lane x kItems / 32 + k) mod 32, a different
///     bank for every lane (for kItems = 16: 16 lane + lane / 2 + k).
///   8-byte elements, two banks each, read half a warp at a time: one spare slot after every run. A
///     half warp's 16 neighbours then lie in one run or two, consecutive either way, and element k of
///     16 lanes' runs lands kItems + 1 slots apart, an odd number: 16 different pairs of banks.
template <class T, int kItems>
__device__ constexpr int staged_slot(int p) {
  return sizeof(T) == 4 ? p + p / 32 : p / kItems * (kItems + 1) + p % kItems;
}

/// Bit k set where byte k of the kBytes (a multiple of 4) bytes in @p words is not zero.
template <int kBytes>
__device__ inline unsigned nonzero_bytes(const unsigned* words) {
  unsigned bits = 0;
#pragma unroll
  for (int w = 0; w < kBytes / 4; ++w)
#pragma unroll
    for (int b = 0; b < 4; ++b) bits |= static_cast<unsigned>(((words[w] >> (8 * b)) & 0xffu) != 0) << (4 * w + b);
  return bits;
}

/// Loads the warp's elements warp_first .. warp_first + 32 kItems - 1 through @p stage (every lane of
/// the warp calls it); the thread gets its own run, with elements past the end made heads.
template <class T, int kItems>
__device__ inline void load_items_staged(const T* values, const std::uint8_t* flags, std::size_t warp_first,
                                         std::size_t n, WarpStage<T, kItems>& stage, ThreadItems<T, kItems>& items) {
  static_assert(kItems % 8 == 0, "a run's flags are whole 8-byte words");
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {  // element p = 32 j + lane of the warp's stretch: neighbouring lanes, neighbours
    const int p = 32 * j + lane;
    stage.values[staged_slot<T, kItems>(p)] = warp_first + p < n ? values[warp_first + p] : T{};
  }
  // The flags: 4-byte words where the stretch lies inside the array and is 4-byte aligned, else bytes.
  auto* flag_words = reinterpret_cast<unsigned*>(stage.flags);
  if (warp_first + 32 * kItems <= n && reinterpret_cast<std::uintptr_t>(flags + warp_first) % 4 == 0) {
#pragma unroll
    for (int j = 0; j < kItems / 4; ++j)
      flag_words[32 * j + lane] = reinterpret_cast<const unsigned*>(flags + warp_first)[32 * j + lane];
  } else {
#pragma unroll
    for (int j = 0; j < kItems; ++j) {
      const int p = 32 * j + lane;
      stage.flags[p] = warp_first + p < n ? flags[warp_first + p] : 1;
    }
  }
  __syncwarp();
#pragma unroll
  for (int k = 0; k < kItems; ++k) items.values[k] = stage.values[staged_slot<T, kItems>(lane * kItems + k)];
  unsigned run_flags[kItems / 4];  // the run's flags, read 16 (or 8) bytes at a time
  if constexpr (kItems % 16 == 0) {
#pragma unroll
    for (int c = 0; c < kItems / 16; ++c) {
      const uint4 v = reinterpret_cast<const uint4*>(stage.flags + lane * kItems)[c];
      run_flags[4 * c] = v.x, run_flags[4 * c + 1] = v.y, run_flags[4 * c + 2] = v.z, run_flags[4 * c + 3] = v.w;
    }
  } else {
    const uint2 v = reinterpret_cast<const uint2*>(stage.flags + lane * kItems)[0];
    run_flags[0] = v.x, run_flags[1] = v.y;
  }
  items.heads = nonzero_bytes<kItems>(run_flags);
  __syncwarp();  // every lane has its run before the stage is written again
}

/// The reverse: each thread puts its run into @p stage, then the warp writes its stretch to global
/// memory 32 neighbouring elements at a time, those inside the array.
template <class T, int kItems>
__device__ inline void store_items_staged(const ThreadItems<T, kItems>& items, T* result, std::size_t warp_first,
                                          std::size_t n, WarpStage<T, kItems>& stage) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int k = 0; k < kItems; ++k) stage.values[staged_slot<T, kItems>(lane * kItems + k)] = items.values[k];
  __syncwarp();
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const int p = 32 * j + lane;
    if (warp_first + p < n) result[warp_first + p] = stage.values[staged_slot<T, kItems>(p)];
  }
}

/// The position in the run of its first head, or kItems if it has none.
template <class T, int kItems>
__device__ inline int first_head_in(const ThreadItems<T, kItems>& items) {
  return items.heads ? __ffs(items.heads) - 1 : kItems;
}

/// The thread's own sequential segmented scan, in place. Returns the run's total: its last value, and
/// whether a segment starts in it.
template <class Op, class T, int kItems>
__device__ inline Flagged<T> scan_items(ThreadItems<T, kItems>& items) {
#pragma unroll
  for (int k = 1; k < kItems; ++k)
    if (!((items.heads >> k) & 1u)) items.values[k] = Op()(items.values[k - 1], items.values[k]);
  return {items.values[kItems - 1], static_cast<std::uint8_t>(items.heads != 0)};
}

/// Completes a scanned run with the exclusive prefix of everything before it: the elements before the
/// run's first head continue `prefix`.
template <class Op, class T, int kItems>
__device__ inline void add_prefix(const Flagged<T>& prefix, ThreadItems<T, kItems>& items) {
  const int first_head = first_head_in(items);
#pragma unroll
  for (int k = 0; k < kItems; ++k)
    if (k < first_head) items.values[k] = Op()(prefix.value, items.values[k]);
}

}  // namespace segscan
