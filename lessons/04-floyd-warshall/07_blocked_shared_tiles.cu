// Lesson 04, step 07: the blocked algorithm, with shared-memory tiles.
//
// What changed: the order of the work. Cut the matrix into 32 x 32 tiles and the vertices into
// blocks of 32. Round kb handles the 32 values of k in block kb in three phases:
//   1. the dependent tile (kb, kb) on the diagonal, closed over its own 32 vertices by one block,
//      one k at a time with a barrier in between;
//   2. the tiles in row kb and in column kb, each closed over the same 32 vertices, using the finished
//      diagonal tile;
//   3. every other tile (i, j): it needs only tile (i, kb) from phase 2's column and tile (kb, j) from
//      its row, both finished, so all 32 k are applied at once, with no barrier between them.
// Phases 1 and 2 live in 07_blocked_shared_tiles.cuh (steps 08 and 09 reuse both, steps 10 and 11
// phase 1); phase 3 is below. Read phase 3 for this step's idea. Phases 1 and 2 are written once, for
// this step and the later ones, with tools that later steps or other lessons teach, each explained
// where the header uses it: every thread keeps its elements of the tile in registers (step 08's
// micro-tiles are the same idea), d[i][k] comes from the thread's own warp by a shuffle (__shfl_sync,
// as in lesson 02's step 06), row k goes through shared memory in two buffers used in turn, so one
// barrier per k is enough (the idea of step 09's two stages), and min(a + b, c) is written
// __viaddmin_s32, one instruction on Hopper, as the compiler makes of phase 3's plain min too (the
// README's step 08 shows the disassembly).
// Their time is in this step's figures; the README's counters give each phase's time on its own (at
// n = 512).
//
// Why it is faster: steps 04-06 read and write the whole matrix once per k; here phase 3, nearly all
// the work, reads its tiles once per 32 k and keeps them in shared memory, so the matrix passes
// through memory n / 32 times instead of n times (at n = 512 under the profiler, phase 3 moves 16.8 MB
// from memory, step 04 538 MB). At n = 8192 (256 MB, beyond the 50 MB L2 cache) step 07 is 7.05x
// faster than step 04; at n = 2048, 5.04x faster than step 06.
//
// What it costs: 3 launches per round; phase 1 runs on a single block, and phases 1 and 2 go one k at a
// time with a barrier in between (at n = 512 they take 84.4 us and 102 us under the profiler, phase 3
// 86.3 us); and each update in phase 3 still reads two values from shared memory: the counters show
// phase 3 waiting above all on the shared-memory instruction queue (mio_throttle). Step 08 keeps
// values in registers instead. n is padded to a multiple of 32 (a copy in and out, small next to the
// n^3 work).
//
// Launch: blocks of 32 x 32 threads, one per tile; --threads and --blocks are ignored.
#include "floyd_warshall.h"
#include "07_blocked_shared_tiles.cuh"

namespace {

using floyd_warshall::LaunchPlan;
constexpr int kTile = 32;

// Phase 3: thread (y, x) of the block owns element (y, x) of tile (blockIdx.y, blockIdx.x).
__global__ void blocked_phase3(std::int32_t* d, int n, int kb) {
  const int bi = blockIdx.y, bj = blockIdx.x;
  if (bi == kb || bj == kb) return;  // phases 1 and 2 did these
  __shared__ std::int32_t column_tile[kTile][kTile];  // tile (bi, kb): d[i][k]
  __shared__ std::int32_t row_tile[kTile][kTile];     // tile (kb, bj): d[k][j]
  const int y = threadIdx.y, x = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(bi) * kTile + y, j = static_cast<std::size_t>(bj) * kTile + x;
  const int k0 = kb * kTile;
  column_tile[y][x] = d[i * n + k0 + x];
  row_tile[y][x] = d[static_cast<std::size_t>(k0 + y) * n + j];
  std::int32_t best = d[i * n + j];
  const std::int32_t before = best;
  __syncthreads();
  // A warp is one row y of the tile: column_tile[y][k] is the same word for all its lanes (a broadcast)
  // and row_tile[k][x] 32 consecutive words (one per bank), so neither read has bank conflicts (the
  // counters: 0).
  for (int k = 0; k < kTile; ++k) best = min(best, column_tile[y][k] + row_tile[k][x]);
  if (best < before) d[i * n + j] = best;
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan&) {
  return floyd_warshall::blocked_plan(n, kTile, kTile * kTile);
}

void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  floyd_warshall::run_blocked<kTile>(graph, dist, n, p, scratch, stream,
                                     [](std::int32_t* work, int padded, int kb, int tiles, cudaStream_t stream) {
                                       blocked_phase3<<<dim3(tiles, tiles), dim3(kTile, kTile), 0, stream>>>(work, padded, kb);
                                     });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "07", "blocked, shared-memory tiles", "gpu", nullptr, plan, run, floyd_warshall::kDefaultVertices, 2049};
