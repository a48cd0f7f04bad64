// Internal to common/: the gate at which time_gpus() holds every GPU until the host has queued a whole
// repetition (see timing.cpp).
#pragma once

#include <cuda_runtime_api.h>

namespace course {
namespace detail {

/// A flag in pinned host memory that GPUs wait on. close() lowers it; hold() queues, in a stream of the
/// current device, a one-thread kernel that waits until open() raises it, or kLongestHoldMs at most (so
/// that a host that cannot queue more until the GPU moves never waits for ever); open() releases every
/// held stream at once.
class StartGate {
 public:
  static constexpr double kLongestHoldMs = 2.0;

  StartGate();
  ~StartGate();
  StartGate(const StartGate&) = delete;
  StartGate& operator=(const StartGate&) = delete;

  void close();
  void hold(cudaStream_t stream);
  void open();

 private:
  unsigned* flag_ = nullptr;  // pinned, mapped into every device's address space
};

}  // namespace detail
}  // namespace course
