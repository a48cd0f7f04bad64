// The read-only ceiling: how fast this GPU streams a large buffer into its SMs with nothing written
// back. A reduction or a matrix-vector product reads far more than it writes, and on some GPUs a read
// stream outruns a copy (which moves each byte twice over the same bus), so their % of ceiling is
// taken against this figure. The kernel reads with 16-byte loads, several in flight per thread, from
// a grid that fills the GPU; the best of a few block sizes and load depths is reported, so that no
// step can beat its own ceiling by a better launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"
#include "course/timing.h"

namespace course {

namespace {

template <int kInFlight>
__global__ void read_stream(const uint4* data, std::size_t count, unsigned* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  unsigned folded = 0;
  for (; i + (kInFlight - 1) * stride < count; i += kInFlight * stride) {
    uint4 v[kInFlight];
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) v[k] = __ldcs(data + i + k * stride);
#pragma unroll
    for (int k = 0; k < kInFlight; ++k) folded ^= v[k].x ^ v[k].y ^ v[k].z ^ v[k].w;
  }
  for (; i < count; i += stride) {
    const uint4 v = __ldcs(data + i);
    folded ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  // The buffer holds a pattern whose words cancel out, so this store never happens; the compiler
  // cannot know, so the loads stay.
  if (folded == 0x12345678u) *sink = folded;
}

template <int kInFlight>
double best_rate(const uint4* data, std::size_t count, unsigned* sink, const DeviceFacts& device, cudaStream_t stream) {
  double best = 0;
  for (int threads : {256, 512, 1024}) {
    const int blocks = resident_blocks(reinterpret_cast<const void*>(read_stream<kInFlight>), threads, 0, device);
    TimingOptions options;
    options.warmup = 2;
    options.reps = 10;
    options.flush_l2 = false;  // the buffer dwarfs the L2 already
    const TimingStats t = time_gpu(
        [&](cudaStream_t s) {
          read_stream<kInFlight><<<blocks, threads, 0, s>>>(data, count, sink);
          CUDA_CHECK_LAUNCH();
        },
        options, stream);
    best = std::max(best, static_cast<double>(count * sizeof(uint4)) / (t.median_ms * 1e-3) / 1e9);
  }
  return best;
}

}  // namespace

double measure_read_bandwidth_gbs() {
  require_cuda_device();
  const DeviceFacts device = query_device();
  // 1 GiB: far beyond any L2, and small enough for any GPU with 8 GiB.
  std::size_t bytes = std::min<std::size_t>(std::size_t(1) << 30, usable_device_memory() / 4);
  bytes &= ~std::size_t(255);
  DeviceBuffer<uint4> buffer(bytes / sizeof(uint4), "read-bandwidth buffer");
  CUDA_CHECK(cudaMemset(buffer.data(), 0x5A, buffer.bytes()));
  DeviceBuffer<unsigned> sink(1, "read-bandwidth sink");
  Stream stream;
  return std::max({best_rate<2>(buffer.data(), buffer.size(), sink.data(), device, stream.get()),
                   best_rate<4>(buffer.data(), buffer.size(), sink.data(), device, stream.get()),
                   best_rate<8>(buffer.data(), buffer.size(), sink.data(), device, stream.get())});
}

}  // namespace course
