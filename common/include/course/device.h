/// @file device.h
/// @brief Facts about the GPU, its arithmetic ceiling, and the copy-bandwidth ceiling measured on it.
#pragma once

#include <cstddef>
#include <string>

namespace course {

/// What a step needs to know about the GPU it runs on.
struct DeviceFacts {
  int id = 0;                        ///< CUDA device ordinal
  std::string name;                  ///< e.g. "NVIDIA H100 80GB HBM3"
  int compute_major = 0;             ///< compute capability, major part
  int compute_minor = 0;             ///< compute capability, minor part
  int multiprocessors = 0;           ///< number of SMs
  int max_threads_per_block = 0;     ///< largest block the device accepts
  int max_threads_per_sm = 0;        ///< resident threads per SM
  std::size_t shared_memory_per_block = 0;  ///< default shared-memory limit of one block, bytes
  std::size_t shared_memory_per_block_optin = 0;  ///< the most one block can ask for (cudaFuncSetAttribute)
  std::size_t shared_memory_per_sm = 0;     ///< shared memory of one SM, bytes
  std::size_t l2_bytes = 0;          ///< L2 cache size
  std::size_t global_memory_bytes = 0;  ///< total device memory
  double sm_clock_ghz = 0.0;         ///< peak SM clock
  double memory_clock_ghz = 0.0;     ///< peak memory clock
  int memory_bus_bits = 0;           ///< memory bus width
  bool cooperative_launch = false;   ///< cudaLaunchCooperativeKernel is supported

  /// FP32 lanes per SM for this architecture (128 on Volta and newer except 7.x/8.0's 64).
  int fp32_lanes_per_sm() const;
  /// Peak FP32 rate in GFLOP/s, counting a fused multiply-add as two operations.
  double peak_fp32_gflops() const;
  /// Peak FP32 instruction rate in G instructions per second (one per lane per clock): a compare, an add
  /// or a fused multiply-add each count once.
  double fp32_instruction_rate_gops() const;
  /// Peak TF32 tensor-core rate in G multiply-adds per second, dense (the datasheet's TF32 figure
  /// halved): 512 per SM per clock on 8.0, 128 on 8.6, 8.7, 8.9 and 12.x, 1024 on 9.0; 0 on GPUs
  /// without TF32 (below 8.0) and on those this table does not know.
  double tf32_tensor_rate_gops() const;
  /// Peak 32-bit integer instruction rate in G instructions per second (one per lane per clock).
  double peak_int32_gops() const;
  /// The datasheet memory bandwidth (clock x bus width x 2 for double data rate), GB/s.
  double datasheet_bandwidth_gbs() const;
  /// "9.0" style text of the compute capability.
  std::string compute_capability() const;
};

/// The CPU threads an OpenMP loop of the course uses (1 in a build without OpenMP).
int cpu_threads();

/// Sets the threads of the OpenMP loops that follow (--cpu-threads): 0 keeps OpenMP's choice, every
/// core. @throws UsageError for more than one thread in a build without OpenMP.
void set_cpu_threads(int threads);

/// "CPU, 1 thread" or "CPU, 16 threads": the device column of a CPU step's report.
std::string cpu_description(int threads);

/// True when a CUDA device can be used. Never throws; @p why (if given) receives the reason when not.
bool cuda_device_available(std::string* why = nullptr);

/// Throws NoDeviceError (with CUDA's reason) unless a CUDA device can be used, and CudaError, with one
/// line that says which architecture to rebuild for, when this build holds no code the GPU can run.
void require_cuda_device();

/// Throws CudaError, naming the architecture to rebuild for, when this build holds no GPU code that the
/// device @p name of compute capability @p major.@p minor can run. Checked once per program.
void require_code_for_device(const std::string& name, int major, int minor);

/// Reads the facts of device @p id (the current device by default). Throws NoDeviceError without one.
DeviceFacts query_device(int id = -1);

/// Measures the device-to-device copy bandwidth once, in GB/s, counting bytes read plus bytes written:
/// the practical ceiling for a memory-bound kernel. Uses a buffer well beyond the L2 cache, warm-up and
/// the median of several timed copies.
double measure_copy_bandwidth_gbs();

/// Measures the read-only bandwidth once, in GB/s: a large buffer streamed into the SMs with nothing
/// written back, the best of a few launch shapes. The ceiling of steps that read far more than they
/// write (a reduction, a matrix-vector product); on some GPUs it exceeds the copy bandwidth.
double measure_read_bandwidth_gbs();

}  // namespace course
