// Lesson 04, step 11: phase 2 as a min-plus product, with no chain of k.
//
// What changed: phase 2 only. In steps 08 to 10 a block closes a tile of row kb (or column kb)
// one k after another, 64 or 128 steps (the round's width) with a barrier or two between each,
// because for k = 5 it needs d[5][j] as step k = 4 left it. Under the profiler at n = 512 (8 rounds of 64), step
// 10's phase 2 takes longer than its phase 3 (the README's counters). But the chain is not needed
// once phase 1 has closed the diagonal tile D = tile (kb, kb).
//
// Take i in block kb, j outside it, and a shortest path from i to j whose intermediate vertices are
// in blocks 0..kb. If it passes through block kb at all, let k be the LAST vertex of block kb on
// it: then i -> k is a path inside blocks 0..kb, at least D[i][k] long, and k -> j uses no vertex of
// block kb, so it is at least d[k][j] as round kb found it, before phase 2 touched it. Hence, for a tile of row kb,
//   d[i][j] = min(d[i][j], min over k in block kb of D[i][k] + d[k][j])    (d as phase 2 found it)
// and, taking the FIRST vertex of block kb on the path, for a tile of column kb
//   d[i][j] = min(d[i][j], min over k in block kb of d[i][k] + D[k][j]).
// Both are min-plus products, d[i][k] from tile (bi, kb) and d[k][j] from tile (kb, bj), exactly
// what phase 3 computes for its tiles. So the panels run step 10's phase-3 kernel: no barrier
// between the values of k, and 64 updates per thread for every four 16-byte loads. A tile may be
// one of its own operands (tile (kb, bj) is B for itself); that is safe because a block reads all of
// k before it writes its tile back, and no other block writes that tile in this launch.
//
// Why it is faster: the 2 (tiles - 1) tiles of phase 2 take one pass of the phase-3 kernel instead
// of a step with a barrier for each k (the README's counters time the two phases 2 at n = 512).
//
// What it costs: nothing in work (the same n^3 updates); phase 1 still closes the diagonal tile one
// k at a time, on one block.
//
// Launch: as step 08 (rounds of 64 or 128 by n, or --tile; n padded to that width); --threads and
// --blocks are ignored.
#include "floyd_warshall.h"
#include "07_blocked_shared_tiles.cuh"
#include "09_register_phases.cuh"
#include "10_double_buffered_copies.cuh"
#include "11_min_plus_panels.cuh"

namespace {

using floyd_warshall::LaunchPlan;
using floyd_warshall::MicroTileBlock;

template <int kTile>
void run_at_width(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  std::int32_t* work = floyd_warshall::start_padded(graph, dist, n, p.padded, scratch, stream);
  const int padded = static_cast<int>(p.padded), tiles = padded / kTile;
  for (int kb = 0; kb < tiles; ++kb) {
    floyd_warshall::launch_phase1<kTile>(work, padded, kb, stream);
    floyd_warshall::launch_panels<kTile>(work, padded, kb, stream);
    floyd_warshall::min_plus_registers<floyd_warshall::Phase3Tiles, 2, kTile>
        <<<dim3(tiles, tiles), MicroTileBlock<kTile>::kThreads, 0, stream>>>(work, padded, kb);
    CUDA_CHECK_LAUNCH();
  }
  floyd_warshall::finish_padded(work, dist, n, p.padded, stream);
}

// Rounds of 128 or 64, as the plan chose (08_blocked_register_tiles.cuh).
void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  floyd_warshall::at_width(p.tile, [&](auto width) { run_at_width<width()>(graph, dist, n, p, scratch, stream); });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "11", "blocked, phase 2 as a min-plus product", "gpu", nullptr,
    floyd_warshall::register_tiles_plan_for_n, run,
    floyd_warshall::kDefaultVertices, 2049, false, true};
