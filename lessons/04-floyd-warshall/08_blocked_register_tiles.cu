// Lesson 04, step 08: register micro-tiles in the third phase, on wider rounds.
//
// What changed: phase 3 and the width of the rounds. Phase 3 (nearly all the work) gets two things, aimed at
// doing more updates per value fetched, that come together (an 8 x 8 micro-tile per thread of a
// 32 x 32 tile would leave a block of 16 threads):
//   - Register micro-tiles. Each thread owns an 8 x 8 block of its tile, kept in 64 registers for the
//     whole phase. For each k it reads 8 values of d[i][k] and 8 of d[k][j] from shared memory (four
//     16-byte loads) and does 64 updates with them. Step 07 read two values for every update.
//   - Bigger rounds. Tiles of 128 x 128 (or 64 x 64 at small n, below), so a round covers 128 values
//     of k and the matrix passes through memory n / 128 times instead of n / 32. __launch_bounds__
//     holds a thread to at most 128 registers, so that two blocks of 256 threads fit in an SM's 64 K
//     registers.
// Not new here: one instruction per update. __viaddmin_s32(a, b, c) computes min(a + b, c); on Hopper
// (sm_90) the compiler emits a single VIADDMNMX for it, where other GPUs need an add and a min (the
// intrinsic falls back to that by itself). It makes the same VIADDMNMX of step 07's plain
// min(best, a + b), and of min(a + b, c) written here instead of the intrinsic (the README gives the
// disassembly's counts), so step 07 has it already; the intrinsic says it outright. The table's
// ceiling counts one such update per integer lane per clock.
// The k range reaches shared memory 16 values at a time (16.6 KB per block with tiles of 128, 8.4 KB
// with tiles of 64): the block copies a chunk (asynchronously, with cp.async, which step 10 puts to
// use), waits for it, computes with it, and only then copies the next.
// Phases 1 and 2 are step 07's, as a textbook writes them (PlainPhases, 07_blocked_shared_tiles.cuh),
// on the round's wider tiles: a block of 32 x 32 threads, each thread owning 4 (or 16) elements of a
// tile that waits in shared memory, two barriers per k. Step 09 keeps them in registers instead.
// Phase 3's kernel lives in 08_blocked_register_tiles.cuh, because steps 09 to 14 launch it too.
//
// Rounds of 64 keep the micro-tiles on tiles of 64 x 64 (phase 3 in blocks of
// 64 threads, eight to an SM). They win while n is small, because 128-wide rounds leave too few
// tiles to keep every SM busy: round_width (08_blocked_register_tiles.cuh) picks 64 or 128 by n, for
// this step and the five after it, and --tile 64 or --tile 128 forces one, to measure both.
//
// What it costs: registers. A thread holds its 64 values and the 16 operands of each k, far more
// registers than step 07's phase 3 needs (the README's counters), and __launch_bounds__ caps them at
// 128 so that two blocks of 256 threads (eight of 64) fit on an SM, and no more do: a quarter of the
// warps an SM of an H100 or an H200 can hold, so the 64 independent updates of each k must hide the latency that more
// warps would. Then, a tile is big, so a round has few of them: at small n phase 3 leaves SMs idle or
// with one block (the README's counters at n = 512 show its low occupancy). And the width is a rule
// chosen by n (round_width), set from measurements on one GPU, and not the faster width for this
// step at every n (the README's table "rounds of 64 and of 128"). n is also padded to a multiple of
// 64 or 128 instead of 32. And phases 1 and 2, step 07's chains of k, now run 64 or 128 values of k a
// round with two barriers each; with tiles of 128, phase 2 holds two of them in shared memory
// (128 KB, more than the default 48 KB: the plan asks for it, and a GPU that cannot give a block
// that much skips the step).
//
// Bank conflicts: d[i][k] slices are stored transposed (at[k][i]), so both operands are read as
// 16-byte vectors along a row of shared memory; a thread's 8 rows are two groups of 4, half a tile
// apart (rows 4t..4t+3 and 64+4t..64+4t+3 in a tile of 128), so the 8 lanes that share a load phase
// read 8 consecutive vectors. The README's counters agree in the large: the passes per warp-wide load
// of a load without conflicts; they also count a few conflicted passes in the whole of phase 3 at the
// profile's n = 512, which this layout does not explain (steps 10 and 11, whose phase 3 reads the same
// layout, show none).
//
// Launch: phase 3 uses blocks of 256 threads, one per 128 x 128 tile (64 threads per 64 x 64 tile);
// phases 1 and 2 blocks of 32 x 32 threads; --threads and --blocks are ignored. n is padded to a
// multiple of the round's width.
#include "07_blocked_shared_tiles.cuh"
#include "08_blocked_register_tiles.cuh"
#include "floyd_warshall.h"

// The plan (rounds of 128 or 64, by n or by --tile) and the launcher are in
// 08_blocked_register_tiles.cuh: step 07's rounds with its phases 1 and 2 (PlainPhases) at the plan's
// width, each closed by min_plus_registers<Phase3Tiles, 1> over every tile outside row and column kb.
const floyd_warshall::Step floyd_warshall::kThisStep = {
    "08", "register micro-tiles in phase 3, wider rounds", "gpu", nullptr,
    floyd_warshall::micro_tile_rounds_plan<floyd_warshall::PlainPhases>,
    floyd_warshall::run_micro_tile_rounds<floyd_warshall::PlainPhases, 1>, floyd_warshall::kDefaultVertices,
    2049, false, true};
