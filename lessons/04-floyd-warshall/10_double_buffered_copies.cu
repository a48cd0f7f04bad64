// Lesson 04, step 10: two stages of shared memory, so copying the next slice of k overlaps
// computing with this one.
//
// What changed: how phase 3's kernel goes through the chunks of k. Step 09's ChunkLoop<1>
// (08_blocked_register_tiles.cuh) becomes ChunkLoop<2> (10_double_buffered_copies.cuh, beside this
// file; `diff` the two run()s); the rest of the kernel is step 08's, with two stages of shared memory
// (kStages = 2), and phases 1 and 2 are step 09's. In step 09 a block copies 16 values of k into
// shared memory, waits until they have landed, computes with them, and only then starts the next
// copy: every 16 values of k, all its warps
// stand still for the memory latency, and the blocks on an SM start their tiles together, so they
// tend to stand still at the same moments. Now the block owns two stages. Before computing with stage
// s it starts the copy of the next chunk into the other stage; the copies are asynchronous (cp.async:
// __pipeline_memcpy_async, then __pipeline_commit), so the threads go straight on to compute, and
// __pipeline_wait_prior(1) waits only for the older of the two chunks in flight. Chunk by chunk:
//
//   step 09:  copy 0 | wait | compute 0 | copy 1 | wait | compute 1 | ...
//   step 10:  copy 0, copy 1 | wait 0 | compute 0, copy 2 | wait 1 | compute 1, copy 3 | ...
//
// Why it can be faster: a block's waits shrink to whatever the copy of a chunk takes beyond computing
// the previous one. How much that is worth depends on what else the SM has to run: next to nothing
// in the README's ladder at n = 2048, where several blocks share each SM and already cover one
// another's waits; a little at n = 8192; most in its counters at n = 512, one phase-3 tile to an SM.
//
// What it costs: twice the shared memory for the slices (33 KB per block of 128 instead of 16.6 KB;
// two blocks of 128, or eight of 64, still fit on an SM). The two barriers per chunk stay: one before
// computing (every thread's copies have landed), one after (no copy starts into a stage that a slow
// warp is still reading).
//
// Launch: as step 08 (rounds of 64 or 128 by n, or --tile; n padded to that width); --threads and
// --blocks are ignored.
#include "08_blocked_register_tiles.cuh"
#include "09_register_phases.cuh"
#include "10_double_buffered_copies.cuh"
#include "floyd_warshall.h"

// The plan and the launcher are step 08's, in 08_blocked_register_tiles.cuh: step 07's rounds with
// step 09's phases 1 and 2 (RegisterPhases), each closed by min_plus_registers<Phase3Tiles, 2> over
// every tile outside row and column kb, which goes through its chunks with ChunkLoop<2>.
const floyd_warshall::Step floyd_warshall::kThisStep = {
    "10", "two shared-memory stages, copies overlap compute", "gpu", nullptr,
    floyd_warshall::micro_tile_rounds_plan<floyd_warshall::RegisterPhases>,
    floyd_warshall::run_micro_tile_rounds<floyd_warshall::RegisterPhases, 2>, floyd_warshall::kDefaultVertices,
    2049, false, true};
