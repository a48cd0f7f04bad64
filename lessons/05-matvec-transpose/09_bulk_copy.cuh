// Lesson 05, step 09: Hopper's bulk copy engine, for rows that wait in shared memory.
//
// With cp.async every thread copies its own 16-byte pieces of a row and waits for its own copies:
// 512 threads, 2048 copy instructions for 32 KB. Since Hopper (compute capability 9.0) one thread can ask
// the SM's bulk copy engine (the TMA) for a whole run of bytes, global memory to shared memory, with
// one instruction (cp.async.bulk). The engine counts the bytes that land against an mbarrier, a
// 64-bit barrier object in shared memory: the thread that starts a copy tells the barrier how many
// bytes to expect (mbarrier.arrive.expect_tx), and the barrier's phase completes once they have all
// arrived. Every thread that needs the row waits on that phase (mbarrier.try_wait.parity).
//
// A barrier is used again and again, once per row (step 10: group of rows) that passes through its
// stage: phases 0, 1, 2, ...
// A wait names a phase by its parity alone, one bit, and PTX defines try_wait.parity only for the
// barrier's current phase (not complete: false) and the one just before it (complete: true). One bit
// is enough here because no phase runs ahead of a wait for the phase before it: the thread that
// arrives with expect_tx for a stage's next row does so only after a block barrier that every thread
// passes after waiting for the stage's last row. So while anyone waits for phase p, the barrier is in
// phase p or p + 1, and the parity of p tells the two apart.
//
// The `cluster` in these instructions: the kernels that use them run with clusters (step 09's
// --layout cluster) and without (a cooperative launch). A launch without clusters is, to PTX, an
// implicit cluster of one block, and the addresses of a block's own shared memory (the .shared::cta
// window) lie in the .shared::cluster window too, where they name the same bytes. So the copy's
// destination and barrier, both in the block's own shared memory, are valid either way. The
// instruction is written with .shared::cluster because that is the destination its global-to-shared
// form has had since PTX ISA 8.0 (.shared::cta came only with 8.6), and fence.mbarrier_init exists
// only as .release.cluster.
//
// The copy moves whole 16-byte units: source, destination and size must be multiples of 16 bytes.
// Compiled for an older GPU, available() is false and the other functions must not be called.
#pragma once

#include <cstdint>

namespace bulk_copy {

using Barrier = std::uint64_t;  // an mbarrier, in shared memory

// Whether this code was compiled for a GPU with the bulk copy engine.
__device__ inline constexpr bool available() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return true;
#else
  return false;
#endif
}

__device__ inline unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One thread sets up a barrier that completes a phase when one thread has arrived and the bytes it
// announced have landed. The block must meet at __syncthreads() before anyone else uses it.
__device__ inline void init(Barrier* barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(barrier)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");  // visible to the copy engine
#endif
}

// One thread announces the bytes that will land for `barrier`'s current phase (0 completes it now),
// then starts the copies that bring them, each of `bytes` (a multiple of 16) from global memory to
// shared memory.
__device__ inline void expect(Barrier* barrier, unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)), "r"(bytes)
               : "memory");
#endif
}

__device__ inline void start(void* to, const void* from, unsigned bytes, Barrier* barrier) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(to)),
               "l"(from), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
#endif
}

// Waits until `barrier`'s phase number `phase` (0, 1, 2, ...) has completed. Only its parity reaches
// the instruction, which is enough while phase + 1 cannot complete before every wait for phase has
// returned (see the top of this file).
__device__ inline void wait(Barrier* barrier, std::size_t phase) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "{\n"
      "  .reg .pred done;\n"
      "WAIT_%=:\n"
      "  mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "  @!done bra WAIT_%=;\n"
      "}" ::"r"(shared_address(barrier)),
      "r"(static_cast<unsigned>(phase % 2))
      : "memory");
#endif
}

}  // namespace bulk_copy
