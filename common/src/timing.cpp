#include "course/timing.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "course/buffers.h"
#include "course/check.h"
#include "l2_flush.h"
#include "start_gate.h"

namespace course {

TimingStats TimingStats::from_samples(std::vector<double> samples_ms) {
  if (samples_ms.empty()) throw std::invalid_argument("no timing samples");
  std::sort(samples_ms.begin(), samples_ms.end());
  TimingStats t;
  std::size_t n = samples_ms.size();
  t.reps = static_cast<int>(n);
  t.min_ms = samples_ms.front();
  t.max_ms = samples_ms.back();
  t.median_ms = n % 2 == 1 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  return t;
}

namespace {
void require_reps(const TimingOptions& options) {
  if (options.reps < 1) throw std::invalid_argument("at least one timed repetition is needed");
  if (options.warmup < 0) throw std::invalid_argument("warm-up count cannot be negative");
}

}  // namespace

// A zero-filled buffer twice the L2's size; reading it before a run evicts whatever the previous run
// left in the cache, without leaving dirty lines behind (see l2_flush.cu).
L2Eviction::L2Eviction(bool enabled) {
  if (!enabled) return;
  int device = 0, l2 = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  if (l2 <= 0) return;
  buffer_ = std::make_unique<DeviceBuffer<unsigned char>>(2 * static_cast<std::size_t>(l2), "L2 flush buffer");
  CUDA_CHECK(cudaMemset(buffer_->data(), 0, buffer_->bytes()));
  CUDA_CHECK(cudaDeviceSynchronize());
}

L2Eviction::~L2Eviction() = default;

void L2Eviction::evict(cudaStream_t stream) {
  if (buffer_ && buffer_->size() != 0) detail::read_to_evict_l2(buffer_->data(), buffer_->bytes(), stream);
}

TimingStats time_gpu(const std::function<void(cudaStream_t)>& run, const TimingOptions& options,
                     cudaStream_t stream, const std::function<void(cudaStream_t)>& before_each) {
  std::function<void(std::size_t, cudaStream_t)> prepare;
  if (before_each) prepare = [&](std::size_t, cudaStream_t s) { before_each(s); };
  return time_gpu_interleaved({run}, options, stream, prepare).front();
}

std::vector<TimingStats> time_gpu_interleaved(const std::vector<std::function<void(cudaStream_t)>>& runs,
                                              const TimingOptions& options, cudaStream_t stream,
                                              const std::function<void(std::size_t, cudaStream_t)>& before_each) {
  require_reps(options);
  const std::size_t ways = runs.size();
  L2Eviction flusher(options.flush_l2);
  for (int i = 0; i < options.warmup; ++i)
    for (std::size_t w = 0; w < ways; ++w) {
      if (before_each) before_each(w, stream);
      runs[w](stream);
    }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  Event start, stop;
  std::vector<std::vector<double>> samples(ways);
  for (int r = 0; r < options.reps; ++r)
    for (std::size_t k = 0; k < ways; ++k) {
      const std::size_t w = (static_cast<std::size_t>(r) + k) % ways;
      if (before_each) before_each(w, stream);
      flusher.evict(stream);
      start.record(stream);
      runs[w](stream);
      stop.record(stream);
      samples[w].push_back(stop.elapsed_ms_since(start));
    }
  CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<TimingStats> stats;
  for (std::vector<double>& s : samples) stats.push_back(TimingStats::from_samples(std::move(s)));
  return stats;
}

TimingStats time_gpus(const std::function<void()>& run, const TimingOptions& options, const std::vector<int>& devices,
                      const std::vector<cudaStream_t>& streams, const std::function<void()>& before_each) {
  require_reps(options);
  if (devices.empty() || devices.size() != streams.size())
    throw std::invalid_argument("time_gpus: one stream per GPU, and at least one GPU");
  const std::size_t gpus = devices.size();
  std::vector<std::unique_ptr<L2Eviction>> flushers;
  std::vector<std::unique_ptr<Event>> starts, ends;  // each GPU's own, read on its own clock
  for (std::size_t g = 0; g < gpus; ++g) {
    CUDA_CHECK(cudaSetDevice(devices[g]));
    flushers.push_back(std::make_unique<L2Eviction>(options.flush_l2));
    starts.push_back(std::make_unique<Event>());
    ends.push_back(std::make_unique<Event>());
  }
  const auto synchronize_all = [&] {
    for (std::size_t g = 0; g < gpus; ++g) {
      CUDA_CHECK(cudaSetDevice(devices[g]));
      CUDA_CHECK(cudaStreamSynchronize(streams[g]));
    }
    CUDA_CHECK(cudaSetDevice(devices[0]));
  };
  for (int i = 0; i < options.warmup; ++i) {
    if (before_each) before_each();
    run();
  }
  synchronize_all();
  // Each repetition: every GPU waits at one gate while the host queues the whole run, so that the time
  // is the GPUs' and not that of the calls one host thread makes for all of them; the host then opens
  // the gate, and every GPU starts at once (they read the same flag). Each GPU's span, from the gate to
  // its last call's end, is read on its own clock: events of two GPUs cannot be compared, and one GPU
  // waiting for another's event would add the latency of that wait to every repetition.
  detail::StartGate gate;
  std::vector<double> samples;
  samples.reserve(options.reps);
  for (int i = 0; i < options.reps; ++i) {
    if (before_each) before_each();
    for (std::size_t g = 0; g < gpus; ++g) {
      CUDA_CHECK(cudaSetDevice(devices[g]));
      flushers[g]->evict(streams[g]);
    }
    synchronize_all();  // the preparations are done on every GPU before any GPU's run starts
    gate.close();
    for (std::size_t g = 0; g < gpus; ++g) {
      CUDA_CHECK(cudaSetDevice(devices[g]));
      gate.hold(streams[g]);
      starts[g]->record(streams[g]);
    }
    run();
    for (std::size_t g = 0; g < gpus; ++g) {
      CUDA_CHECK(cudaSetDevice(devices[g]));
      ends[g]->record(streams[g]);
    }
    gate.open();
    double longest = 0;
    for (std::size_t g = 0; g < gpus; ++g) {
      CUDA_CHECK(cudaSetDevice(devices[g]));
      longest = std::max(longest, static_cast<double>(ends[g]->elapsed_ms_since(*starts[g])));
    }
    samples.push_back(longest);
  }
  synchronize_all();
  return TimingStats::from_samples(samples);
}

TimingStats time_cpu(const std::function<void()>& run, const TimingOptions& options,
                     const std::function<void()>& before_each) {
  require_reps(options);
  for (int i = 0; i < options.warmup; ++i) {
    if (before_each) before_each();
    run();
  }
  std::vector<double> samples;
  samples.reserve(options.reps);
  for (int i = 0; i < options.reps; ++i) {
    if (before_each) before_each();
    auto start = std::chrono::steady_clock::now();
    run();
    auto stop = std::chrono::steady_clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return TimingStats::from_samples(samples);
}

}  // namespace course
