// Lesson 02, max reduction: the plumbing the GPU steps share: the identity of max and how a step's
// launch is sized. The device code each step teaches is in that step's file, or in a header named
// after it (03_gpu_global_atomics.cuh, 06_warp_shuffle.cuh, 07_persistent_vector_loads.cuh) when a
// later step reuses it.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

#include "course/launch.h"
#include "max_reduction.h"

namespace max_reduction {

/// The identity of max: every float is >= -infinity.
constexpr float kLowest = -INFINITY;

// Threads per block for a tree reduction, which halves the block each round: --threads (or
// `preferred` when it is 0) rounded down to a power of two within [32, 1024].
inline int power_of_two_threads(int requested, int preferred) {
  const int threads = requested > 0 ? requested : preferred;
  int p = 32;
  while (p * 2 <= threads && p < 1024) p *= 2;
  return p;
}

// One thread per element: as many blocks of `threads` as it takes to cover n.
inline LaunchPlan one_thread_per_element(std::size_t n, int threads) {
  LaunchPlan p;
  p.threads = threads;
  p.blocks = static_cast<int>((n + threads - 1) / threads);
  return p;
}

}  // namespace max_reduction
