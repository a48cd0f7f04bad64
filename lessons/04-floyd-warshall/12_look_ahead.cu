// Lesson 04, step 11: look-ahead, the next round's phases 1 and 2 beside this round's phase 3.
//
// What changed: the order of the launches, not the kernels. In step 10 each round waits for the
// previous one to finish completely, and phase 1 (one block, the round's 64 or 128 values of k one
// after another) runs while the rest of the GPU is idle. But round kb + 1's phases 1 and 2 need only
// the tiles of row kb + 1 and column kb + 1 (the "cross" of round kb + 1), and those need only round
// kb's phase 3 on that cross. So round kb's phase 3 is split in two launches:
//   - the cross of round kb + 1 (its row and column, less row and column kb), on a second stream,
//     followed there by round kb + 1's phases 1 and 2;
//   - every other tile of round kb, on the step's stream, at the same time.
// For n = 640 with rounds of 128 (--tile 128, 5 tiles a side) and kb = 1: A marks the cross of
// round 2, updated first on the second stream, then closed by round 2's phases 1 and 2 there; B
// marks the rest of round 1's phase 3, running meanwhile; row and column 1 (-) were finished by round
// 1's phases 1 and 2.
//
//               tile column 0  1  2  3  4
//   tile row 0              B  -  A  B  B
//   tile row 1              -  -  -  -  -
//   tile row 2              A  -  A  A  A
//   tile row 3              B  -  A  B  B
//   tile row 4              B  -  A  B  B
//
// Round kb + 1's phase 3 then starts as soon as both streams are done with round kb. The second
// stream has the higher priority, so when an SM frees up the block scheduler serves the short,
// serial chain first (it is on the critical path) and the long phase 3 fills the rest.
//
// Why it is faster: phase 1 and the panels no longer leave the GPU idle between the phase-3
// launches. What it costs: a second stream, two events, a fork and a join per round, and one more
// launch per round (phase 3 in two parts).
//
// Launch: as step 08 (rounds of 64 or 128 by n, or --tile; n padded to that width); --threads and
// --blocks are ignored.
#include "floyd_warshall.h"
#include "07_blocked_shared_tiles.cuh"
#include "09_double_buffered_copies.cuh"
#include "10_min_plus_panels.cuh"

namespace {

using floyd_warshall::LaunchPlan;
using floyd_warshall::MicroTileBlock;

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

template <int kTile>
void run_at_width(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
                  cudaStream_t stream) {
  constexpr int kThreads = MicroTileBlock<kTile>::kThreads;
  std::int32_t* work = floyd_warshall::start_padded(graph, dist, n, p.padded, scratch, stream);
  const int padded = static_cast<int>(p.padded), tiles = padded / kTile;

  int lowest_priority = 0, highest_priority = 0;
  CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest_priority, &highest_priority));
  cudaStream_t ahead;
  CUDA_CHECK(cudaStreamCreateWithPriority(&ahead, cudaStreamNonBlocking, highest_priority));
  cudaEvent_t round_start, ahead_done;
  CUDA_CHECK(cudaEventCreateWithFlags(&round_start, cudaEventDisableTiming));
  CUDA_CHECK(cudaEventCreateWithFlags(&ahead_done, cudaEventDisableTiming));

  floyd_warshall::launch_phase1<kTile>(work, padded, 0, stream);
  floyd_warshall::launch_panels<kTile>(work, padded, 0, stream);
  for (int kb = 0; kb < tiles; ++kb) {
    if (kb + 1 == tiles) {  // the last round: nothing to look ahead to
      floyd_warshall::min_plus_registers<floyd_warshall::Phase3Tiles, 2, kTile>
          <<<dim3(tiles, tiles), kThreads, 0, stream>>>(work, padded, kb);
      CUDA_CHECK_LAUNCH();
      break;
    }
    // Fork: the look-ahead stream starts once round kb - 1 is complete on both streams.
    CUDA_CHECK(cudaEventRecord(round_start, stream));
    CUDA_CHECK(cudaStreamWaitEvent(ahead, round_start, 0));
    floyd_warshall::min_plus_registers<NextCrossTiles, 2, kTile>
        <<<dim3(tiles, 2), kThreads, 0, ahead>>>(work, padded, kb);
    CUDA_CHECK_LAUNCH();
    floyd_warshall::launch_phase1<kTile>(work, padded, kb + 1, ahead);
    floyd_warshall::launch_panels<kTile>(work, padded, kb + 1, ahead);
    CUDA_CHECK(cudaEventRecord(ahead_done, ahead));
    floyd_warshall::min_plus_registers<RestTiles, 2, kTile>
        <<<dim3(tiles, tiles), kThreads, 0, stream>>>(work, padded, kb);
    CUDA_CHECK_LAUNCH();
    // Join: round kb + 1 needs both halves.
    CUDA_CHECK(cudaStreamWaitEvent(stream, ahead_done, 0));
  }
  floyd_warshall::finish_padded(work, dist, n, p.padded, stream);

  // Released once the work queued on them is done.
  CUDA_CHECK(cudaEventDestroy(round_start));
  CUDA_CHECK(cudaEventDestroy(ahead_done));
  CUDA_CHECK(cudaStreamDestroy(ahead));
}

// Rounds of 128 or 64, as the plan chose (08_blocked_register_tiles.cuh).
void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  floyd_warshall::at_width(p.tile, [&](auto width) { run_at_width<width()>(graph, dist, n, p, scratch, stream); });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "11", "look-ahead: next round's phases 1 and 2 beside phase 3", "gpu", nullptr,
    floyd_warshall::register_tiles_plan_for_n, run,
    floyd_warshall::kDefaultVertices, 2049, false, true};
