// Lesson 01, step 13: the library route, row norms plus cublasSgemm.
//
// What changed: step 08's expansion, with the matrix product done by cuBLAS. A small kernel of step
// 08 computes the norms, another fills C[i][j] with |a_i|^2 + |b_j|^2, and one cublasSgemm adds
// -2 A B^T to it (beta = 1). This is how distance matrices are usually computed in practice: the
// pairwise work becomes a matrix product, which a library provides. The handle is set to
// CUBLAS_DEFAULT_MATH, so the product runs in FP32 (TF32 tensor cores would keep 10 bits of each
// input's mantissa instead of 23); it is made once, outside the timed runs. The code is in
// 13_cublas_norms.cuh.
//
// What to expect: the same computation as step 08, so the same
// cancellation error on data far from the origin (the accuracy report measures both). float32 only:
// cuBLAS has no int32 matrix product, so --type int32 is refused.
#include "13_cublas_norms.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t n, distance::Type,
                          const course::DeviceFacts&) {
  distance::LaunchPlan p;
  p.scratch_bytes = cublas_norms::prepare(m, k, n, cublas_norms::Math::Fp32);
  return p;
}

void run(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
         const distance::LaunchPlan&, void* scratch, cudaStream_t stream) {
  cublas_norms::launch(a, b, c, m, k, n, scratch, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "13", "row norms + cublasSgemm (library)", "library", distance::Form::NormExpansion, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run, nullptr};
