// Lesson 04, step 07: the blocked algorithm, with shared-memory tiles.
//
// What changed: the order of the work. Cut the matrix into 32 x 32 tiles and the vertices into
// blocks of 32. Round kb handles the 32 values of k in block kb in three phases:
//   1. the dependent tile (kb, kb) on the diagonal, closed over its own 32 vertices by one block,
//      one k at a time;
//   2. the tiles in row kb and in column kb, each closed over the same 32 vertices, using the finished
//      diagonal tile;
//   3. every other tile (i, j): it needs only tile (i, kb) from phase 2's column and tile (kb, j) from
//      its row, both finished, so all 32 k are applied at once, with no barrier between them.
// Each phase is written as a textbook writes it: a block of 32 x 32 threads, thread (y, x) owning
// element (y, x) of its tile, the tiles it reads in shared memory. Phases 1 and 2 step through k with
// two barriers per k (one before any thread writes step k's results, so that no thread still reading
// step k sees a new value, one after, before step k + 1 reads them); phase 3, nearly all the work,
// needs none. The rounds, the padding and phases 1 and 2 are in 07_blocked_shared_tiles.cuh, which
// steps 08 to 14 reuse with wider tiles (step 08 with these phases 1 and 2, written for any width).
//
// Why it is faster: steps 04-06 read and write the whole matrix once per k; here phase 3 reads its
// tiles once per 32 k and keeps them in shared memory, so the matrix passes through memory n / 32
// times instead of n times (the README's counters show the bytes phase 3 moves against step
// 04's, and its table at n = 8192, beyond the L2 cache, what that is worth).
//
// What it costs: 3 launches per round; phase 1 runs on a single block, and phases 1 and 2 go one k at
// a time with two barriers each (the counters give each phase's time); and each update in phase 3
// still reads two values from shared memory: the counters show phase 3 waiting above all on the
// shared-memory instruction queue (mio_throttle). Step 08 keeps phase 3's values in registers
// instead, step 09 those of phases 1 and 2. n is padded to a multiple of 32 (a copy in and out, small
// next to the n^3 work).
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
  // Phases 1 and 2 are the header's (PlainPhases, at this step's tiles of 32); phase 3 is the one above.
  floyd_warshall::run_rounds<kTile, floyd_warshall::PlainPhases>(
      graph, dist, n, p, scratch, stream, [](std::int32_t* work, int padded, int kb, int tiles, cudaStream_t s) {
        blocked_phase3<<<dim3(tiles, tiles), dim3(kTile, kTile), 0, s>>>(work, padded, kb);
      });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "07", "blocked, shared-memory tiles", "gpu", nullptr, plan, run, floyd_warshall::kDefaultVertices, 2049,
    false, false};
