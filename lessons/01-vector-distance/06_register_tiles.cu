// Lesson 01, step 06: register tiles, an 8 x 8 block of C per thread.
//
// What changed: step 05 reads two words from shared memory for every term, and shared memory, not
// arithmetic, sets its pace. Here a block of 256 threads computes a 128 x 128 tile of C, and each
// thread an 8 x 8 micro-tile of it, kept in 64 registers. At each element x of the vectors a thread
// loads 8 values of A and 8 of B from shared memory into registers (its fragments, four 16-byte loads)
// and uses them for 64 terms: 16 words read for 64 terms instead of 128. The tiles of A and B come
// from global memory in slices 8 elements deep, in 16-byte loads, and are stored transposed, so that
// the values one thread needs at a given x lie side by side in shared memory. The kernel is in
// 06_register_tiles.cuh, which steps 07 and 08 reuse.
//
// Why it is faster: per element x each thread now issues 4 loads and 128 arithmetic instructions (a
// subtraction and a fused multiply-add per term), so the arithmetic units, not shared memory, are
// the limit (the README's counters: the FMA pipe about twice as busy as in step 05). That limit is
// the ceiling in the tables: one FP32 instruction per lane per clock. Two instructions per term put
// this direct form at half of it at best.
//
// What it costs: registers (122 per thread in the README's counters; __launch_bounds__ asks for two
// blocks per SM), blocks of 128 x 128 (a small C leaves SMs idle), and more code for the edges:
// 16-byte loads need N a multiple of 4 (otherwise four 4-byte loads, zero-filled past the end),
// 16-byte stores K a multiple of 4. And each slice still goes load, barrier, arithmetic, barrier:
// while a slice travels from global memory, the block waits (step 07).
//
// Who computes what, traced with real indices (micro_row() and micro_col() in the header). The 256
// threads are 8 warps; the warps split the block's 128 x 128 tile of C into 2 x 4 parts of 64 rows by
// 32 columns: warp w takes rows 64 (w / 4) .. + 63 and columns 32 (w % 4) .. + 31. Inside its part, a
// warp's 32 lanes own 4 x 4 squares, laid out like this (each number is the lane that owns the square
// of 4 rows by 4 columns at that place; warp 2's part, rows 0-63, columns 64-95 of the tile):
//
//                columns: 64-67 68-71 72-75 76-79   80-83 84-87 88-91 92-95
//     rows  0- 3            0     1     2     3       0     1     2     3
//     rows  4- 7            4     5     6     7       4     5     6     7
//       ...                          (rows 4 j .. 4 j + 3: lanes 4 j .. 4 j + 3)
//     rows 28-31           28    29    30    31      28    29    30    31
//     rows 32-35            0     1     2     3       0     1     2     3
//       ...                          (the same again, 32 rows lower)
//     rows 60-63           28    29    30    31      28    29    30    31
//
// So lane l owns four squares: rows 4 (l / 4) and 32 + 4 (l / 4), each 4 deep, times columns 4 (l % 4)
// and 16 + 4 (l % 4), each 4 wide; 8 rows by 8 columns of C in all, its 64 sums. Thread 77 is lane 13
// of warp 2: rows 12-15 and 44-47, columns 68-71 and 84-87 of the tile. At each element x of a slice
// it reads A's transposed tile at a[x][12..15] and a[x][44..47] and B's at b[x][68..71] and
// b[x][84..87]: four 16-byte loads, the 16 values of its fragments. Why squares apart rather than one
// 8 x 8 block: when the warp loads a[x][4 (l / 4) .. + 3], lanes 0-3 share one 16-byte group (a
// broadcast), lanes 4-7 the next, and the 8 groups the warp asks for are 32 neighbouring words, one in
// each bank: no bank conflict (the README's counters find none in this step). With 8 x 8 blocks the 8
// groups would lie 32 bytes apart, groups 0 and 4 in the same banks: a 2-way conflict on every load.
// Getting the slice there: each thread loads one group of 4 elements of one row of A and one of B
// (thread t: row t / 2 of the tile, elements 4 (t % 2) .. + 3 of the slice; thread 77: row 38,
// elements 4-7) and stores them transposed, a[4..7][38] and b[4..7][38].
//
// --scalar-loads turns the 16-byte accesses off (the micro-tiles stay), to measure what they add: the
// README's table of step 06 with 16-byte and 4-byte accesses.
#include <cstdint>

#include "06_register_tiles.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type, const course::DeviceFacts&) {
  register_tiles::grid_blocks(m, k);  // throws if M x K is beyond one grid
  return {};
}

template <class T>
void run(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, const distance::LaunchPlan& p,
         void*, cudaStream_t stream) {
  register_tiles::launch(a, b, c, m, k, n, stream, !p.scalar_loads);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "06", "register tiles, 8 x 8 per thread", "gpu", distance::Form::Direct, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run<float>, run<std::int32_t>, true};
