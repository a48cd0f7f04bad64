// Lesson 01, step 08: the norm expansion, one instruction per term.
//
// What changed: the algebra. (a - b)^2 summed over x is |a|^2 + |b|^2 - 2 a.b. The norms |a_i|^2 and
// |b_j|^2 take one pass over A and B (M + K short sums, a small kernel), and what is left for every
// pair is the dot product a_i.b_j: one fused multiply-add per term instead of a subtraction and a
// multiply-add. The kernel is step 07's, tiles, fragments, pipelined loads and all, with that one
// change in its innermost loop and the norms added at the end (08_norm_expansion.cuh). It is also
// exactly the structure of a matrix product, C = A B^T, which is what lets steps 09 to 12 hand the work
// to the tensor cores, and steps 13 and 14 to cuBLAS.
//
// Why it is faster: one arithmetic instruction per term instead of two (the README's counters show
// the instructions per term fall by one), so the ceiling that capped steps 06 and 07 at half the FP32
// rate now allows all of it.
//
// What it costs: accuracy, when the vectors are far from the origin and close to each other. Then
// |a|^2 + |b|^2 and 2 a.b are two large, nearly equal numbers, and their difference keeps only the
// digits that their rounding errors did not touch. The error of the direct form scales with the
// distance; this one scales with |a|^2 + |b|^2. The lesson's check allows for that (see check() in
// distance.h), and the accuracy report (lesson01_accuracy) measures it. int32 results stay exact: the
// sums are kept modulo 2^32, and the distance, which fits, comes out right.
#include <cstdint>

#include "08_norm_expansion.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type type, const course::DeviceFacts&) {
  register_tiles::grid_blocks(m, k);  // throws if M x K is beyond one grid
  distance::LaunchPlan p;
  p.scratch_bytes = type == distance::Type::Int32 ? norm_expansion::scratch_bytes<std::int32_t>(m, k)
                                                  : norm_expansion::scratch_bytes<float>(m, k);
  return p;
}

template <class T>
void run(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n, const distance::LaunchPlan&,
         void* scratch, cudaStream_t stream) {
  norm_expansion::launch(a, b, c, m, k, n, scratch, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "08", "norm expansion, 1 FMA per term", "gpu", distance::Form::NormExpansion, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run<float>, run<std::int32_t>};
