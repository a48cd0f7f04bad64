// Lesson 04, step 09: phases 1 and 2 with the tile in registers.
//
// What changed: phases 1 and 2 only; phase 3 and the rounds are step 08's. In step 08 a block of
// 32 x 32 threads closes a tile of 64 or 128 as step 07 does, the tile waiting in shared memory: for
// each k, every thread reads d[i][k] and d[k][j] of its elements there, and two barriers per k keep the
// readers of step k apart from its writers. Now every thread keeps its elements of the tile in
// registers throughout (09_register_phases.cuh), as step 08's micro-tiles do in phase 3. Warp y owns
// rows y, y + 32, ... of the tile, so for each k:
//   - d[i][k], column k, lies in the thread's own warp (lane k % 32 holds it): a warp shuffle
//     (__shfl_sync, lesson 02's step 06) hands it over, without shared memory or a barrier;
//   - d[k][j], row k, belongs to warp k % 32, which writes it to shared memory before the block's one
//     barrier for that k, into one of two buffers used in turn (the idea of step 10's two stages), so
//     that the writers of row k + 1 never overwrite what a slow warp still reads for k.
// Phase 2's tiles of row kb take d[i][k] from the diagonal tile, which alone stays in shared memory.
//
// Why it is faster: phases 1 and 2 are chains of the round's 64 or 128 values of k, a barrier or two
// apart, on few blocks: one barrier per k instead of two, and the operands from registers and
// shuffles instead of two shared-memory reads per update. The chains weigh most where n is small, with
// rounds of little parallel work each (the README compares steps 08 and 09 by n).
//
// What it costs: 4 or 16 registers a thread for its elements, and a shuffle per row for each k.
// Phase 2 still needs more than the default 48 KB of shared memory with tiles of 128 (the diagonal tile
// and the two row buffers): the plan asks for it, and a GPU that cannot give a block that much skips
// the step.
//
// Launch: as step 08 (rounds of 64 or 128 by n, or --tile; n padded to that width); --threads and
// --blocks are ignored.
#include "08_blocked_register_tiles.cuh"
#include "09_register_phases.cuh"
#include "floyd_warshall.h"

// The plan and the launcher are step 08's, in 08_blocked_register_tiles.cuh: step 07's rounds with
// these phases 1 and 2 (RegisterPhases), each closed by min_plus_registers<Phase3Tiles, 1> over every
// tile outside row and column kb.
const floyd_warshall::Step floyd_warshall::kThisStep = {
    "09", "phases 1 and 2 in registers, shuffles", "gpu", nullptr,
    floyd_warshall::micro_tile_rounds_plan<floyd_warshall::RegisterPhases>,
    floyd_warshall::run_micro_tile_rounds<floyd_warshall::RegisterPhases, 1>, floyd_warshall::kDefaultVertices,
    2049, false, true};
