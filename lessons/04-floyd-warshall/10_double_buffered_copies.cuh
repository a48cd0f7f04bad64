// Lesson 04, step 10: phase 3's two shared-memory stages (the story is in 10_double_buffered_copies.cu).
// Steps 11, 12 and 14 include this header too: their phase 3 runs with two stages.
#pragma once

#include <cuda_pipeline.h>

#include "08_blocked_register_tiles.cuh"

namespace floyd_warshall {

// Two stages (step 10 on), used in turn: before computing with chunk c in stage c % 2, start the copy
// of chunk c + 1 into the other stage, then wait only for chunk c. Against step 09's ChunkLoop<1>,
// the copy moves from after the computation to before it, and the wait lets one chunk stay in flight.
template <int kTile>
struct ChunkLoop<2, kTile> {
  __device__ __forceinline__ static void run(const StagedChunks<kTile>& chunks, std::int32_t best[kMicroTile][kMicroTile]) {
    constexpr int kChunks = kTile / kStagedK;
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      const int stage = chunk % 2, next = 1 - stage;
      if (chunk + 1 < kChunks) {
        chunks.copy(next, chunk + 1);
        __pipeline_wait_prior(1);  // this thread's copies of `chunk` have landed (the next may still fly)
      } else {
        __pipeline_wait_prior(0);
      }
      __syncthreads();  // ... and everyone else's
      chunks.relax(stage, best);
      __syncthreads();  // everyone is done with this stage before the next copy into it
    }
  }
};

}  // namespace floyd_warshall
