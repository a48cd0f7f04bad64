// Lesson 01, step 14: the library route on TF32 tensor cores, row norms plus cublasSgemm in
// CUBLAS_TF32_TENSOR_OP_MATH.
//
// What changed: one setting of step 13's handle. cuBLAS may now run the product on the tensor cores
// with every input rounded to TF32, as step 09 does; it stands beside steps 09, 11 and 12 as their
// bar (step 10, held to float32's accuracy, is measured against step 13), and it owes the same accuracy
// as step 09 (the check holds it to the TF32 bound; the accuracy report shows its error). The code is
// step 13's (13_cublas_norms.cuh), with Math::Tf32.
//
// What it buys: the product leaves the FP32 cores for the tensor cores, whose TF32 ceiling is eight
// times the FP32 one (the README's ceilings), for one changed setting and no kernel of our own. How
// much faster than step 13 that makes it, the README's ladder shows.
//
// What it costs: step 09's accuracy. Every input of a.b is rounded to TF32, 10 bits of mantissa
// instead of 23, so C may be off by up to about 3 x 2^-11 (|a|^2 + |b|^2) instead of float32's bound,
// and on data far from the origin that error, like step 13's, grows with (|a|^2 + |b|^2) / C (the
// README's accuracy report). The setting holds for every product made on the handle: a program that
// needs float32's accuracy for other products sets it back or keeps a second handle. And like step
// 13 it pays for going through a library: the norms and the pass that fills C are kernels of their
// own, and cublasSgemm reads C back to add to it (beta = 1).
//
// float32 only: cuBLAS has no int32 matrix product, so --type int32 is refused.
#include "13_cublas_norms.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t n, distance::Type,
                          const course::DeviceFacts&) {
  distance::LaunchPlan p;
  p.scratch_bytes = cublas_norms::prepare(m, k, n, cublas_norms::Math::Tf32);
  return p;
}

void run(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
         const distance::LaunchPlan&, void* scratch, cudaStream_t stream) {
  cublas_norms::launch(a, b, c, m, k, n, scratch, stream, cublas_norms::Math::Tf32);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "14", "row norms + cublasSgemm in TF32 (library)", "library", distance::Form::NormExpansionTf32,
    distance::kDefaultSize, nullptr, nullptr, nullptr, plan, run, nullptr, false, 1};
