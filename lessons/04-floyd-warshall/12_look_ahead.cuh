// Lesson 04, step 12: the look-ahead's schedule and the two parts of round kb's phase 3 that it
// launches apart (the story is in 12_look_ahead.cu). Step 13 runs the same schedule with its own
// phase-3 kernel; step 14 launches the same parts on each GPU's band.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "07_blocked_shared_tiles.cuh"
#include "08_blocked_register_tiles.cuh"
#include "09_register_phases.cuh"
#include "11_min_plus_panels.cuh"
#include "course/check.h"
#include "floyd_warshall.h"

namespace floyd_warshall {

// Round kb's phase 3 on the cross of round kb + 1: grid tiles x 2, row kb + 1 (blockIdx.y == 0)
// then column kb + 1 without the tile they share.
struct NextCrossTiles {
  __device__ static bool pick(int kb, int& bi, int& bj) {
    const int x = static_cast<int>(blockIdx.x), next = kb + 1;
    bi = blockIdx.y == 0 ? next : x;
    bj = blockIdx.y == 0 ? x : next;
    return bi != kb && bj != kb && !(blockIdx.y == 1 && x == next);
  }
};

// Round kb's phase 3 on everything else: grid tiles x tiles.
struct RestTiles {
  __device__ static bool pick(int kb, int& bi, int& bj) {
    bi = static_cast<int>(blockIdx.y), bj = static_cast<int>(blockIdx.x);
    return bi != kb && bj != kb && bi != kb + 1 && bj != kb + 1;
  }
};

// The rounds with the look-ahead, at width kTile. min_plus(work, padded, kb, tiles, grid, s) launches
// the step's min-plus kernel for round kb on `grid` blocks and stream s, over the tiles that the
// picker `tiles` (a Phase3Tiles, PanelTiles, NextCrossTiles or RestTiles) names: step 12's
// min_plus_registers, step 13's lean_min_plus. Phase 1 is step 09's.
template <int kTile, class MinPlus>
void run_look_ahead(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
                    cudaStream_t stream, MinPlus min_plus) {
  std::int32_t* work = start_padded(graph, dist, n, p.padded, scratch, stream);
  const int padded = static_cast<int>(p.padded), tiles = padded / kTile;
  const auto phases_1_and_2 = [&](int kb, cudaStream_t s) {  // phase 2 as step 11's panels
    launch_phase1<kTile>(work, padded, kb, s);
    if (tiles > 1) min_plus(work, padded, kb, PanelTiles{}, dim3(tiles - 1, 2), s);
  };

  int lowest_priority = 0, highest_priority = 0;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest_priority, &highest_priority));
  cudaStream_t ahead;
  CUDA_CHECK(cudaStreamCreateWithPriority(&ahead, cudaStreamNonBlocking, highest_priority));
  cudaEvent_t round_start, ahead_done;
  CUDA_CHECK(cudaEventCreateWithFlags(&round_start, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&ahead_done, cudaEventDisableTiming));

  phases_1_and_2(0, stream);
  for (int kb = 0; kb < tiles; ++kb) {
    if (kb + 1 == tiles) {  // the last round: nothing to look ahead to
      min_plus(work, padded, kb, Phase3Tiles{}, dim3(tiles, tiles), stream);
      break;
    }
    // Fork: the look-ahead stream starts once round kb - 1 is complete on both streams.
    CUDA_CHECK(cudaEventRecord(round_start, stream));
    CUDA_CHECK(cudaStreamWaitEvent(ahead, round_start, 0));
    min_plus(work, padded, kb, NextCrossTiles{}, dim3(tiles, 2), ahead);
    phases_1_and_2(kb + 1, ahead);
    CUDA_CHECK(cudaEventRecord(ahead_done, ahead));
    min_plus(work, padded, kb, RestTiles{}, dim3(tiles, tiles), stream);
    // Join: round kb + 1 needs both halves.
    CUDA_CHECK(cudaStreamWaitEvent(stream, ahead_done, 0));
  }
  finish_padded(work, dist, n, p.padded, stream);

  // Released once the work queued on them is done.
  CUDA_CHECK(cudaEventDestroy(round_start));
  CUDA_CHECK(cudaEventDestroy(ahead_done));
  CUDA_CHECK(cudaStreamDestroy(ahead));
}

}  // namespace floyd_warshall
