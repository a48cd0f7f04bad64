// Lesson 05, C = A^T (A v): the plumbing the GPU steps share. The device code each step teaches is in
// that step's file, or in a header named after it when a later step reuses it
// (04_shared_vector_tiles.cuh, 05_coalesced_warps.cuh, ..., 09_bulk_copy.cuh, 10_wide_rows.cuh, 11_halving_sums.cuh).
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>

#include "course/check.h"
#include "course/launch.h"
#include "matvec.h"

namespace matvec {

// The smaller of two sizes, on the host or the device (std::min is host-only).
__host__ __device__ inline std::size_t smaller(std::size_t a, std::size_t b) { return a < b ? a : b; }

// A block's part of a sum, posted in global memory for other blocks to read (steps 08 to 11's group
// and wide layouts): one 64-bit word, a number in the high half (0: not posted yet; the scratch is
// zeroed before each launch) and the float in the low half. An aligned 64-bit store is seen whole or not at
// all, so a reader that finds the number it waits for has the value: no read-modify-write, no fence.
// Relaxed atomic loads and stores at device scope keep the compiler from keeping the word in a
// register and the loads from reading a stale copy in the SM's L1.
using PartWord = unsigned long long;

__device__ inline PartWord make_part(PartWord number, float value) {
  return (number << 32) | __float_as_uint(value);
}

__device__ inline void store_part(PartWord* word, PartWord part) {
  cuda::atomic_ref<PartWord, cuda::thread_scope_device>(*word).store(part, cuda::memory_order_relaxed);
}

__device__ inline PartWord load_part(const PartWord* word) {
  return cuda::atomic_ref<const PartWord, cuda::thread_scope_device>(*word).load(cuda::memory_order_relaxed);
}

// The smallest of 1, 2, 4, ... that, times `width` threads, covers `columns`: the values of a row each
// thread holds when `width` threads share it (step 07).
inline int values_per_thread(std::size_t columns, std::size_t width) {
  int e = 1;
  while (static_cast<std::size_t>(e) * width < columns) e *= 2;
  return e;
}

}  // namespace matvec
