// Lesson 04, step 08: register micro-tiles in the third phase, and Hopper's fused add-min.
//
// What changed: phase 3 (nearly all the work). Three things, aimed at doing more updates per value
// fetched and per instruction:
//   - Register micro-tiles. Each thread owns an 8 x 8 block of its tile, kept in 64 registers for the
//     whole phase. For each k it reads 8 values of d[i][k] and 8 of d[k][j] from shared memory (four
//     16-byte loads) and does 64 updates with them. Step 07 read two values for every update.
//   - Bigger rounds. Tiles of 128 x 128, so a round covers 128 values of k and the matrix passes
//     through memory n / 128 times instead of n / 32. The k range is staged through shared memory 32
//     at a time (16 KB per tile slice, 33 KB per block). With 128 registers per thread (the
//     counters), two blocks of 256 threads fill an SM's 64 K registers, as __launch_bounds__ asks.
//   - One instruction per update. __viaddmin_s32(a, b, c) computes min(a + b, c); on Hopper (sm_90)
//     the compiler emits a single VIADDMNMX for it, where other GPUs need an add and a min (the
//     intrinsic falls back to that by itself). The table's ceiling counts one such update per integer
//     lane per clock; step 08 reaches 57.3% of it at n = 8192. (Phases 1 and 2 already use it, in
//     step 07 too.)
// Phases 1 and 2 are step 07's, instantiated for 128 x 128 tiles (phase 2 needs the larger
// shared-memory limit that plan() requests).
//
// Bank conflicts: d[i][k] slices are stored transposed (at[k][i]), so both operands are read as
// 16-byte vectors along a row of shared memory; a thread's 8 rows are two groups of 4 (rows 4t..4t+3
// and 64+4t..64+4t+3), so the 8 lanes that share a load phase read 8 consecutive vectors. The
// counters at n = 512: 140 load conflicts; the transposed stores into at[] do conflict (55,296 extra
// passes), once per 32 values of k.
//
// Launch: phase 3 uses blocks of 256 threads, one per 128 x 128 tile; --threads and --blocks are
// ignored. n is padded to a multiple of 128.
#include "floyd_warshall.h"
#include "07_blocked_shared_tiles.cuh"

namespace {

using floyd_warshall::LaunchPlan;
constexpr int kTile = 128;               // vertices per round, and the side of a phase-3 tile
constexpr int kChunk = 32;               // k values staged in shared memory at a time
constexpr int kMicro = 8;                // each thread owns 8 x 8 elements
constexpr int kSide = kTile / kMicro;    // 16 x 16 threads
constexpr int kThreads = kSide * kSide;  // 256
constexpr int kPitch = kTile + 4;        // row pitch of the transposed slice: 16-byte rows, fewer conflicts

// Row (or column) of the tile for the thread's m-th row (column), m in 0..7: two groups of four.
__device__ inline int spread(int t, int m) { return (m < 4 ? 0 : kTile / 2) + 4 * t + (m & 3); }

__global__ void __launch_bounds__(kThreads, 2) blocked_phase3_registers(std::int32_t* d, int n, int kb) {
  const int bi = blockIdx.y, bj = blockIdx.x;
  if (bi == kb || bj == kb) return;  // phases 1 and 2 did these
  __shared__ alignas(16) std::int32_t at[kChunk][kPitch];  // at[k][r] = d[i0 + r][k0 + k]
  __shared__ alignas(16) std::int32_t bk[kChunk][kTile];   // bk[k][c] = d[k0 + k][j0 + c]
  const int tx = threadIdx.x % kSide, ty = threadIdx.x / kSide;
  const std::size_t i0 = static_cast<std::size_t>(bi) * kTile, j0 = static_cast<std::size_t>(bj) * kTile;
  const int k0 = kb * kTile;

  std::int32_t best[kMicro][kMicro];
#pragma unroll
  for (int r = 0; r < kMicro; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int4 v = *reinterpret_cast<const int4*>(&d[(i0 + spread(ty, r)) * n + j0 + spread(tx, 4 * half)]);
      best[r][4 * half] = v.x, best[r][4 * half + 1] = v.y, best[r][4 * half + 2] = v.z, best[r][4 * half + 3] = v.w;
    }

  for (int chunk = 0; chunk < kTile; chunk += kChunk) {
    __syncthreads();  // everyone is done with the previous slice
    for (int e = threadIdx.x; e < kChunk * kTile; e += kThreads) {
      const int r = e / kChunk, k = e % kChunk;  // 32 consecutive k of one row: 128 coalesced bytes
      at[k][r] = d[(i0 + r) * n + k0 + chunk + k];
      const int kr = e / kTile, c = e % kTile;
      bk[kr][c] = d[static_cast<std::size_t>(k0 + chunk + kr) * n + j0 + c];
    }
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < kChunk; ++k) {
      std::int32_t a[kMicro], b[kMicro];
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int4 va = *reinterpret_cast<const int4*>(&at[k][spread(ty, 4 * half)]);
        const int4 vb = *reinterpret_cast<const int4*>(&bk[k][spread(tx, 4 * half)]);
        a[4 * half] = va.x, a[4 * half + 1] = va.y, a[4 * half + 2] = va.z, a[4 * half + 3] = va.w;
        b[4 * half] = vb.x, b[4 * half + 1] = vb.y, b[4 * half + 2] = vb.z, b[4 * half + 3] = vb.w;
      }
#pragma unroll
      for (int r = 0; r < kMicro; ++r)
#pragma unroll
        for (int c = 0; c < kMicro; ++c) best[r][c] = __viaddmin_s32(a[r], b[c], best[r][c]);
    }
  }

#pragma unroll
  for (int r = 0; r < kMicro; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half)
      *reinterpret_cast<int4*>(&d[(i0 + spread(ty, r)) * n + j0 + spread(tx, 4 * half)]) =
          make_int4(best[r][4 * half], best[r][4 * half + 1], best[r][4 * half + 2], best[r][4 * half + 3]);
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts& device, const LaunchPlan&) {
  floyd_warshall::allow_phase_shared_memory<kTile>(device);
  return floyd_warshall::blocked_plan(n, kTile, kThreads);
}

void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  floyd_warshall::run_blocked<kTile>(graph, dist, n, p, scratch, stream,
                                     [](std::int32_t* work, int padded, int kb, int tiles, cudaStream_t stream) {
                                       blocked_phase3_registers<<<dim3(tiles, tiles), kThreads, 0, stream>>>(work, padded, kb);
                                     });
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "08", "blocked, register micro-tiles, fused add-min", "gpu", nullptr, plan, run,
    floyd_warshall::kDefaultVertices, 2049};
