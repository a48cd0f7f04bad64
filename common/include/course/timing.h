/// @file timing.h
/// @brief Timing on the GPU (events) and on the CPU (a steady clock): warm-up, repetitions, statistics.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <vector>

namespace course {

template <class T>
class DeviceBuffer;

/// Summary of repeated timings, in milliseconds.
struct TimingStats {
  double median_ms = 0.0;  ///< the figure reported everywhere
  double min_ms = 0.0;     ///< fastest repetition
  double max_ms = 0.0;     ///< slowest repetition
  int reps = 0;            ///< how many repetitions were timed

  /// Builds the summary from raw samples (milliseconds). An even count takes the mean of the middle two.
  /// @throws std::invalid_argument when @p samples_ms is empty
  static TimingStats from_samples(std::vector<double> samples_ms);
};

/// How to time: untimed warm-up runs first (module loading, caches, clocks), then timed repetitions.
struct TimingOptions {
  int warmup = 3;          ///< untimed runs before the timed ones
  int reps = 20;           ///< timed runs
  bool flush_l2 = true;    ///< GPU only: overwrite the L2 cache before each run, so small inputs are
                           ///< read from memory as large ones are (not from a warm cache)
};

/// What time_gpu() runs before each timed repetition: a read of a zero-filled buffer twice the L2's
/// size, which evicts whatever the last run left in the cache (so small inputs are read from memory,
/// as large ones are). Disabled, evict() does nothing.
class L2Eviction {
 public:
  /// Allocates and zeroes the buffer (nothing when not @p enabled, or on a GPU without an L2).
  explicit L2Eviction(bool enabled = true);
  ~L2Eviction();  ///< frees the buffer
  L2Eviction(const L2Eviction&) = delete;
  L2Eviction& operator=(const L2Eviction&) = delete;
  /// Enqueues the eviction into @p stream.
  void evict(cudaStream_t stream);

 private:
  std::unique_ptr<DeviceBuffer<unsigned char>> buffer_;
};

/// Times @p run on the GPU with a pair of events around each repetition in @p stream.
/// @param run         enqueues the work to time into the stream it is given
/// @param options     warm-up, repetitions, L2 flushing
/// @param stream      stream the work goes into
/// @param before_each untimed preparation enqueued into the same stream before every run (e.g.
///                    poisoning the output); may be empty
TimingStats time_gpu(const std::function<void(cudaStream_t)>& run, const TimingOptions& options,
                     cudaStream_t stream, const std::function<void(cudaStream_t)>& before_each = {});

/// Times several ways of doing one job, each as time_gpu() times one, but interleaved: repetition r
/// runs every way once, starting from way r mod count, so that the GPU's clocks and temperature drift
/// over the run touch every way alike and no way's place in the program decides its time.
/// @param runs        the ways; each enqueues its work into the stream it is given
/// @param options     warm-up (of each way), repetitions (of each way), L2 flushing
/// @param stream      stream the work goes into
/// @param before_each untimed preparation of way i, enqueued before each of its runs; may be empty
/// @return one summary per way, in the order of @p runs
std::vector<TimingStats> time_gpu_interleaved(const std::vector<std::function<void(cudaStream_t)>>& runs,
                                              const TimingOptions& options, cudaStream_t stream,
                                              const std::function<void(std::size_t, cudaStream_t)>& before_each = {});

/// Times @p run across several GPUs, one stream each (@p streams[g] made on @p devices[g]). Before each
/// repetition every GPU's L2 cache is overwritten and every GPU waits at a gate (a flag in host memory)
/// while the host queues the whole repetition, for up to 2 ms; the host then opens the gate and every
/// GPU starts at once. A repetition's time is the longest of the GPUs' spans, each from the gate to the
/// end of its stream's work, on its own clock: the GPUs' time, not the host's calls, and without the
/// latency of one GPU waiting for another's event. @p run and @p before_each enqueue into every stream,
/// setting each device themselves; the current device is devices[0] afterwards.
TimingStats time_gpus(const std::function<void()>& run, const TimingOptions& options, const std::vector<int>& devices,
                      const std::vector<cudaStream_t>& streams, const std::function<void()>& before_each = {});

/// Times @p run on the CPU with std::chrono::steady_clock, with the same warm-up and repetitions.
TimingStats time_cpu(const std::function<void()>& run, const TimingOptions& options,
                     const std::function<void()>& before_each = {});

}  // namespace course
