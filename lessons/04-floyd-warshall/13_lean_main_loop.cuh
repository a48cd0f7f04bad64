// Lesson 04, step 13: phase 3 with a lean main loop (the story is in 13_lean_main_loop.cu).
//
// The same min-plus product as min_plus_registers (08_blocked_register_tiles.cuh): tiles of kTile x kTile,
// a micro-tile per thread in registers (8 x 8, or 16 rows x 8 with --rows 16), d[i][k] from tile (bi, kb)
// and d[k][j] from tile (kb, bj) staged through shared memory kChunk values of k at a time. What differs
// is everything around the add-mins:
//   - both slices are copied as they lie in memory, in 16-byte pieces: a[r][k] = d[i0 + r][k0 + k] row
//     by row (no transposing, so no 4-byte copies), b[k][c] = d[k0 + k][j0 + c];
//   - each thread's pieces are the same ones every chunk, a fixed distance further on, so their
//     addresses are worked out once per tile and then only moved along;
//   - kStages stages with one barrier per chunk: the copy into a stage starts only after the barrier
//     that tells every warp is done with what the stage held;
//   - kChunk (16 or 32) values of k per chunk: 32 halves the barriers and copy starts per tile.
// Two tunings of the same loop, as options: 16-row micro-tiles (--rows 16: for four values of k, 512
// updates for 24 shared loads instead of 256 for 16, in half the threads with twice the registers), and phase 3's
// bulk by blocks that each take several tiles (--tiles-per-block), starting the next tile's first
// chunks while the current tile's last ones are computed.
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

// The block of one kTile x kTile tile: each thread owns kRows rows x 8 columns of it. kRows = 8 is step
// 08's 8 x 8 (256 threads for 128, two blocks an SM at 128 registers); kRows = 16 halves the threads,
// and each takes up to 255 registers for its 128 distances, so an SM keeps 256 threads, not 512.
template <int kTile, int kRows>
struct LeanBlock {
  static_assert(kRows == 8 || kRows == 16, "8 or 16 rows a thread");
  static constexpr int kSideX = kTile / kMicroTile;  // threads across the tile, 8 columns each
  static constexpr int kSideY = kTile / kRows;       // threads down it
  static constexpr int kThreads = kSideX * kSideY;
  static constexpr int kBlocksPerSm = (kRows == 8 ? 512 : 256) / kThreads;
};

// Row of the tile for the thread's m-th row, m in 0..kRows-1: kRows / 4 groups of four, a warp's two
// (or four) rows four apart, as spread<kTile> for 8 rows.
template <int kTile, int kRows>
__device__ __forceinline__ int lean_row(int ty, int m) {
  return (m / 4) * (4 * kTile / kRows) + 4 * ty + (m & 3);
}

// One stage of shared memory, in 32-bit words: the column slice a (kTile rows of kChunk values, each
// row padded by four words: a warp reads two rows four apart at once, and the padding puts them in
// different banks), then the row slice b (kChunk rows of kTile values).
template <int kTile, int kChunk>
struct LeanStage {
  static constexpr int kPitch = kChunk + 4;
  static constexpr int kAWords = kTile * kPitch;
  static constexpr int kWords = kAWords + kChunk * kTile;
};

template <int kTile, int kChunk, int kStages>
constexpr std::size_t lean_shared_bytes() {
  return static_cast<std::size_t>(kStages) * LeanStage<kTile, kChunk>::kWords * sizeof(std::int32_t);
}

// One thread's share of the copies, for a block of kThreads: where its pieces of the next chunk come
// from (element offsets in d, unsigned: the padded matrix of the largest n has more than 2^31
// elements but fewer than 2^32) and where they go in a stage. copy_next(d, n, stage) starts the
// asynchronous copies (cp.async) and moves on to the following chunk. It keeps four integers, so that
// the distances of the micro-tile and the values of a and b keep their registers.
template <int kTile, int kChunk, int kThreads>
struct LeanCopies {
  using Stage = LeanStage<kTile, kChunk>;
  static constexpr int kPiecesPerRowA = kChunk / 4;  // 16-byte pieces in a row of a
  static constexpr int kPiecesPerRowB = kTile / 4;   // ... and of b
  static constexpr int kRowsApartA = kThreads / kPiecesPerRowA;  // rows between one thread's pieces of a
  static constexpr int kRowsApartB = kThreads / kPiecesPerRowB;  // ... and of b
  static constexpr int kCopiesA = kTile / kRowsApartA;            // a thread's pieces of a per chunk
  static constexpr int kCopiesB = kChunk / kRowsApartB;           // ... and of b
  static_assert(kThreads % kPiecesPerRowA == 0 && kThreads % kPiecesPerRowB == 0,
                "every thread copies whole pieces at the same place of every chunk");
  static_assert(kCopiesA >= 1 && kCopiesB >= 1, "every thread copies some of each slice");
  unsigned a_src;  // d[i0 + row][k0 + 4 piece] of this thread's first piece of a
  unsigned b_src;  // d[k0 + row][j0 + 4 piece] of its first piece of b
  int a_dst;  // word offsets of its first pieces in a stage
  int b_dst;

  __device__ LeanCopies(unsigned n, unsigned i0, unsigned j0, unsigned k0, int tid) {
    const unsigned a_row = tid / kPiecesPerRowA, a_piece = tid % kPiecesPerRowA;
    const unsigned b_row = tid / kPiecesPerRowB, b_piece = tid % kPiecesPerRowB;
    a_src = (i0 + a_row) * n + k0 + 4 * a_piece;
    b_src = (k0 + b_row) * n + j0 + 4 * b_piece;
    a_dst = static_cast<int>(a_row * Stage::kPitch + 4 * a_piece);
    b_dst = static_cast<int>(Stage::kAWords + b_row * kTile + 4 * b_piece);
  }

  __device__ __forceinline__ void copy_next(const std::int32_t* d, unsigned n, std::int32_t* stage) {
#pragma unroll
    for (int c = 0; c < kCopiesA; ++c)  // kRowsApartA rows of d between one piece and the next
      __pipeline_memcpy_async(stage + a_dst + c * kRowsApartA * Stage::kPitch,
                              d + (a_src + c * kRowsApartA * n), 4 * sizeof(std::int32_t));
#pragma unroll
    for (int c = 0; c < kCopiesB; ++c)
      __pipeline_memcpy_async(stage + b_dst + c * kRowsApartB * kTile,
                              d + (b_src + c * kRowsApartB * n), 4 * sizeof(std::int32_t));
    a_src += kChunk;      // the next kChunk columns of the same rows
    b_src += kChunk * n;  // the next kChunk rows
  }
};

// Element i of v. Called with i a constant of an unrolled loop, so it folds to one register: indexing
// v as an array instead could put it in local memory.
__device__ __forceinline__ std::int32_t lane_of(const int4& v, int i) {
  return i == 0 ? v.x : (i == 1 ? v.y : (i == 2 ? v.z : v.w));
}

// The micro-tile's update with the chunk in `stage`, four values of k at a time: one 16-byte load gives
// four k of one of the thread's rows of a (kRows loads), two give the thread's 8 columns of b for one
// k, then 8 kRows fused add-mins per k.
template <int kTile, int kChunk, int kRows>
__device__ __forceinline__ void relax_lean(const std::int32_t* stage, int tx, int ty,
                                           std::int32_t best[kRows][kMicroTile]) {
  using Stage = LeanStage<kTile, kChunk>;
  const std::int32_t* a = stage + lean_row<kTile, kRows>(ty, 0) * Stage::kPitch;
  const std::int32_t* b = stage + Stage::kAWords + spread<kTile>(tx, 0);
#pragma unroll 1
  for (int k4 = 0; k4 < kChunk; k4 += 4) {
    int4 rows[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r)
      rows[r] = *reinterpret_cast<const int4*>(&a[lean_row<kTile, kRows>(0, r) * Stage::kPitch + k4]);
#pragma unroll
    for (int kk = 0; kk < 4; ++kk) {
      const int4 b0 = *reinterpret_cast<const int4*>(&b[(k4 + kk) * kTile]);
      const int4 b1 = *reinterpret_cast<const int4*>(&b[(k4 + kk) * kTile + kTile / 2]);
      const std::int32_t bv[kMicroTile] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int r = 0; r < kRows; ++r) {
        const std::int32_t av = lane_of(rows[r], kk);
#pragma unroll
        for (int c = 0; c < kMicroTile; ++c) best[r][c] = __viaddmin_s32(av, bv[c], best[r][c]);
      }
    }
  }
}

// The thread's micro-tile of tile (bi, bj) in d, whose rows are row_length apart: rows
// lean_row(ty, r) and columns spread<kTile>(tx, c) of the tile, that is
// tile[r0 + (r & 3) + (r / 4) (4 kTile / kRows)][c0 + (c & 3) + (c < 4 ? 0 : kTile / 2)].
template <int kTile, int kRows>
struct MicroTileAt {
  std::int32_t* corner;  // the micro-tile's first distance

  __device__ MicroTileAt(std::int32_t* d, int n, int bi, int bj, int tx, int ty)
      : corner(d + (static_cast<std::size_t>(bi) * kTile + lean_row<kTile, kRows>(ty, 0)) * n +
               static_cast<std::size_t>(bj) * kTile + spread<kTile>(tx, 0)) {}

  __device__ __forceinline__ int4* at(int r, int half, int row_length) const {
    return reinterpret_cast<int4*>(corner + static_cast<std::ptrdiff_t>(lean_row<kTile, kRows>(0, r)) * row_length +
                                   half * (kTile / 2));
  }

  __device__ __forceinline__ void load(int n, std::int32_t best[kRows][kMicroTile]) const {
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int half = 0; half < 2; ++half) {
        const int4 v = *at(r, half, n);
        best[r][4 * half] = v.x, best[r][4 * half + 1] = v.y, best[r][4 * half + 2] = v.z, best[r][4 * half + 3] = v.w;
      }
  }

  // The compiler would keep the addresses of the loads for the stores, two registers each through the
  // loop (spilled, with the micro-tile there). Hiding from it that row_length is n (an empty asm)
  // makes it work them out again here instead.
  __device__ __forceinline__ void store(int n, const std::int32_t best[kRows][kMicroTile]) const {
    int row_length = n;
    asm volatile("" : "+r"(row_length));
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int half = 0; half < 2; ++half)
        *at(r, half, row_length) =
            make_int4(best[r][4 * half], best[r][4 * half + 1], best[r][4 * half + 2], best[r][4 * half + 3]);
  }
};

// Phase 3 (or the panels, or part of phase 3: Tiles picks, as for min_plus_registers) with the lean
// main loop. Dynamic shared memory: lean_shared_bytes<kTile, kChunk, kStages>().
template <class Tiles, int kTile, int kChunk, int kStages, int kRows = kMicroTile>
__global__ void __launch_bounds__(LeanBlock<kTile, kRows>::kThreads, LeanBlock<kTile, kRows>::kBlocksPerSm)
    lean_min_plus(std::int32_t* d, int n, int kb, Tiles tiles = Tiles{}) {
  static_assert(kStages == 2 || kStages == 3, "two or three stages");
  static_assert(kTile % kChunk == 0 && kChunk % 4 == 0, "whole chunks of whole groups of four");
  using Block = LeanBlock<kTile, kRows>;
  using Stage = LeanStage<kTile, kChunk>;
  constexpr int kChunks = kTile / kChunk;
  int bi, bj;
  if (!tiles.pick(kb, bi, bj)) return;
  extern __shared__ __align__(16) std::int32_t lean_slices[];  // kStages stages of Stage::kWords
  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % Block::kSideX, ty = tid / Block::kSideX;
  LeanCopies<kTile, kChunk, Block::kThreads> copies(n, bi * kTile, bj * kTile, kb * kTile, tid);

  // The first kStages - 1 chunks start at once; a group is committed for each, present or not, so
  // that "all but the newest kStages - 2 groups have landed" always means "this chunk has".
#pragma unroll
  for (int s = 0; s + 1 < kStages; ++s) {
    if (s < kChunks) copies.copy_next(d, n, lean_slices + s * Stage::kWords);
    __pipeline_commit();
  }

  const MicroTileAt<kTile, kRows> tile(d, n, bi, bj, tx, ty);
  std::int32_t best[kRows][kMicroTile];
  tile.load(n, best);

#pragma unroll 1
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    __pipeline_wait_prior(kStages - 2);  // this thread's copies of `chunk` have landed
    __syncthreads();  // ... and everyone's; and every warp is done with chunk - 1, whose stage the
                      // copy below reuses
    if (chunk + kStages - 1 < kChunks)
      copies.copy_next(d, n, lean_slices + ((chunk + kStages - 1) % kStages) * Stage::kWords);
    __pipeline_commit();
    relax_lean<kTile, kChunk, kRows>(lean_slices + (chunk % kStages) * Stage::kWords, tx, ty, best);
  }
  tile.store(n, best);
}

// Tile t of RestTiles's (tiles - 2)^2, row by row, skipping rows and columns kb and kb + 1.
__device__ __forceinline__ void rest_tile(int t, int tiles, int kb, int& bi, int& bj) {
  const int side = tiles - 2, row = t / side, column = t % side;
  bi = row < kb ? row : row + 2;
  bj = column < kb ? column : column + 2;
}

// RestTiles's part of round kb's phase 3 (--tiles-per-block above 1, with 16 rows a thread), by blocks that each take up to
// tiles_per_block tiles: block x first takes tile x, then asks the counter *handed_out (zero at the
// launch) for the next; its chunks run on from tile to tile through the stages, so the copies of the
// next tile's first kStages - 1 chunks start while the current tile's last chunks are computed and
// the tile's first chunk is not waited for. A block still ends after tiles_per_block tiles, which
// frees its place on the SM for the look-ahead stream's kernels (they come first) every few tiles.
template <int kTile, int kChunk, int kStages, int kRows>
__global__ void __launch_bounds__(LeanBlock<kTile, kRows>::kThreads, LeanBlock<kTile, kRows>::kBlocksPerSm)
    lean_min_plus_tiles(std::int32_t* d, int n, int kb, unsigned* handed_out, int tiles_per_block) {
  static_assert(kStages == 2 || kStages == 3, "two or three stages");
  static_assert(kTile % kChunk == 0 && kChunk % 4 == 0, "whole chunks of whole groups of four");
  using Block = LeanBlock<kTile, kRows>;
  using Stage = LeanStage<kTile, kChunk>;
  constexpr int kChunks = kTile / kChunk;
  constexpr int kTurn = kChunks - (kStages - 1);  // from this chunk on, the copies are the next tile's
  static_assert(kTurn >= 0, "a tile has at least kStages - 1 chunks");
  const int tiles = n / kTile, total = (tiles - 2) * (tiles - 2);
  extern __shared__ __align__(16) std::int32_t lean_slices[];  // kStages stages of Stage::kWords
  __shared__ int next_tile[2];  // the successor of a tile (or -1), in turns
  const int tid = static_cast<int>(threadIdx.x);
  const int tx = tid % Block::kSideX, ty = tid / Block::kSideX;

  int tile_number = static_cast<int>(blockIdx.x), bi, bj;
  rest_tile(tile_number, tiles, kb, bi, bj);
  LeanCopies<kTile, kChunk, Block::kThreads> copies(n, bi * kTile, bj * kTile, kb * kTile, tid);
#pragma unroll
  for (int s = 0; s + 1 < kStages; ++s) {  // as lean_min_plus; every chunk below commits one group
    copies.copy_next(d, n, lean_slices + s * Stage::kWords);
    __pipeline_commit();
  }

  int stage = 0;  // the stage of the chunk being computed (the chunks run on from tile to tile)
  for (int m = 0;; ++m) {  // the block's m-th tile; next_tile[m % 2] will name the one after it
    if (tid == 0) {  // read by everyone after the first barrier below
      const unsigned t = m + 1 < tiles_per_block ? gridDim.x + atomicAdd(handed_out, 1u) : total;
      next_tile[m % 2] = t < static_cast<unsigned>(total) ? static_cast<int>(t) : -1;
    }
    rest_tile(tile_number, tiles, kb, bi, bj);
    std::int32_t best[kRows][kMicroTile];
    MicroTileAt<kTile, kRows>(d, n, bi, bj, tx, ty).load(n, best);
#pragma unroll 1
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      __pipeline_wait_prior(kStages - 2);
      __syncthreads();
      if (chunk == kTurn && next_tile[m % 2] >= 0) {  // this tile's chunks are all on their way: the next's
        int ni, nj;
        rest_tile(next_tile[m % 2], tiles, kb, ni, nj);
        copies = LeanCopies<kTile, kChunk, Block::kThreads>(n, ni * kTile, nj * kTile, kb * kTile, tid);
      }
      if (chunk < kTurn || next_tile[m % 2] >= 0)
        copies.copy_next(d, n, lean_slices + (stage == 0 ? kStages - 1 : stage - 1) * Stage::kWords);
      __pipeline_commit();
      relax_lean<kTile, kChunk, kRows>(lean_slices + stage * Stage::kWords, tx, ty, best);
      stage = stage + 1 == kStages ? 0 : stage + 1;
    }
    // The tile's address again, from its number (one register through the loop, not two); the empty
    // asm keeps the compiler from reusing the loads' address instead.
    asm volatile("" : "+r"(tile_number));
    rest_tile(tile_number, tiles, kb, bi, bj);
    MicroTileAt<kTile, kRows>(d, n, bi, bj, tx, ty).store(n, best);
    tile_number = next_tile[m % 2];
    if (tile_number < 0) return;
  }
}

// Launches lean_min_plus on `grid` blocks.
template <class Tiles, int kTile, int kChunk, int kStages, int kRows = kMicroTile>
void launch_lean(std::int32_t* d, int padded, int kb, dim3 grid, cudaStream_t stream) {
  lean_min_plus<Tiles, kTile, kChunk, kStages, kRows><<<grid, LeanBlock<kTile, kRows>::kThreads,
                                                        lean_shared_bytes<kTile, kChunk, kStages>(), stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

// Launches lean_min_plus_tiles on RestTiles's tiles of round kb, tiles_per_block a block;
// handed_out[kb] must be zero.
template <int kTile, int kChunk, int kStages, int kRows>
void launch_lean_tiles(std::int32_t* d, int padded, int kb, unsigned* handed_out, int tiles_per_block,
                       cudaStream_t stream) {
  const int side = padded / kTile - 2;
  if (side <= 0) return;  // no tile outside the two crosses
  const int blocks = (side * side + tiles_per_block - 1) / tiles_per_block;
  lean_min_plus_tiles<kTile, kChunk, kStages, kRows>
      <<<blocks, LeanBlock<kTile, kRows>::kThreads, lean_shared_bytes<kTile, kChunk, kStages>(), stream>>>(
          d, padded, kb, handed_out + kb, tiles_per_block);
  CUDA_CHECK_LAUNCH();
}

// Lets every kernel of one shape use its shared memory (more than the default 48 KB for the deeper
// shapes), and asks for the largest shared-memory share of L1, since these kernels cache nothing
// else there. Throws course::NotSupportedError where a block cannot have that much.
template <int kTile, int kChunk, int kStages, int kRows>
void allow_lean_shared_memory(const course::DeviceFacts& device) {
  constexpr std::size_t bytes = lean_shared_bytes<kTile, kChunk, kStages>();
  const void* kernels[] = {
      reinterpret_cast<const void*>(lean_min_plus<Phase3Tiles, kTile, kChunk, kStages, kRows>),
      reinterpret_cast<const void*>(lean_min_plus<PanelTiles, kTile, kChunk, kStages, kRows>),
      reinterpret_cast<const void*>(lean_min_plus<NextCrossTiles, kTile, kChunk, kStages, kRows>),
      reinterpret_cast<const void*>(lean_min_plus<RestTiles, kTile, kChunk, kStages, kRows>),
      kRows == 16 ? reinterpret_cast<const void*>(lean_min_plus_tiles<kTile, kChunk, kStages, 16>) : nullptr};
  for (const void* kernel : kernels) {
    if (kernel == nullptr) continue;
    course::require_shared_memory(kernel, bytes, device, "phase 3 of step 13");
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
  }
}

// Calls f(chunk, stages, rows) with the three as compile-time constants (std::integral_constant).
template <class F>
decltype(auto) at_slices(int chunk, int stages, int rows, F f) {
  using C16 = std::integral_constant<int, 16>;
  using C32 = std::integral_constant<int, 32>;
  using S2 = std::integral_constant<int, 2>;
  using S3 = std::integral_constant<int, 3>;
  const auto with_rows = [&](auto c, auto s) {
    if (rows == 16) return f(c, s, std::integral_constant<int, 16>{});
    return f(c, s, std::integral_constant<int, kMicroTile>{});
  };
  if (chunk == 32) return stages == 3 ? with_rows(C32{}, S3{}) : with_rows(C32{}, S2{});
  return stages == 3 ? with_rows(C16{}, S3{}) : with_rows(C16{}, S2{});
}

// Whether a shape keeps the threads per SM its micro-tile is made for (kBlocksPerSm blocks: 512
// threads with 8 rows, 256 with 16): its shared memory must not cost blocks. The shape's limit is
// raised first, so the occupancy calculator sees what the launch will ask for.
template <int kTile, int kChunk, int kStages, int kRows>
bool lean_shape_keeps_occupancy(const course::DeviceFacts& device) {
  constexpr std::size_t bytes = lean_shared_bytes<kTile, kChunk, kStages>();
  const std::size_t limit = device.shared_memory_per_block_optin > 0 ? device.shared_memory_per_block_optin
                                                                     : device.shared_memory_per_block;
  if (bytes > limit) return false;
  allow_lean_shared_memory<kTile, kChunk, kStages, kRows>(device);
  using Block = LeanBlock<kTile, kRows>;
  const int wanted = Block::kBlocksPerSm * device.multiprocessors;
  return course::resident_blocks(
             reinterpret_cast<const void*>(lean_min_plus<RestTiles, kTile, kChunk, kStages, kRows>),
             Block::kThreads, bytes, device) >= wanted;
}

// Step 13's plan: step 08's width rule (or --tile), then the slices: --chunk and --stages where given,
// otherwise the deepest shape that keeps the occupancy (32 values of k in three stages, then two
// stages, then 16 values in three, then two), fewest barriers and most copies in flight first.
// --rows (8 by default) and --tiles-per-block (1 by default: a block a tile) are taken as given;
// several tiles a block need a counter of handed-out tiles per round, after the padded matrix in
// the scratch.
inline LaunchPlan lean_plan(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested) {
  return at_width(round_width(n, device, requested), [&](auto width) {
    constexpr int kTile = decltype(width)::value;
    LaunchPlan p = register_tiles_plan<kTile>(n, device, requested);
    p.chunk = requested.chunk, p.stages = requested.stages;
    p.tiles_per_block = requested.tiles_per_block != 0 ? requested.tiles_per_block : 1;
    // lean_min_plus_tiles's own state does not fit beside an 8 x 8 micro-tile in 128 registers
    // (ptxas spills), so several tiles a block come with 16 rows a thread.
    p.rows = p.tiles_per_block > 1 ? 16 : (requested.rows != 0 ? requested.rows : kMicroTile);
    p.threads = p.rows == 16 ? LeanBlock<kTile, 16>::kThreads : LeanBlock<kTile, kMicroTile>::kThreads;
    if (p.chunk == 0 || p.stages == 0) {
      const int shapes[][2] = {{32, 3}, {32, 2}, {16, 3}, {16, 2}};
      for (const auto& shape : shapes) {
        if ((requested.chunk != 0 && requested.chunk != shape[0]) ||
            (requested.stages != 0 && requested.stages != shape[1]))
          continue;
        const bool keeps = at_slices(shape[0], shape[1], p.rows, [&](auto chunk, auto stages, auto rows) {
          return lean_shape_keeps_occupancy<kTile, decltype(chunk)::value, decltype(stages)::value,
                                            decltype(rows)::value>(device);
        });
        p.chunk = shape[0], p.stages = shape[1];
        if (keeps) break;  // otherwise the last shape that fits the request stays
      }
    }
    at_slices(p.chunk, p.stages, p.rows, [&](auto chunk, auto stages, auto rows) {
      allow_lean_shared_memory<kTile, decltype(chunk)::value, decltype(stages)::value, decltype(rows)::value>(device);
    });
    if (p.tiles_per_block > 1) p.scratch_bytes += p.padded / kTile * sizeof(unsigned);
    return p;
  });
}

// The per-round counters of lean_min_plus_tiles: the last padded / kTile unsigned of the scratch.
inline unsigned* lean_tile_counters(void* scratch, const LaunchPlan& p) {
  return reinterpret_cast<unsigned*>(static_cast<unsigned char*>(scratch) + p.scratch_bytes) -
         p.padded / static_cast<std::size_t>(p.tile);
}

}  // namespace floyd_warshall
