// GPU tests of common/: device facts, buffers, GPU timing and error checks. Linked with the GPU Catch
// main, which skips the whole program (exit 77) on a machine without a CUDA device.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <memory>
#include <thread>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/gpus.h"
#include "course/timing.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {
__global__ void add_one(float* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += 1.0f;
}

// Keeps one thread busy for at least @p cycles SM clock cycles.
__global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// SM cycles that take at least @p ms milliseconds even at the peak clock.
// Waits @p ns nanoseconds by the GPU's global timer, whatever its clock rate.
__global__ void wait_ns(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

long long cycles_for_ms(double ms) {
  return static_cast<long long>(course::query_device().sm_clock_ghz * 1e6 * ms);
}
}  // namespace

TEST_CASE("device facts are plausible") {
  auto f = course::query_device();
  int current = -1;
  CUDA_CHECK(cudaGetDevice(&current));
  REQUIRE(f.id == current);
  REQUIRE_FALSE(f.name.empty());
  REQUIRE(f.compute_major >= 3);
  REQUIRE(f.compute_capability() == std::to_string(f.compute_major) + "." + std::to_string(f.compute_minor));
  REQUIRE(f.multiprocessors > 0);
  REQUIRE(f.max_threads_per_block >= 1024);
  REQUIRE(f.max_threads_per_sm >= f.max_threads_per_block);
  REQUIRE(f.shared_memory_per_block >= 48 * 1024);
  REQUIRE(f.shared_memory_per_sm >= f.shared_memory_per_block);
  REQUIRE(f.l2_bytes > 0);
  REQUIRE(f.global_memory_bytes >= (std::size_t(1) << 30));
  REQUIRE(f.sm_clock_ghz > 0.1);
  REQUIRE(f.sm_clock_ghz < 10);
  REQUIRE(f.memory_bus_bits > 0);
  REQUIRE((f.fp32_lanes_per_sm() == 64 || f.fp32_lanes_per_sm() == 128));
  REQUIRE(f.peak_fp32_gflops() > 100);
  REQUIRE(f.peak_fp32_gflops() == Approx(2.0 * f.fp32_lanes_per_sm() * f.multiprocessors * f.sm_clock_ghz));
  REQUIRE(f.peak_int32_gops() > 0);
  REQUIRE(f.datasheet_bandwidth_gbs() > 10);
}

TEST_CASE("a CUDA device is reported available") {
  std::string why = "untouched";
  REQUIRE(course::cuda_device_available(&why));
  REQUIRE(why == "untouched");
  REQUIRE_NOTHROW(course::require_cuda_device());
}

TEST_CASE("the copy bandwidth is measured and plausible") {
  double gbs = course::measure_copy_bandwidth_gbs();
  REQUIRE(gbs > 10);
  REQUIRE(gbs < 2.5 * course::query_device().datasheet_bandwidth_gbs());
}

TEST_CASE("the read-only bandwidth is measured, plausible, and not far below the copy's") {
  const double read = course::measure_read_bandwidth_gbs();
  const double copy = course::measure_copy_bandwidth_gbs();
  REQUIRE(read > 10);
  REQUIRE(read < 1.5 * course::query_device().datasheet_bandwidth_gbs());  // a datasheet figure bounds it
  REQUIRE(read > 0.8 * copy);  // a stream that only reads moves its bytes at least about as fast
}

TEST_CASE("device buffers upload compute and download") {
  std::vector<float> host{1, 2, 3, 4, 5};
  course::DeviceBuffer<float> buffer(host.size());
  REQUIRE(buffer.size() == 5);
  REQUIRE(buffer.bytes() == 5 * sizeof(float));
  REQUIRE(buffer.data() != nullptr);
  buffer.upload(host);
  REQUIRE(buffer.to_host() == host);
  add_one<<<1, 32>>>(buffer.data(), 5);
  CUDA_CHECK_LAUNCH();
  std::vector<float> back(5);
  buffer.download(back.data(), back.size());
  REQUIRE(back == std::vector<float>{2, 3, 4, 5, 6});
}

TEST_CASE("a large buffer survives a round trip bit for bit") {
  const std::size_t n = 999983;
  std::vector<std::uint32_t> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<std::uint32_t>(i * 2654435761u);
  course::DeviceBuffer<std::uint32_t> buffer(n);
  buffer.upload(host);
  REQUIRE(buffer.to_host() == host);
}

TEST_CASE("poison turns floats into NaN and signed integers into minus one") {
  course::DeviceBuffer<float> floats(1000);
  floats.upload(std::vector<float>(1000, 0.5f));
  floats.poison();
  for (float x : floats.to_host()) REQUIRE(std::isnan(x));
  course::DeviceBuffer<int> ints(7);
  ints.upload(std::vector<int>(7, 3));
  course::Stream stream;
  ints.poison(stream.get());
  stream.synchronize();
  REQUIRE(ints.to_host() == std::vector<int>(7, -1));
}

TEST_CASE("an empty device buffer holds nothing and can be poisoned") {
  course::DeviceBuffer<float> empty(0);
  REQUIRE(empty.data() == nullptr);
  REQUIRE(empty.size() == 0);
  REQUIRE_NOTHROW(empty.poison());
  REQUIRE(empty.to_host().empty());
}

TEST_CASE("moving a device buffer hands over its memory") {
  course::DeviceBuffer<float> a(10);
  a.upload(std::vector<float>(10, 2.0f));
  float* memory = a.data();
  course::DeviceBuffer<float> b(std::move(a));
  REQUIRE(b.data() == memory);
  REQUIRE(b.size() == 10);
  REQUIRE(a.data() == nullptr);
  REQUIRE(a.size() == 0);
  course::DeviceBuffer<float> c(3);
  c = std::move(b);
  REQUIRE(c.data() == memory);
  REQUIRE(c.to_host() == std::vector<float>(10, 2.0f));
}

TEST_CASE("pinned buffers feed device buffers") {
  course::PinnedBuffer<double> pinned(64);
  REQUIRE(pinned.size() == 64);
  for (std::size_t i = 0; i < 64; ++i) pinned[i] = 0.5 * i;
  course::DeviceBuffer<double> device(64);
  device.upload(pinned.data(), 64);
  auto back = device.to_host();
  for (std::size_t i = 0; i < 64; ++i) REQUIRE(back[i] == 0.5 * i);
}

TEST_CASE("events time a kernel in a stream") {
  course::Stream stream;
  course::Event start, stop;
  start.record(stream.get());
  spin<<<1, 1, 0, stream.get()>>>(cycles_for_ms(1.0));
  CUDA_CHECK_LAUNCH();
  stop.record(stream.get());
  float ms = stop.elapsed_ms_since(start);
  REQUIRE(ms >= 0.9f);
  REQUIRE(ms < 1000.0f);
}

TEST_CASE("time_gpu times every repetition and prepares each run") {
  const int n = 1 << 20;
  course::DeviceBuffer<float> buffer(n);
  course::Stream stream;
  course::TimingOptions options;
  options.warmup = 1;
  options.reps = 4;
  int runs = 0, preparations = 0;
  std::string order;
  auto t = course::time_gpu(
      [&](cudaStream_t s) {
        ++runs;
        order += 'r';
        add_one<<<(n + 255) / 256, 256, 0, s>>>(buffer.data(), n);
        CUDA_CHECK_LAUNCH();
      },
      options, stream.get(), [&](cudaStream_t s) {
        ++preparations;
        order += 'p';
        buffer.poison(s);
      });
  REQUIRE(runs == 5);
  REQUIRE(preparations == 5);
  REQUIRE(order == "prprprprpr");
  REQUIRE(t.reps == 4);
  REQUIRE(t.median_ms > 0);
  REQUIRE(t.min_ms > 0);
  REQUIRE(t.min_ms <= t.median_ms);
  REQUIRE(t.median_ms <= t.max_ms);
}

TEST_CASE("time_gpu_interleaved runs every way once a repetition, each from the next way, and times each apart") {
  course::Stream stream;
  course::TimingOptions options;
  options.warmup = 1;
  options.reps = 3;
  options.flush_l2 = false;
  std::string order;
  const long long short_cycles = cycles_for_ms(0.2), long_cycles = cycles_for_ms(2.0);
  std::vector<std::function<void(cudaStream_t)>> ways = {
      [&](cudaStream_t s) { order += 'a'; spin<<<1, 1, 0, s>>>(short_cycles); CUDA_CHECK_LAUNCH(); },
      [&](cudaStream_t s) { order += 'b'; spin<<<1, 1, 0, s>>>(long_cycles); CUDA_CHECK_LAUNCH(); },
      [&](cudaStream_t s) { order += 'c'; spin<<<1, 1, 0, s>>>(short_cycles); CUDA_CHECK_LAUNCH(); }};
  const auto t = course::time_gpu_interleaved(ways, options, stream.get(),
                                              [&](std::size_t w, cudaStream_t) { order += static_cast<char>('A' + w); });
  // The warm-up in order, then repetition r from way r mod 3, each way prepared just before it runs.
  REQUIRE(order == "AaBbCc" "AaBbCc" "BbCcAa" "CcAaBb");
  REQUIRE(t.size() == 3);
  for (const course::TimingStats& way : t) REQUIRE(way.reps == 3);
  REQUIRE(t[1].min_ms >= 1.8);
  REQUIRE(t[0].median_ms < 1.0);
  REQUIRE(t[2].median_ms < 1.0);
}

TEST_CASE("time_gpu measures the kernel in milliseconds") {
  course::Stream stream;
  course::TimingOptions options;
  options.warmup = 0;
  options.reps = 3;
  options.flush_l2 = false;
  const long long cycles = cycles_for_ms(2.0);
  auto t = course::time_gpu([&](cudaStream_t s) { spin<<<1, 1, 0, s>>>(cycles); }, options, stream.get());
  CUDA_CHECK_LAUNCH();
  REQUIRE(t.min_ms >= 1.8);
  REQUIRE(t.median_ms < 1000.0);
}

TEST_CASE("time_gpu does not time the preparation nor the L2 flush") {
  course::Stream stream;
  course::TimingOptions options;
  options.warmup = 1;
  options.reps = 5;
  options.flush_l2 = true;
  const long long cycles = cycles_for_ms(3.0);
  auto t = course::time_gpu([](cudaStream_t s) { spin<<<1, 1, 0, s>>>(1); }, options, stream.get(),
                            [&](cudaStream_t s) { spin<<<1, 1, 0, s>>>(cycles); });
  CUDA_CHECK_LAUNCH();
  REQUIRE(t.median_ms < 1.0);
}

TEST_CASE("time_gpus measures every GPU's kernel, and not the host's time queuing it") {
  // Each run sleeps 1 ms on the host, then queues a 2 ms kernel on every GPU: the gate holds the GPUs
  // until the run is queued, so the host's millisecond is not in the time (without the gate it would
  // be: the clock would start before the sleep). The last GPU's kernel is the longest (2.5 ms), and
  // the time is the longest GPU's.
  const int every = course::gpu_count();
  std::vector<int> devices;
  std::vector<std::unique_ptr<course::Stream>> owned;
  std::vector<cudaStream_t> streams;
  for (int g = 0; g < every; ++g) {
    CUDA_CHECK(cudaSetDevice(g));
    devices.push_back(g);
    owned.push_back(std::make_unique<course::Stream>());
    streams.push_back(owned.back()->get());
  }
  course::TimingOptions options;
  options.warmup = 1;
  options.reps = 3;
  int runs = 0, preparations = 0;
  auto t = course::time_gpus(
      [&] {
        ++runs;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // the host, slow to queue
        for (int g = 0; g < every; ++g) {
          CUDA_CHECK(cudaSetDevice(g));
          wait_ns<<<1, 1, 0, streams[g]>>>(g + 1 == every ? 2500000 : 2000000);
          CUDA_CHECK_LAUNCH();
        }
      },
      options, devices, streams, [&] { ++preparations; });
  int current = -1;
  CUDA_CHECK(cudaGetDevice(&current));
  REQUIRE(current == 0);
  REQUIRE(runs == 4);
  REQUIRE(preparations == 4);
  REQUIRE(t.reps == 3);
  REQUIRE(t.min_ms >= 2.49);   // the longest GPU's kernel, 2.5 ms by the GPU's timer
  REQUIRE(t.median_ms < 3.2);  // 2.5 ms and the host's 1 ms sleep would be 3.5
}

TEST_CASE("time_gpus wants one stream per GPU") {
  course::Stream stream;
  REQUIRE_THROWS_AS(course::time_gpus([] {}, course::TimingOptions{}, {0, 0}, {stream.get()}), std::invalid_argument);
  REQUIRE_THROWS_AS(course::time_gpus([] {}, course::TimingOptions{}, {}, {}), std::invalid_argument);
}

TEST_CASE("time_gpu rejects zero repetitions and negative warm-up") {
  course::Stream stream;
  course::TimingOptions options;
  options.reps = 0;
  int runs = 0;
  REQUIRE_THROWS_AS(course::time_gpu([&](cudaStream_t) { ++runs; }, options, stream.get()), std::invalid_argument);
  options.reps = 1;
  options.warmup = -1;
  REQUIRE_THROWS_AS(course::time_gpu([&](cudaStream_t) { ++runs; }, options, stream.get()), std::invalid_argument);
  REQUIRE(runs == 0);
}

TEST_CASE("CUDA_CHECK passes a successful call") {
  int count = 0;
  REQUIRE_NOTHROW(CUDA_CHECK(cudaGetDeviceCount(&count)));
  REQUIRE(count > 0);
}

TEST_CASE("CUDA_CHECK throws CudaError naming the call and the CUDA error") {
  REQUIRE_THROWS_AS(CUDA_CHECK(cudaSetDevice(9999)), course::CudaError);
  REQUIRE_THROWS_WITH(CUDA_CHECK(cudaSetDevice(9999)),
                      Contains("cudaErrorInvalidDevice") && Contains("cudaSetDevice(9999)") &&
                          Contains("test_device.cu:") && !Contains("/"));
  float host = 0, *device = nullptr;
  CUDA_CHECK(cudaMalloc(&device, sizeof(float)));
  REQUIRE_THROWS_WITH(CUDA_CHECK(cudaMemcpy(device, &host, sizeof(float), static_cast<cudaMemcpyKind>(42))),
                      Contains("cudaErrorInvalidMemcpyDirection"));
  CUDA_CHECK(cudaFree(device));
  cudaGetLastError();  // clear the errors recorded above
}

TEST_CASE("CUDA_CHECK_LAUNCH throws after a launch with too many threads per block") {
  cudaGetLastError();  // start clean, so only this launch can fail the check
  REQUIRE_NOTHROW(CUDA_CHECK_LAUNCH());
  add_one<<<1, 4096>>>(nullptr, 0);  // more threads per block than any GPU allows
  // CUDA names this error cudaErrorInvalidConfiguration or, in newer releases, cudaErrorInvalidValue.
  REQUIRE_THROWS_WITH(CUDA_CHECK_LAUNCH(), StartsWith("CUDA error cudaError") && Contains("in kernel launch at"));
  // The error is not sticky: the next good launch checks clean.
  course::DeviceBuffer<float> buffer(1);
  add_one<<<1, 32>>>(buffer.data(), 1);
  REQUIRE_NOTHROW(CUDA_CHECK_LAUNCH());
  REQUIRE_NOTHROW(CUDA_CHECK(cudaDeviceSynchronize()));
}

TEST_CASE("asking for more memory than the GPU has is a usage error") {
  const std::size_t petabyte = std::size_t(1) << 50;
  REQUIRE_THROWS_AS(course::ensure_device_memory(petabyte, "huge array"), course::UsageError);
  REQUIRE_THROWS_WITH(course::ensure_device_memory(petabyte, "huge array"),
                      Contains("huge array needs") && Contains("GiB") && Contains("choose a smaller size"));
  REQUIRE_NOTHROW(course::ensure_device_memory(1 << 20, "small array"));
  REQUIRE_THROWS_WITH(course::DeviceBuffer<float>(petabyte / sizeof(float), "input array"),
                      Contains("input array needs"));
}
