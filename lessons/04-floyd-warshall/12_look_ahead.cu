// Lesson 04, step 12: look-ahead, the next round's phases 1 and 2 beside this round's phase 3.
//
// What changed: the order of the launches, not the kernels. In step 11 each round waits for the
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
// launch per round (phase 3 in two parts). The schedule is in 12_look_ahead.cuh (run_look_ahead),
// because step 13 runs it with a phase-3 kernel of its own.
//
// Launch: as step 08 (rounds of 64 or 128 by n, or --tile; n padded to that width); --threads and
// --blocks are ignored.
#include "floyd_warshall.h"
#include "08_blocked_register_tiles.cuh"
#include "10_double_buffered_copies.cuh"
#include "12_look_ahead.cuh"

namespace {

using floyd_warshall::LaunchPlan;
using floyd_warshall::MicroTileBlock;

// The schedule (run_look_ahead), with every min-plus launch by step 10's kernel, two stages.
template <int kTile>
void run_at_width(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
                  cudaStream_t stream) {
  floyd_warshall::run_look_ahead<kTile>(
      graph, dist, n, p, scratch, stream,
      [](std::int32_t* work, int padded, int kb, auto tiles, dim3 grid, cudaStream_t s) {
        floyd_warshall::min_plus_registers<decltype(tiles), 2, kTile>
            <<<grid, MicroTileBlock<kTile>::kThreads, 0, s>>>(work, padded, kb);
        CUDA_CHECK_LAUNCH();
      });
}

// Rounds of 128 or 64, as the plan chose (08_blocked_register_tiles.cuh).
void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  floyd_warshall::at_width(p.tile, [&](auto width) { run_at_width<width()>(graph, dist, n, p, scratch, stream); });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "12", "look-ahead: next round's phases 1 and 2 beside phase 3", "gpu", nullptr,
    floyd_warshall::register_tiles_plan_for_n, run,
    floyd_warshall::kDefaultVertices, 2049, false, true};
