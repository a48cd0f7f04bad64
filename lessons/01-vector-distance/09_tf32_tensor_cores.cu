// Lesson 01, step 09: the products a.b on the tensor cores, in TF32.
//
// What changed: the unit that does the arithmetic. Step 08 left a matrix product, A B^T, and an SM
// has units built for exactly that: tensor cores, which one instruction (mma.sync, m16n8k8) asks for
// a 16 x 8 block of products 8 elements deep, 1024 multiply-adds, where an FFMA does 32. They take
// float32 inputs only in TF32, a float with 10 bits of mantissa instead of 23, and add in float32. The
// kernel (09_tf32_tensor_cores.cuh) keeps step 08's algebra and tile of 128 x 128 (64 x 64 where
// those would be fewer than the GPU's SMs), and changes how the work reaches the units: each warp owns
// a 64 x 32 part of the tile as 4 x 4 mma tiles (32 x 32 in the small tile); the slices
// go from global to shared memory by asynchronous copies (cp.async, two slices in turns) as they lie
// in A and B, with no transposing; and ldmatrix hands each lane its fragment of a tile in one
// instruction, from rows whose 16-byte chunks are swizzled so that the eight rows of one read lie in
// eight different groups of banks.
//
// Why it is faster: the ceiling moves from the FP32 rate that capped step 08 to the GPU's TF32
// tensor-core rate, eight times higher on Hopper (the README's ceilings; its ladder shows the step's share).
//
// What it costs: accuracy, and a user must choose it knowingly. Rounding to TF32 moves every input by
// up to 2^-11 of itself, so each product a_x b_x by up to about 2 x 2^-11 of itself (less than
// 3 x 2^-11), and C by less than 3 x 2^-11 (|a|^2 + |b|^2), beyond the float32 bound of step 08: the
// accuracy report measures how far (the README's table), and the check holds this step to that TF32
// bound instead (see check() in distance.h). A user who needs C to float32's accuracy, or who
// compares distances that differ in their fourth digit, cannot take it. Step 10 wins the accuracy back.
// TF32 needs compute capability 8.0 or newer; float32 only.
#include "09_tf32_tensor_cores.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type,
                          const course::DeviceFacts& device) {
  distance::LaunchPlan p;
  p.scratch_bytes = tf32_tensor_cores::prepare<tf32_tensor_cores::OneProduct>(m, k, device, "step 09");
  return p;
}

void run(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
         const distance::LaunchPlan&, void* scratch, cudaStream_t stream) {
  tf32_tensor_cores::launch<tf32_tensor_cores::OneProduct>(a, b, c, m, k, n, scratch, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "09", "norm expansion on TF32 tensor cores", "gpu", distance::Form::NormExpansionTf32, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run, nullptr, false, 1};
