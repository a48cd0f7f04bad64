// GPU tests of common/: device facts, buffers, timing and error checks. Skipped without a GPU.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/timing.h"

namespace {
__global__ void add_one(float* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] += 1.0f;
}
}  // namespace

TEST_CASE("device facts are plausible") {
  auto f = course::query_device();
  REQUIRE_FALSE(f.name.empty());
  REQUIRE(f.multiprocessors > 0);
  REQUIRE(f.max_threads_per_block >= 1024);
  REQUIRE(f.l2_bytes > 0);
  REQUIRE(f.sm_clock_ghz > 0.1);
  REQUIRE(f.peak_fp32_gflops() > 100);
  REQUIRE(f.datasheet_bandwidth_gbs() > 10);
}

TEST_CASE("the copy bandwidth is measured and plausible") {
  double gbs = course::measure_copy_bandwidth_gbs();
  REQUIRE(gbs > 10);
  REQUIRE(gbs < 2.5 * course::query_device().datasheet_bandwidth_gbs());
}

TEST_CASE("device buffers upload, compute, download and poison") {
  std::vector<float> host{1, 2, 3, 4, 5};
  course::DeviceBuffer<float> buffer(host.size());
  buffer.upload(host);
  add_one<<<1, 32>>>(buffer.data(), 5);
  CUDA_CHECK_LAUNCH();
  REQUIRE(buffer.to_host() == std::vector<float>{2, 3, 4, 5, 6});
  buffer.poison();
  for (float x : buffer.to_host()) REQUIRE(std::isnan(x));
}

TEST_CASE("time_gpu times every repetition and prepares each run") {
  course::DeviceBuffer<float> buffer(1 << 20);
  course::Stream stream;
  course::TimingOptions options;
  options.warmup = 1;
  options.reps = 4;
  int runs = 0, preparations = 0;
  auto t = course::time_gpu(
      [&](cudaStream_t s) {
        ++runs;
        add_one<<<4096, 256, 0, s>>>(buffer.data(), 1 << 20);
        CUDA_CHECK_LAUNCH();
      },
      options, stream.get(), [&](cudaStream_t s) {
        ++preparations;
        buffer.poison(s);
      });
  REQUIRE(runs == 5);
  REQUIRE(preparations == 5);
  REQUIRE(t.reps == 4);
  REQUIRE(t.median_ms > 0);
  REQUIRE(t.min_ms <= t.max_ms);
}

TEST_CASE("failed CUDA calls and launches throw CudaError") {
  REQUIRE_THROWS_AS(CUDA_CHECK(cudaSetDevice(9999)), course::CudaError);
  add_one<<<1, 4096>>>(nullptr, 0);  // more threads per block than any GPU allows
  REQUIRE_THROWS_WITH(CUDA_CHECK_LAUNCH(), Catch::Matchers::Contains("kernel launch"));
}

TEST_CASE("asking for more memory than the GPU has is a usage error") {
  REQUIRE_THROWS_WITH(course::ensure_device_memory(std::size_t(1) << 50, "huge array"),
                      Catch::Matchers::Contains("huge array needs"));
}
