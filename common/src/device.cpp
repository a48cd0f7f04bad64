#include "course/device.h"

#include <cuda_runtime_api.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cstdio>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/errors.h"
#include "course/timing.h"

namespace course {

int cpu_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void set_cpu_threads(int threads) {
  if (threads <= 0) return;
#ifdef _OPENMP
  omp_set_num_threads(threads);
#else
  if (threads > 1)
    throw UsageError("--cpu-threads: this build has no OpenMP, so its CPU steps run on one thread");
#endif
}

std::string cpu_description(int threads) {
  return "CPU, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

bool cuda_device_available(std::string* why) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // Without a driver at all CUDA says its driver is "insufficient": a newcomer would go and upgrade a
    // driver they do not have. The driver's version reads 0 when there is none.
    int driver = 0;
    const bool no_driver = cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0;
    if (why) *why = no_driver ? "no NVIDIA driver found" : cudaGetErrorString(status);
    cudaGetLastError();  // clear the sticky-free error so later checks start clean
    return false;
  }
  if (count == 0) {
    if (why) *why = "the CUDA runtime reports no devices";
    return false;
  }
  // The oldest GPUs the course supports are of compute capability 7.5 (Turing), the oldest the CUDA 13
  // toolkit compiles for: an older one is treated as no GPU, with the reason.
  int id = 0, major = 0, minor = 0;
  if (cudaGetDevice(&id) != cudaSuccess || cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, id) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, id) != cudaSuccess) {
    cudaGetLastError();
    if (why) *why = "the CUDA device's compute capability cannot be read";
    return false;
  }
  if (major * 10 + minor < 75) {
    if (why)
      *why = "this GPU has compute capability " + std::to_string(major) + "." + std::to_string(minor) +
             "; the course needs 7.5 (Turing) or newer";
    return false;
  }
  return true;
}

void require_cuda_device() {
  std::string why;
  if (!cuda_device_available(&why)) throw NoDeviceError(why);
  int id = 0;
  CUDA_CHECK(cudaGetDevice(&id));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
  require_code_for_device(prop.name, prop.major, prop.minor);
}

namespace {
int attribute(cudaDeviceAttr what, int device) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device));
  return value;
}
}  // namespace

DeviceFacts query_device(int id) {
  require_cuda_device();
  if (id < 0) CUDA_CHECK(cudaGetDevice(&id));
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
  DeviceFacts f;
  f.id = id;
  f.name = prop.name;
  f.compute_major = prop.major;
  f.compute_minor = prop.minor;
  f.multiprocessors = prop.multiProcessorCount;
  f.max_threads_per_block = prop.maxThreadsPerBlock;
  f.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  f.shared_memory_per_block = prop.sharedMemPerBlock;
  f.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
  f.shared_memory_per_sm = prop.sharedMemPerMultiprocessor;
  f.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  f.global_memory_bytes = prop.totalGlobalMem;
  f.memory_bus_bits = prop.memoryBusWidth;
  f.cooperative_launch = prop.cooperativeLaunch != 0;
  f.sm_clock_ghz = attribute(cudaDevAttrClockRate, id) * 1e-6;          // kHz -> GHz
  f.memory_clock_ghz = attribute(cudaDevAttrMemoryClockRate, id) * 1e-6;
  return f;
}

int DeviceFacts::fp32_lanes_per_sm() const {
  // GP100 (6.0), Volta and Turing (7.x) and A100 (8.0) have 64 FP32 lanes per SM; the other
  // architectures from Maxwell on, Hopper (9.0) included, have 128.
  if (compute_major == 7 || (compute_major == 8 && compute_minor == 0) ||
      (compute_major == 6 && compute_minor == 0))
    return 64;
  return 128;
}

double DeviceFacts::peak_fp32_gflops() const {
  return 2.0 * fp32_lanes_per_sm() * multiprocessors * sm_clock_ghz;
}

double DeviceFacts::fp32_instruction_rate_gops() const {
  return static_cast<double>(fp32_lanes_per_sm()) * multiprocessors * sm_clock_ghz;
}

double DeviceFacts::tf32_tensor_rate_gops() const {
  int per_sm_per_clock = 0;
  if (compute_major == 8) per_sm_per_clock = compute_minor == 0 ? 512 : 128;
  else if (compute_major == 9 && compute_minor == 0) per_sm_per_clock = 1024;
  else if (compute_major == 12) per_sm_per_clock = 128;
  return static_cast<double>(per_sm_per_clock) * multiprocessors * sm_clock_ghz;
}

double DeviceFacts::peak_int32_gops() const {
  // 64 integer lanes per SM per clock on Volta and newer.
  return 64.0 * multiprocessors * sm_clock_ghz;
}

double DeviceFacts::datasheet_bandwidth_gbs() const {
  return memory_clock_ghz * 2.0 * memory_bus_bits / 8.0;
}

std::string DeviceFacts::compute_capability() const {
  return std::to_string(compute_major) + "." + std::to_string(compute_minor);
}

double measure_copy_bandwidth_gbs() {
  require_cuda_device();
  const std::size_t free_bytes = usable_device_memory();
  // 512 MiB per side: far beyond any L2, small enough for any GPU with 4 GiB or more.
  std::size_t bytes = std::min<std::size_t>(std::size_t(512) << 20, free_bytes / 4);
  bytes &= ~std::size_t(255);
  DeviceBuffer<unsigned char> source(bytes, "copy-bandwidth source");
  DeviceBuffer<unsigned char> target(bytes, "copy-bandwidth target");
  CUDA_CHECK(cudaMemset(source.data(), 0x5A, bytes));
  Stream stream;
  TimingOptions options;
  options.warmup = 3;
  options.reps = 15;
  options.flush_l2 = false;  // the buffers dwarf the L2 already
  TimingStats t = time_gpu(
      [&](cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(target.data(), source.data(), bytes, cudaMemcpyDeviceToDevice, s));
      },
      options, stream.get());
  return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
}

}  // namespace course
