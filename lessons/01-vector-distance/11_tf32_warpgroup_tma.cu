// Lesson 01, step 11: the products a.b on Hopper's warpgroup MMA, fed by the tensor memory accelerator.
//
// What changed: how the tensor cores are asked and fed, on a GPU of compute capability 9.0. Step 09's
// mma.sync is a warp's instruction: 32 threads, a 16 x 8 block of C, operands first copied from
// shared memory into registers (ldmatrix). Hopper's wgmma is a warpgroup's: 4 warps, 128 threads,
// one instruction for a 64 x 128 block of C, 8 elements deep, that reads A and B straight from shared
// memory, runs asynchronously, and is waited for. The slices reach shared memory by the tensor memory
// accelerator (TMA): one thread asks for a box of 32 elements x 256 rows of A (and x 128 of B), the
// copy engine writes it swizzled as wgmma wants it, rounded to TF32 on the way (the matrices are
// described to it as TF32 data), and counts the bytes against an mbarrier; no other thread copies or
// converts anything. Thread 0 keeps 4 slices in flight; each of the block's 4 warpgroups waits for a
// slice to be full, runs its 4 wgmma on it, waits for them, and marks the slice empty so that thread 0
// can reuse the stage. Small problems, whose 256 x 128 tiles would be fewer than half the GPU's SMs,
// get 64 x 128 tiles whose depth two warpgroups split between them. The kernel is in
// 11_tf32_warpgroup_tma.cuh; the norms are step 08's.
//
// Why it is faster: the tensor cores are kept busier. A block of 512 threads computes a 256 x 128
// tile with 16 instructions per slice where step 09's warps issue hundreds of ldmatrix, cvt and mma,
// and no thread spends its issue slots on copies or on waiting at block barriers.
//
// What it costs: code for one GPU generation. wgmma and the TMA exist only on compute capability 9.0,
// in code built for it specifically ("sm_90a", which the lesson's CMakeLists.txt asks for this step);
// elsewhere the step is skipped with one line. Rows that do not start on 16-byte boundaries (N not a
// multiple of 4), which the TMA cannot read, go to step 09's kernel. Accuracy: step 09's. Given plain
// float32 copies, wgmma would drop the last 13 bits of each float, a truncation whose errors all lean
// one way; the accuracy report shows what that would cost.
#include "11_tf32_warpgroup_tma.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type,
                          const course::DeviceFacts& device) {
  distance::LaunchPlan p;
  p.scratch_bytes = warpgroup_tma::prepare(m, k, device, "step 11");
  return p;
}

void run(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
         const distance::LaunchPlan&, void* scratch, cudaStream_t stream) {
  warpgroup_tma::launch(a, b, c, m, k, n, scratch, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "11", "TF32 on warpgroup MMA, slices by TMA", "gpu", distance::Form::NormExpansionTf32,
    distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run, nullptr, false, 1};
