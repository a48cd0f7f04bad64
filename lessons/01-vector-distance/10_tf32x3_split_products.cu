// Lesson 01, step 10: float32 accuracy from TF32 tensor cores, three products per term.
//
// What changed: how each product is made. A float x splits into big = x rounded to TF32 and small =
// what that rounding dropped, rounded to TF32 too; together they hold about 22 of x's 24 bits. Then
//
//     a.b = a_big.b_big + a_big.b_small + a_small.b_big (+ a_small.b_small, about 2^-22 of a.b: dropped)
//
// three mma per tile where step 09 made one, the two small products first so that the large one does
// not swallow them. And a second change, which the accuracy report measures apart (its column "10
// without slice sums"): the tensor cores add a product into a large running sum less exactly than an
// FADD rounds, so three mma per depth of 8 straight onto the dots drift past step 08's bound on data
// far from the origin. The products of a slice (32
// elements deep) now go into sums of their own, small beside the dots, and join them with one FADD
// per slice. The kernel is step 09's; only the Product it is given changes
// (10_tf32x3_split_products.cuh against OneProduct in 09_tf32_tensor_cores.cuh).
//
// What it buys: step 08's float32 bound again (the check holds this step to it, and the accuracy
// report measures it), at three times step 09's tensor-core work plus the splits. Whether that still
// beats the FP32 cores is the README's table.
//
// What it costs: the splits take instructions beside the mma (two conversions and a subtraction per
// input value); the slice's sums take 64 registers, so a thread of the large tile needs 235 and one
// block of 256 fits an SM. The error is that of float32 arithmetic, not better: the norm
// expansion's cancellation stays.
// TF32 needs compute capability 8.0 or newer; float32 only.
#include "10_tf32x3_split_products.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type,
                          const course::DeviceFacts& device) {
  distance::LaunchPlan p;
  p.scratch_bytes = tf32_tensor_cores::prepare<tf32x3_split_products::ThreeProducts>(m, k, device, "step 10");
  return p;
}

void run(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
         const distance::LaunchPlan&, void* scratch, cudaStream_t stream) {
  tf32_tensor_cores::launch<tf32x3_split_products::ThreeProducts>(a, b, c, m, k, n, scratch, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "10", "norm expansion, 3 TF32 products per term", "gpu", distance::Form::NormExpansion, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run, nullptr, false, 3};
