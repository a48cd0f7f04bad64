// Lesson 05, step 09: Hopper's bulk copy engine, for rows that wait in shared memory.
//
// With cp.async every thread copies its own 16 bytes of a row and waits for its own copies: 512
// threads, 2048 copy instructions for 32 KB. Since Hopper (compute capability 9.0) one thread can ask
// the SM's bulk copy engine (the TMA) for a whole run of bytes, global memory to shared memory, with
// one instruction (cp.async.bulk). The engine counts the bytes that land against an mbarrier, a
// 64-bit barrier object in shared memory: the thread that starts a copy tells the barrier how many
// bytes to expect (mbarrier.arrive.expect_tx), and the barrier's phase completes once they have all
// arrived. Every thread that needs the row waits on that phase (mbarrier.try_wait.parity); a barrier
// that is used again and again alternates between phases 0 and 1.
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

// Waits until `barrier`'s phase number `phase` (0, 1, 2, ...) has completed.
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
