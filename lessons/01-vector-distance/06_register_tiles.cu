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
// the limit (the README's counters: the FMA pipe busy 61% of the time, against step 05's 30%). That
// limit is the ceiling in the tables: one FP32 instruction per lane per clock. Two instructions per
// term put this direct form at 50% of it at best.
//
// What it costs: registers (122 per thread in the README's counters; __launch_bounds__ asks for two
// blocks per SM), blocks of 128 x 128 (a small C leaves SMs idle), and more code for the edges:
// 16-byte loads need N a multiple of 4 (otherwise four 4-byte loads, zero-filled past the end),
// 16-byte stores K a multiple of 4. And each slice still goes load, barrier, arithmetic, barrier:
// while a slice travels from global memory, the block waits (step 07).
//
// --scalar-loads turns the 16-byte accesses off (the micro-tiles stay), to measure what they add: in
// the README's table at 4096 the step takes 6.104 ms without them and 5.638 ms with them.
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
