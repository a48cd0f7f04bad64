// Lesson 04, step 13: step 12's rounds with a lean phase-3 loop: fewer instructions that are not
// add-mins.
//
// What changed: phase 3's kernel (and the panels', which is the same kernel), not the schedule. At
// n = 8192 phase 3 makes nearly every update, and its add-mins run on the integer pipe, one instruction
// per lane-update; every other instruction on that pipe (shifts, logic, 32-bit adds, compares) takes a
// slot an add-min could have had. In min_plus_registers the inner loop is already lean (the disassembly
// shows 256 VIADDMNMX, 16 shared loads, 4 address multiplies, a compare and a branch for 4 values of
// k), but around it, each chunk of 16 values of k
//   - copies the column slice transposed, 4 bytes at a time: eight cp.async a thread, each with its own
//     64-bit address worked out by divisions, shifts and adds, in a loop the compiler cannot unroll
//     (its trip count depends on threadIdx.x);
//   - has two barriers, one before computing and one after, so that the next copy into the stage
//     waits until every warp is done with it.
// Step 13 (13_lean_main_loop.cuh):
//   - copies the column slice as it lies in memory, rows of 16 bytes (a[r][k], rows padded by four
//     words so that the two rows a warp reads at once fall in different banks); the inner loop reads
//     four values of k of one row with one 16-byte load, so it still needs 16 shared loads for four k;
//   - gives each thread the same pieces of every chunk, a fixed distance further on, so that it
//     computes its source addresses once per tile and then only moves two offsets along;
//   - waits, then meets the others at ONE barrier per chunk, and only after it starts the copy into the
//     stage that the previous chunk used: everyone has passed the barrier, so everyone is done with it;
//   - stages 16 or 32 values of k per chunk (--chunk) in 2 or 3 stages (--stages): 32 halves the
//     barriers and the copy starts again; three stages keep two chunks in flight.
//
// Why it is faster: fewer integer-pipe instructions that are not updates, and half the barriers (or
// a quarter, with chunks of 32), each of which stalls a block's warps until the slowest arrives.
//
// What it costs: more shared memory for the deeper shapes (two blocks of 128-wide tiles must still fit
// on an SM, the plan checks it), and one more template for the launches to pick.
//
// Two tunings of the same loop, off by default: --rows 16 gives each thread 16 rows of 8 (128
// distances in registers, 24 shared loads for 512 add-mins where 8 x 8 needs 16 for 256) in half the
// threads; --tiles-per-block 2, 4 or 8 has the bulk of each round's phase 3 done by blocks that take
// that many tiles in turn from a counter, copying the next tile's first chunks during the current
// tile's last ones (lean_min_plus_tiles).
//
// Launch: as step 12 (rounds of 64 or 128 by n, or --tile; n padded to that width); --chunk and
// --stages, or the deepest shape that keeps two blocks of 256 threads (eight of 64) on each SM (with
// --rows 16, two of 128 or eight of 32); --threads and --blocks are ignored.
#include <type_traits>

#include "floyd_warshall.h"
#include "12_look_ahead.cuh"
#include "13_lean_main_loop.cuh"

namespace {

using floyd_warshall::LaunchPlan;

// Step 12's schedule (run_look_ahead), every min-plus launch by lean_min_plus; with more than one
// tile a block (and so 16 rows a thread), the bulk of each round's phase 3 (RestTiles) by lean_min_plus_tiles, whose counters
// start at zero.
template <int kTile, int kChunk, int kStages, int kRows>
void run_lean(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
              cudaStream_t stream) {
  unsigned* handed_out = nullptr;
  if (p.tiles_per_block > 1) {
    handed_out = floyd_warshall::lean_tile_counters(scratch, p);
    CUDA_CHECK(cudaMemsetAsync(handed_out, 0, p.padded / kTile * sizeof(unsigned), stream));
  }
  floyd_warshall::run_look_ahead<kTile>(
      graph, dist, n, p, scratch, stream,
      [&](std::int32_t* work, int padded, int kb, auto tiles, dim3 grid, cudaStream_t s) {
        if constexpr (kRows == 16 && std::is_same_v<decltype(tiles), floyd_warshall::RestTiles>) {
          if (handed_out != nullptr) {
            floyd_warshall::launch_lean_tiles<kTile, kChunk, kStages, kRows>(work, padded, kb, handed_out,
                                                                             p.tiles_per_block, s);
            return;
          }
        }
        floyd_warshall::launch_lean<decltype(tiles), kTile, kChunk, kStages, kRows>(work, padded, kb, grid, s);
      });
}

// Rounds of 128 or 64, slices of 16 or 32 in 2 or 3 stages, micro-tiles of 8 or 16 rows, as the plan chose.
void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  floyd_warshall::at_width(p.tile, [&](auto width) {
    floyd_warshall::at_slices(p.chunk, p.stages, p.rows, [&](auto chunk, auto stages, auto rows) {
      run_lean<decltype(width)::value, decltype(chunk)::value, decltype(stages)::value, decltype(rows)::value>(
          graph, dist, n, p, scratch, stream);
    });
  });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "13", "lean phase-3 loop: 16-byte slices, one barrier a chunk", "gpu", nullptr,
    floyd_warshall::lean_plan, run,
    floyd_warshall::kDefaultVertices, 2049, false, true, false, true};
