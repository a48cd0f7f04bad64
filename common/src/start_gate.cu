// The start gate of time_gpus(): each GPU's stream waits in a one-thread kernel that reads a flag in
// pinned host memory until the host raises it.
#include "start_gate.h"

#include <atomic>

#include "course/check.h"

namespace course {
namespace detail {

namespace {
__device__ unsigned long long global_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void wait_at_gate(const volatile unsigned* open, unsigned long long longest_ns) {
  const unsigned long long start = global_time_ns();
  while (*open == 0 && global_time_ns() - start < longest_ns) __nanosleep(500);
}
}  // namespace

StartGate::StartGate() {
  CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&flag_), sizeof(unsigned),
                           cudaHostAllocMapped | cudaHostAllocPortable));
  *flag_ = 0;
}

StartGate::~StartGate() {
  if (flag_ != nullptr) cudaFreeHost(flag_);
}

void StartGate::close() {
  *static_cast<volatile unsigned*>(flag_) = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void StartGate::hold(cudaStream_t stream) {
  wait_at_gate<<<1, 1, 0, stream>>>(flag_, static_cast<unsigned long long>(kLongestHoldMs * 1e6));
  CUDA_CHECK_LAUNCH();
}

void StartGate::open() {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // everything queued before the flag is seen
  *static_cast<volatile unsigned*>(flag_) = 1;
}

}  // namespace detail
}  // namespace course
