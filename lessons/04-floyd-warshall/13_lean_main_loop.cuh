// Lesson 04, step 13: phase 3 with a lean main loop (the story is in 13_lean_main_loop.cu).
//
// The same min-plus product as min_plus_registers (08_blocked_register_tiles.cuh): tiles of kTile x kTile,
// an 8 x 8 micro-tile per thread in registers, d[i][k] from tile (bi, kb) and d[k][j] from tile (kb, bj)
// staged through shared memory kChunk values of k at a time. What differs is everything around the
// add-mins:
//   - both slices are copied as they lie in memory, in 16-byte pieces: a[r][k] = d[i0 + r][k0 + k] row
//     by row (no transposing, so no 4-byte copies), b[k][c] = d[k0 + k][j0 + c];
//   - each thread's pieces are the same ones every chunk, a fixed distance further on, so their
//     addresses are worked out once per tile and then only moved along;
//   - kStages stages with one barrier per chunk: the copy into a stage starts only after the barrier
//     that tells every warp is done with what the stage held;
//   - kChunk (16 or 32) values of k per chunk: 32 halves the barriers and copy starts per tile.
#pragma once

#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "08_blocked_register_tiles.cuh"
#include "11_min_plus_panels.cuh"
#include "12_look_ahead.cuh"
#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"

namespace floyd_warshall {

// One stage of shared memory, in 32-bit words: the column slice a (kTile rows of kChunk values, each
// row padded by four words: a warp reads two rows four apart at once, and the padding puts them in
// different banks), then the row slice b (kChunk rows of kTile values).
template <int kTile, int kChunk>
struct LeanStage {
  static constexpr int kThreads = MicroTileBlock<kTile>::kThreads;
  static constexpr int kPitch = kChunk + 4;
  static constexpr int kAWords = kTile * kPitch;
  static constexpr int kWords = kAWords + kChunk * kTile;
  static constexpr int kPiecesPerRowA = kChunk / 4;  // 16-byte pieces in a row of a
  static constexpr int kPiecesPerRowB = kTile / 4;   // ... and of b
  static constexpr int kRowsApartA = kThreads / kPiecesPerRowA;  // rows between one thread's pieces of a
  static constexpr int kRowsApartB = kThreads / kPiecesPerRowB;  // ... and of b
  static constexpr int kCopiesA = kTile / kRowsApartA;            // a thread's pieces of a per chunk
  static constexpr int kCopiesB = kChunk / kRowsApartB;           // ... and of b
  static_assert(kThreads % kPiecesPerRowA == 0 && kThreads % kPiecesPerRowB == 0,
                "every thread copies whole pieces at the same place of every chunk");
  static_assert(kCopiesA >= 1 && kCopiesB >= 1, "every thread copies some of each slice");
};

template <int kTile, int kChunk, int kStages>
constexpr std::size_t lean_shared_bytes() {
  return static_cast<std::size_t>(kStages) * LeanStage<kTile, kChunk>::kWords * sizeof(std::int32_t);
}

// One thread's share of the copies: where its pieces of the next chunk come from (element offsets in
// d, unsigned: the padded matrix of the largest n has more than 2^31 elements but fewer than 2^32) and
// where they go in a stage. copy_next(d, n,
// stage) starts the asynchronous copies (cp.async) and moves on to the following chunk. It keeps four
// integers, so that the 64 distances of the micro-tile and the values of a and b keep their registers.
template <int kTile, int kChunk>
struct LeanCopies {
  using Stage = LeanStage<kTile, kChunk>;
  unsigned a_src;  // d[i0 + row][k0 + 4 piece] of this thread's first piece of a
  unsigned b_src;  // d[k0 + row][j0 + 4 piece] of its first piece of b
  int a_dst;  // word offsets of its first pieces in a stage
  int b_dst;

  __device__ LeanCopies(unsigned n, unsigned i0, unsigned j0, unsigned k0, int tid) {
    const unsigned a_row = tid / Stage::kPiecesPerRowA, a_piece = tid % Stage::kPiecesPerRowA;
    const unsigned b_row = tid / Stage::kPiecesPerRowB, b_piece = tid % Stage::kPiecesPerRowB;
    a_src = (i0 + a_row) * n + k0 + 4 * a_piece;
    b_src = (k0 + b_row) * n + j0 + 4 * b_piece;
    a_dst = static_cast<int>(a_row * Stage::kPitch + 4 * a_piece);
    b_dst = static_cast<int>(Stage::kAWords + b_row * kTile + 4 * b_piece);
  }

  __device__ __forceinline__ void copy_next(const std::int32_t* d, unsigned n, std::int32_t* stage) {
#pragma unroll
    for (int c = 0; c < Stage::kCopiesA; ++c)  // kRowsApartA rows of d between one piece and the next
      __pipeline_memcpy_async(stage + a_dst + c * Stage::kRowsApartA * Stage::kPitch,
                              d + (a_src + c * Stage::kRowsApartA * n), 4 * sizeof(std::int32_t));
#pragma unroll
    for (int c = 0; c < Stage::kCopiesB; ++c)
      __pipeline_memcpy_async(stage + b_dst + c * Stage::kRowsApartB * kTile,
                              d + (b_src + c * Stage::kRowsApartB * n), 4 * sizeof(std::int32_t));
    a_src += kChunk;      // the next kChunk columns of the same rows
    b_src += kChunk * n;  // the next kChunk rows
  }
};

__device__ __forceinline__ std::int32_t lane_of(const int4& v, int i) {
  return i == 0 ? v.x : (i == 1 ? v.y : (i == 2 ? v.z : v.w));
}

// The micro-tile's update with the chunk in `stage`, four values of k at a time: one 16-byte load gives
// four k of one of the thread's rows of a (8 loads), two give the thread's 8 columns of b for one k,
// then 64 fused add-mins per k.
template <int kTile, int kChunk>
__device__ __forceinline__ void relax_lean(const std::int32_t* stage, int tx, int ty,
                                           std::int32_t best[kMicroTile][kMicroTile]) {
  using Stage = LeanStage<kTile, kChunk>;
  const std::int32_t* a = stage + spread<kTile>(ty, 0) * Stage::kPitch;
  const std::int32_t* b = stage + Stage::kAWords + spread<kTile>(tx, 0);
#pragma unroll 1
  for (int k4 = 0; k4 < kChunk; k4 += 4) {
    int4 rows[kMicroTile];
#pragma unroll
    for (int r = 0; r < kMicroTile; ++r)
      rows[r] = *reinterpret_cast<const int4*>(&a[(spread<kTile>(0, r)) * Stage::kPitch + k4]);
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      const int4 b0 = *reinterpret_cast<const int4*>(&b[(k4 + kk) * kTile]);
      const int4 b1 = *reinterpret_cast<const int4*>(&b[(k4 + kk) * kTile + kTile / 2]);
      const std::int32_t bv[kMicroTile] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int r = 0; r < kMicroTile; ++r) {
        const std::int32_t av = lane_of(rows[r], kk);
#pragma unroll
        for (int c = 0; c < kMicroTile; ++c) best[r][c] = __viaddmin_s32(av, bv[c], best[r][c]);
      }
    }
  }
}

// Phase 3 (or the panels, or part of phase 3: Tiles picks, as for min_plus_registers) with the lean
// main loop. Dynamic shared memory: lean_shared_bytes<kTile, kChunk, kStages>().
template <class Tiles, int kTile, int kChunk, int kStages>
__global__ void __launch_bounds__(MicroTileBlock<kTile>::kThreads, 512 / MicroTileBlock<kTile>::kThreads)
    lean_min_plus(std::int32_t* d, int n, int kb, Tiles tiles = Tiles{}) {
  static_assert(kStages == 2 || kStages == 3, "two or three stages");
  static_assert(kTile % kChunk == 0 && kChunk % 4 == 0, "whole chunks of whole groups of four");
  using Block = MicroTileBlock<kTile>;
  using Stage = LeanStage<kTile, kChunk>;
  constexpr int kChunks = kTile / kChunk;
  int bi, bj;
  if (!tiles.pick(kb, bi, bj)) return;
  extern __shared__ __align__(16) std::int32_t lean_slices[];  // kStages stages of Stage::kWords
  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % Block::kSide, ty = tid / Block::kSide;
  const std::size_t i0 = static_cast<std::size_t>(bi) * kTile;
  const std::size_t j0 = static_cast<std::size_t>(bj) * kTile;
  LeanCopies<kTile, kChunk> copies(n, bi * kTile, bj * kTile, kb * kTile, tid);

  // The first kStages - 1 chunks start at once; a group is committed for each, present or not, so
  // that "all but the newest kStages - 2 groups have landed" always means "this chunk has".
#pragma unroll
  for (int s = 0; s + 1 < kStages; ++s) {
    if (s < kChunks) copies.copy_next(d, n, lean_slices + s * Stage::kWords);
    __pipeline_commit();
  }

  // The micro-tile: rows spread<kTile>(ty, r) and columns spread<kTile>(tx, c) of the tile, that is
  // tile[r0 + (r & 3) + (r < 4 ? 0 : kTile / 2)][c0 + (c & 3) + (c < 4 ? 0 : kTile / 2)].
  std::int32_t* tile = d + (i0 + spread<kTile>(ty, 0)) * n + j0 + spread<kTile>(tx, 0);
  const auto at = [&](int r, int half, int row_length) {
    return reinterpret_cast<int4*>(tile + static_cast<std::ptrdiff_t>(spread<kTile>(0, r)) * row_length +
                                   half * (kTile / 2));
  };
  std::int32_t best[kMicroTile][kMicroTile];
#pragma unroll
  for (int r = 0; r < kMicroTile; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const int4 v = *at(r, half, n);
      best[r][4 * half] = v.x, best[r][4 * half + 1] = v.y, best[r][4 * half + 2] = v.z, best[r][4 * half + 3] = v.w;
    }

#pragma unroll 1
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    __pipeline_wait_prior(kStages - 2);  // this thread's copies of `chunk` have landed
    __syncthreads();  // ... and everyone's; and every warp is done with chunk - 1, whose stage the
                      // copy below reuses
    if (chunk + kStages - 1 < kChunks)
      copies.copy_next(d, n, lean_slices + ((chunk + kStages - 1) % kStages) * Stage::kWords);
    __pipeline_commit();
    relax_lean<kTile, kChunk>(lean_slices + (chunk % kStages) * Stage::kWords, tx, ty, best);
  }

  // The compiler would keep the 16 addresses of the loads for the stores, 32 registers through the
  // loop (spilled, with the micro-tile there). Hiding from it that row_length is n (an empty asm)
  // makes it work them out again here instead.
  int row_length = n;
  asm volatile("" : "+r"(row_length));
#pragma unroll
  for (int r = 0; r < kMicroTile; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half)
      *at(r, half, row_length) = make_int4(best[r][4 * half], best[r][4 * half + 1], best[r][4 * half + 2], best[r][4 * half + 3]);
}

// Launches lean_min_plus on `grid` blocks.
template <class Tiles, int kTile, int kChunk, int kStages>
void launch_lean(std::int32_t* d, int padded, int kb, dim3 grid, cudaStream_t stream) {
  lean_min_plus<Tiles, kTile, kChunk, kStages>
      <<<grid, MicroTileBlock<kTile>::kThreads, lean_shared_bytes<kTile, kChunk, kStages>(), stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

// Lets every kernel of one shape use its shared memory (more than the default 48 KB for the deeper
// shapes), and asks for the largest shared-memory share of L1, since these kernels cache nothing
// else there. Throws course::NotSupportedError where a block cannot have that much.
template <int kTile, int kChunk, int kStages>
void allow_lean_shared_memory(const course::DeviceFacts& device) {
  constexpr std::size_t bytes = lean_shared_bytes<kTile, kChunk, kStages>();
  const void* kernels[] = {reinterpret_cast<const void*>(lean_min_plus<Phase3Tiles, kTile, kChunk, kStages>),
                           reinterpret_cast<const void*>(lean_min_plus<PanelTiles, kTile, kChunk, kStages>),
                           reinterpret_cast<const void*>(lean_min_plus<NextCrossTiles, kTile, kChunk, kStages>),
                           reinterpret_cast<const void*>(lean_min_plus<RestTiles, kTile, kChunk, kStages>)};
  for (const void* kernel : kernels) {
    course::require_shared_memory(kernel, bytes, device, "phase 3 of step 13");
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
  }
}

// Calls f(chunk, stages) with both as compile-time constants (std::integral_constant).
template <class F>
decltype(auto) at_slices(int chunk, int stages, F f) {
  using C16 = std::integral_constant<int, 16>;
  using C32 = std::integral_constant<int, 32>;
  using S2 = std::integral_constant<int, 2>;
  using S3 = std::integral_constant<int, 3>;
  if (chunk == 32) return stages == 3 ? f(C32{}, S3{}) : f(C32{}, S2{});
  return stages == 3 ? f(C16{}, S3{}) : f(C16{}, S2{});
}

// Whether a shape keeps the 512 threads per SM of min_plus_registers (two blocks of 128-wide tiles,
// eight of 64-wide): its shared memory must not cost blocks. The shape's limit is raised first, so
// the occupancy calculator sees what the launch will ask for.
template <int kTile, int kChunk, int kStages>
bool lean_shape_keeps_occupancy(const course::DeviceFacts& device) {
  constexpr std::size_t bytes = lean_shared_bytes<kTile, kChunk, kStages>();
  const std::size_t limit = device.shared_memory_per_block_optin > 0 ? device.shared_memory_per_block_optin
                                                                     : device.shared_memory_per_block;
  if (bytes > limit) return false;
  allow_lean_shared_memory<kTile, kChunk, kStages>(device);
  constexpr int kThreads = MicroTileBlock<kTile>::kThreads;
  const int wanted = 512 / kThreads * device.multiprocessors;
  return course::resident_blocks(reinterpret_cast<const void*>(lean_min_plus<RestTiles, kTile, kChunk, kStages>),
                                 kThreads, bytes, device) >= wanted;
}

// Step 13's plan: step 08's width rule (or --tile), then the slices: --chunk and --stages where given,
// otherwise the deepest shape that keeps the occupancy (32 values of k in three stages, then two
// stages, then 16 values in three, then two), fewest barriers and most copies in flight first.
inline LaunchPlan lean_plan(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested) {
  return at_width(round_width(n, device, requested), [&](auto width) {
    constexpr int kTile = decltype(width)::value;
    LaunchPlan p = register_tiles_plan<kTile>(n, device, requested);
    p.chunk = requested.chunk, p.stages = requested.stages;
    if (p.chunk == 0 || p.stages == 0) {
      const int shapes[][2] = {{32, 3}, {32, 2}, {16, 3}, {16, 2}};
      for (const auto& shape : shapes) {
        if ((requested.chunk != 0 && requested.chunk != shape[0]) ||
            (requested.stages != 0 && requested.stages != shape[1]))
          continue;
        const bool keeps = at_slices(shape[0], shape[1], [&](auto chunk, auto stages) {
          return lean_shape_keeps_occupancy<kTile, decltype(chunk)::value, decltype(stages)::value>(device);
        });
        p.chunk = shape[0], p.stages = shape[1];
        if (keeps) break;  // otherwise the last shape that fits the request stays
      }
    }
    at_slices(p.chunk, p.stages, [&](auto chunk, auto stages) {
      allow_lean_shared_memory<kTile, decltype(chunk)::value, decltype(stages)::value>(device);
    });
    return p;
  });
}

}  // namespace floyd_warshall
