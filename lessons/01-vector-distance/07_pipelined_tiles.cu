// Lesson 01, step 07: the next slice's loads in flight during this slice's arithmetic.
//
// What changed: the order of the loop. In step 06 every slice goes: load from global memory, store
// into shared memory, barrier, arithmetic, barrier; while the loads travel, the block's warps have
// nothing to do but wait. Here the loads of slice t + 1 are issued first, into registers; the
// arithmetic of slice t runs meanwhile from shared memory; only then do the loaded values go into a
// second shared slice, and one barrier closes the round. Two shared slices take turns, so the block
// never writes the slice it is reading (07_pipelined_tiles.cuh).
//
// Why it is faster: the wait for global memory now overlaps the arithmetic instead of adding to it,
// and there is one barrier per slice instead of two.
//
// What it costs: twice the shared memory (17 KB per block) and registers: the next slice stays in
// them across the arithmetic (the README's counters show the registers per thread beside step 06's).
#include <cstdint>

#include "07_pipelined_tiles.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type, const course::DeviceFacts&) {
  register_tiles::grid_blocks(m, k);  // throws if M x K is beyond one grid
  return {};
}

template <class T>
void run(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, const distance::LaunchPlan&,
         void*, cudaStream_t stream) {
  pipelined_tiles::launch(a, b, c, m, k, n, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "07", "register tiles, pipelined slices", "gpu", distance::Form::Direct,
    distance::kDefaultSize, nullptr, nullptr, nullptr, plan, run<float>, run<std::int32_t>};
