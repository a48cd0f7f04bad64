// Lesson 05, C = A^T (A v): the plumbing the GPU steps share. The device code each step teaches is in
// that step's file, or in a header named after it when a later step reuses it
// (04_shared_vector_tiles.cuh, 05_coalesced_warps.cuh).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "course/check.h"
#include "course/launch.h"
#include "matvec.h"

namespace matvec {

// The smaller of two sizes, on the host or the device (std::min is host-only).
__host__ __device__ inline std::size_t smaller(std::size_t a, std::size_t b) { return a < b ? a : b; }

// The smallest of 1, 2, 4, ... that, times `width` threads, covers `columns`: the values of a row each
// thread holds when `width` threads share it (step 07).
inline int values_per_thread(std::size_t columns, std::size_t width) {
  int e = 1;
  while (static_cast<std::size_t>(e) * width < columns) e *= 2;
  return e;
}

}  // namespace matvec
