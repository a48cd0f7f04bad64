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

}  // namespace matvec
