// Lesson 04, step 04: the relaxation steps 04 to 06 apply, one (i, j, k) at a time.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"
#include "course/launch.h"
#include "floyd_warshall.h"
#include "floyd_warshall_device.cuh"

namespace floyd_warshall {

// The relaxation of steps 04 to 06: is the path i -> k -> j shorter than the best
// so far? Only an improvement is written. In round k neither row k nor column k can improve (the
// diagonal is 0, or kNoEdge for padding), so no thread ever writes what another thread reads in the
// same round, and elements that do not change cost no memory write.
__device__ inline void relax(std::int32_t* d_ij, std::int32_t d_ik, std::int32_t d_kj) {
  const std::int32_t through_k = d_ik + d_kj;  // both at most kNoEdge: no overflow
  if (through_k < *d_ij) *d_ij = through_k;
}

}  // namespace floyd_warshall
