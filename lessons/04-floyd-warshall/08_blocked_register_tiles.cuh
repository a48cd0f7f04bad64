// Lesson 04, step 08: phase 3 with register micro-tiles, and the rounds of 64 or 128 around it. Step
// 08 explains it, step 09 keeps it with phases 1 and 2 of its own (09_register_phases.cuh), step 10
// gives it a second stage of shared memory (10_double_buffered_copies.cuh), and steps 11, 12 and 14
// launch it on other sets of tiles.
//
// The kernel updates tiles of kTile x kTile (128 or 64, as round_width below picks) with the kTile values
// of k of round kb:
//   d[i][j] = min(d[i][j], d[i][k] + d[k][j]),  d[i][k] from tile (bi, kb), d[k][j] from tile (kb, bj).
// Each of its (kTile / 8)^2 threads owns an 8 x 8 block of the tile in registers; k goes through shared memory
// kStagedK values at a time, in kStages buffers. Which tile a block updates is the launcher's
// choice, given by a type with
//   __device__ static bool pick(int kb, int& bi, int& bj)
// that names block blockIdx's tile (bi, bj), or answers false when the block has nothing to do. A
// type whose pick needs more than kb (step 14's band of tile rows) makes it a const member and is
// passed to the kernel as its last argument.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "07_blocked_shared_tiles.cuh"
#include "course/check.h"
#include "course/device.h"
#include "floyd_warshall.h"

namespace floyd_warshall {

constexpr int kRegisterTile = 128;  // vertices per round, and the side of a tile (rounds of 64 halve both)
constexpr int kStagedK = 16;        // k values staged in shared memory at a time
constexpr int kMicroTile = 8;       // each thread owns 8 x 8 elements

// The block that updates one kTile x kTile tile: 16 x 16 = 256 threads for 128, 8 x 8 = 64 for 64.
template <int kTile>
struct MicroTileBlock {
  static constexpr int kSide = kTile / kMicroTile;
  static constexpr int kThreads = kSide * kSide;
  static constexpr int kTransposedPitch = kTile + 4;  // row pitch of the transposed slice: 16-byte rows
};

// Phase 3 of the blocked algorithm: every tile outside row kb and column kb (grid tiles x tiles).
struct Phase3Tiles {
  __device__ static bool pick(int kb, int& bi, int& bj) {
    bi = static_cast<int>(blockIdx.y), bj = static_cast<int>(blockIdx.x);
    return bi != kb && bj != kb;
  }
};

// Row (or column) of the tile for the thread's m-th row (column), m in 0..7: two groups of four.
template <int kTile>
__device__ inline int spread(int t, int m) { return (m < 4 ? 0 : kTile / 2) + 4 * t + (m & 3); }

// Starts the asynchronous copy (cp.async) of k0 + chunk .. k0 + chunk + kStagedK - 1 into one
// stage: a[k][r] = d[i0 + r][k] (transposed as it lands, 4 bytes at a time) and b[k][c] = d[k][j0 + c]
// (16 bytes at a time). The copies run while the threads go on computing (step 10 puts that to use).
template <int kTile>
__device__ inline void stage_chunk(std::int32_t (*a)[MicroTileBlock<kTile>::kTransposedPitch], std::int32_t (*b)[kTile],
                                   const std::int32_t* d, int n, std::size_t i0, std::size_t j0, int k) {
  constexpr int kThreads = MicroTileBlock<kTile>::kThreads;
  for (int e = threadIdx.x; e < kStagedK * kTile; e += kThreads) {
    const int r = e / kStagedK, kk = e % kStagedK;  // consecutive k of one row: coalesced reads
    __pipeline_memcpy_async(&a[kk][r], &d[(i0 + r) * n + k + kk], sizeof(std::int32_t));
  }
  constexpr int kVectorsPerRow = kTile / 4;
  for (int e = threadIdx.x; e < kStagedK * kVectorsPerRow; e += kThreads) {
    const int kk = e / kVectorsPerRow, c = 4 * (e % kVectorsPerRow);
    __pipeline_memcpy_async(&b[kk][c], &d[static_cast<std::size_t>(k + kk) * n + j0 + c], 4 * sizeof(std::int32_t));
  }
  __pipeline_commit();
}

// The micro-tile's update with one staged chunk of k: at[k][r] = d[i0 + r][k0 + k] and bk[k][c] =
// d[k0 + k][j0 + c] for the chunk's kStagedK values of k. Each k: 8 values of the tile's column k and
// 8 of its row k into registers (four 16-byte loads), then 64 fused add-mins.
template <int kTile>
__device__ __forceinline__ void relax_with_chunk(const std::int32_t (*at)[MicroTileBlock<kTile>::kTransposedPitch],
                                                 const std::int32_t (*bk)[kTile], int tx, int ty,
                                                 std::int32_t best[kMicroTile][kMicroTile]) {
#pragma unroll 4
  for (int k = 0; k < kStagedK; ++k) {
    std::int32_t a[kMicroTile], b[kMicroTile];
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int4 va = *reinterpret_cast<const int4*>(&at[k][spread<kTile>(ty, 4 * half)]);
      const int4 vb = *reinterpret_cast<const int4*>(&bk[k][spread<kTile>(tx, 4 * half)]);
      a[4 * half] = va.x, a[4 * half + 1] = va.y, a[4 * half + 2] = va.z, a[4 * half + 3] = va.w;
      b[4 * half] = vb.x, b[4 * half + 1] = vb.y, b[4 * half + 2] = vb.z, b[4 * half + 3] = vb.w;
    }
#pragma unroll
    for (int r = 0; r < kMicroTile; ++r)
#pragma unroll
      for (int c = 0; c < kMicroTile; ++c) best[r][c] = __viaddmin_s32(a[r], b[c], best[r][c]);
  }
}

// A block's chunks of k: its kStages stages of shared memory (at[s], bk[s]), where the chunks come
// from, and this thread's place in the tile. copy(s, c) starts the copy of chunk c into stage s;
// relax(s, best) updates the thread's micro-tile with the chunk in stage s.
template <int kTile>
struct StagedChunks {
  std::int32_t (*at)[kStagedK][MicroTileBlock<kTile>::kTransposedPitch];
  std::int32_t (*bk)[kStagedK][kTile];
  const std::int32_t* d;
  int n;
  std::size_t i0, j0;
  int k0, tx, ty;

  __device__ __forceinline__ void copy(int stage, int chunk) const {
    stage_chunk<kTile>(at[stage], bk[stage], d, n, i0, j0, k0 + chunk * kStagedK);
  }
  __device__ __forceinline__ void relax(int stage, std::int32_t best[kMicroTile][kMicroTile]) const {
    relax_with_chunk<kTile>(at[stage], bk[stage], tx, ty, best);
  }
};

// How the kernel goes through the kTile / kStagedK chunks of k of its round, the first chunk's copy
// already started into stage 0. Step 08's one stage is here; step 10's two are in
// 10_double_buffered_copies.cuh: `diff` the two run()s.
template <int kStages, int kTile>
struct ChunkLoop;

// One stage (steps 08 and 09): wait for the chunk, compute with it, and only then copy the next.
template <int kTile>
struct ChunkLoop<1, kTile> {
  __device__ __forceinline__ static void run(const StagedChunks<kTile>& chunks, std::int32_t best[kMicroTile][kMicroTile]) {
    constexpr int kChunks = kTile / kStagedK;
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      __pipeline_wait_prior(0);  // this thread's copies of `chunk` have landed
      __syncthreads();           // ... and everyone else's
      chunks.relax(0, best);
      __syncthreads();  // everyone is done with the stage before a copy overwrites it
      if (chunk + 1 < kChunks) chunks.copy(0, chunk + 1);
    }
  }
};

// The kernel: kStages = 1 in steps 08 and 09, 2 from step 10 on (whose translation units include
// 10_double_buffered_copies.cuh, where ChunkLoop<2> is). __launch_bounds__ asks for 512 threads per
// SM (two blocks of 256, eight of 64): at most 128 registers a thread.
template <class Tiles, int kStages, int kTile = kRegisterTile>
__global__ void __launch_bounds__(MicroTileBlock<kTile>::kThreads, 512 / MicroTileBlock<kTile>::kThreads)
    min_plus_registers(std::int32_t* d, int n, int kb, Tiles tiles = Tiles{}) {
  static_assert(kStages == 1 || kStages == 2, "one stage, or two used in turn");
  using Block = MicroTileBlock<kTile>;
  int bi, bj;
  if (!tiles.pick(kb, bi, bj)) return;
  __shared__ alignas(16) std::int32_t at[kStages][kStagedK][Block::kTransposedPitch];  // at[s][k][r] = d[i0 + r][k]
  __shared__ alignas(16) std::int32_t bk[kStages][kStagedK][kTile];                    // bk[s][k][c] = d[k][j0 + c]
  const int tx = threadIdx.x % Block::kSide, ty = threadIdx.x / Block::kSide;
  const std::size_t i0 = static_cast<std::size_t>(bi) * kTile;
  const std::size_t j0 = static_cast<std::size_t>(bj) * kTile;
  const StagedChunks<kTile> chunks{at, bk, d, n, i0, j0, kb * kTile, tx, ty};
  chunks.copy(0, 0);

  std::int32_t best[kMicroTile][kMicroTile];
#pragma unroll
  for (int r = 0; r < kMicroTile; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int4 v = *reinterpret_cast<const int4*>(&d[(i0 + spread<kTile>(ty, r)) * n + j0 + spread<kTile>(tx, 4 * half)]);
      best[r][4 * half] = v.x, best[r][4 * half + 1] = v.y, best[r][4 * half + 2] = v.z, best[r][4 * half + 3] = v.w;
    }

  ChunkLoop<kStages, kTile>::run(chunks, best);

#pragma unroll
  for (int r = 0; r < kMicroTile; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half)
      *reinterpret_cast<int4*>(&d[(i0 + spread<kTile>(ty, r)) * n + j0 + spread<kTile>(tx, 4 * half)]) =
          make_int4(best[r][4 * half], best[r][4 * half + 1], best[r][4 * half + 2], best[r][4 * half + 3]);
}

// The plan of steps 08 to 13: n padded to a multiple of kTile (128 or 64, as round_width picks),
// blocks of kTile^2 / 64 threads.
template <int kTile = kRegisterTile>
inline LaunchPlan register_tiles_plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan&) {
  LaunchPlan p = blocked_plan(n, kTile, MicroTileBlock<kTile>::kThreads);
  p.tile = kTile;
  return p;
}

// The width of the rounds of steps 08 to 13: --tile's (requested.tile), or the steps' own choice
// for n. A round of 128 does the work of two rounds of 64 with half the launches and a tile that
// reuses each value it loads twice as often; but phase 3 then comes in blocks of 256 threads, two to
// an SM, and at small n there are too few of them to share out evenly (at n = 2048, 225 tiles for
// the 132 SMs of an H100 or an H200: 93 SMs get two, 39 get one and then wait), while tiles of 64 come eight to an
// SM and 961 of them. Rounds of 128 pay once phase 3's grid at that width, tiles x tiles blocks (those
// of row and column kb return at once), makes kWavesFor128 full waves: measured for steps 09 and 12
// on the H100 (numbered 08 and 11 then) and again on the H200, rounds of 64 win up to n = 3072 (576
// blocks, 2.2 waves) and, for step 12, rounds of 128 from n = 4096 (1024 blocks, 3.9 waves) on; step
// 09 gains from them only at larger n on the H200 (the README's table "rounds of 64 and of 128").
constexpr int kWavesFor128 = 3;
inline int round_width(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested) {
  if (requested.tile != 0) return requested.tile;
  const std::size_t tiles = (n + kRegisterTile - 1) / kRegisterTile;
  const std::size_t wave =  // tiles of 128 the GPU runs at once: two an SM
      512 / MicroTileBlock<kRegisterTile>::kThreads * static_cast<std::size_t>(device.multiprocessors);
  return tiles * tiles >= kWavesFor128 * wave ? kRegisterTile : kRegisterTile / 2;
}

// Calls f(width) with the width (64 or 128) as a compile-time constant (std::integral_constant), so
// that f can instantiate the kernels for it: steps 08 to 13 pick their plan and launcher this way.
template <class F>
decltype(auto) at_width(int width, F f) {
  if (width == 64) return f(std::integral_constant<int, 64>{});
  return f(std::integral_constant<int, kRegisterTile>{});
}

// Steps 11 and 12's plan at round_width's width (their phase 2 is phase 3's kernel).
inline LaunchPlan register_tiles_plan_for_n(std::size_t n, const course::DeviceFacts& device,
                                            const LaunchPlan& requested) {
  return at_width(round_width(n, device, requested),
                  [&](auto width) { return register_tiles_plan<width()>(n, device, requested); });
}

// Steps 08 to 10: step 07's rounds (run_rounds, 07_blocked_shared_tiles.cuh) at round_width's width,
// phases 1 and 2 by Phases (step 07's PlainPhases in step 08, step 09's RegisterPhases in steps 09 and
// 10), each round closed by min_plus_registers<Phase3Tiles, kStages> over every tile outside row and
// column kb. The plan lets the phases have the shared memory they need at the width.
template <class Phases>
inline LaunchPlan micro_tile_rounds_plan(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested) {
  return at_width(round_width(n, device, requested), [&](auto width) {
    Phases::template allow<decltype(width)::value>(device);
    return register_tiles_plan<decltype(width)::value>(n, device, requested);
  });
}

template <class Phases, int kStages>
void run_micro_tile_rounds(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& plan,
                           void* scratch, cudaStream_t stream) {
  at_width(plan.tile, [&](auto width) {
    constexpr int kTile = decltype(width)::value;
    run_rounds<kTile, Phases>(graph, dist, n, plan, scratch, stream,
                              [](std::int32_t* work, int padded, int kb, int tiles, cudaStream_t s) {
                                min_plus_registers<Phase3Tiles, kStages, kTile>
                                    <<<dim3(tiles, tiles), MicroTileBlock<kTile>::kThreads, 0, s>>>(work, padded, kb);
                              });
  });
}

}  // namespace floyd_warshall
