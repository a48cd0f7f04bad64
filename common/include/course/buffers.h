/// @file buffers.h
/// @brief Owning handles for device memory, pinned host memory, streams and events.
///
/// Each handle frees its resource when it goes out of scope, so an early exit (a failed check, a FAIL
/// verdict) never leaks GPU memory. Allocation failures throw course::CudaError; a request larger than
/// the device's free memory throws course::UsageError first, with a one-line explanation.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "course/check.h"

namespace course {

/// The words every "too big for this GPU" message contains, so the runner can tell it from other bad
/// input and retry the table at a smaller size.
constexpr const char* kDoesNotFit = "it does not fit in GPU memory";

/// The device memory free now, in bytes (and the total in @p total, if given). The environment variable
/// COURSE_GPU_MEMORY_MIB, when set, makes the GPU look as if it had only that many MiB.
std::size_t usable_device_memory(std::size_t* total = nullptr);

/// Throws UsageError (its message containing ::kDoesNotFit) if @p bytes more of device memory cannot
/// fit in what the device has free now.
/// @param bytes how much the caller is about to allocate
/// @param what  what it is for, for the message ("input array", ...)
void ensure_device_memory(std::size_t bytes, const char* what);

/// A stretch of device memory.
struct DeviceBytes {
  const void* data = nullptr;  ///< device pointer
  std::size_t bytes = 0;       ///< its length
};

/// Copies @p bytes from @p source to @p target (host memory, not overlapping) with several CPU threads:
/// one thread cannot reach the bandwidth of host memory. Used to fill pinned staging buffers.
void copy_with_threads(void* target, const void* source, std::size_t bytes);

/// An array of @p T in device memory.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// Allocates @p count elements (uninitialised). @p what names the buffer in error messages.
  explicit DeviceBuffer(std::size_t count, const char* what = "device buffer") : count_(count) {
    if (count == 0) return;
    ensure_device_memory(bytes(), what);
    CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()));
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  /// Takes over @p other's memory, leaving it empty.
  DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
  /// Frees this buffer's memory and takes over @p other's, leaving it empty.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      swap(other);
    }
    return *this;
  }

  T* data() const { return data_; }               ///< device pointer (null when empty)
  std::size_t size() const { return count_; }     ///< number of elements
  std::size_t bytes() const { return count_ * sizeof(T); }  ///< size in bytes
  DeviceBytes whole() const { return {data_, bytes()}; }     ///< the whole buffer as bytes

  /// Copies @p count elements from host memory into the start of the buffer, and returns once they
  /// are on the device. (A plain cudaMemcpy from pageable memory may return while its last DMA is
  /// still under way, and work in a non-blocking stream does not wait for it.)
  void upload(const T* host, std::size_t count) {
    CUDA_CHECK(cudaMemcpy(data_, host, count * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  /// Copies a whole host vector into the buffer; the buffer must be at least as long.
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
  /// Copies the first @p count elements back to host memory (synchronous).
  void download(T* host, std::size_t count) const {
    CUDA_CHECK(cudaMemcpy(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// Returns the whole buffer as a host vector (synchronous).
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    download(host.data(), count_);
    return host;
  }
  /// Fills every byte with 0xFF, which reads as NaN for floats and -1 for signed integers: a result
  /// that a kernel forgot to write can never look right.
  void poison(cudaStream_t stream = nullptr) {
    if (count_ != 0) CUDA_CHECK(cudaMemsetAsync(data_, 0xFF, bytes(), stream));
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }
  void swap(DeviceBuffer& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// An array of @p T in page-locked (pinned) host memory, which the GPU's copy engines read directly.
template <class T>
class PinnedBuffer {
 public:
  /// Allocates @p count elements of pinned host memory (uninitialised).
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count != 0) CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (data_ != nullptr) cudaFreeHost(data_);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() const { return data_; }            ///< host pointer
  std::size_t size() const { return count_; }  ///< number of elements
  T& operator[](std::size_t i) { return data_[i]; }  ///< element access

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

/// A CUDA stream, created non-blocking so it never waits on the legacy default stream.
class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }  ///< the raw handle
  /// Waits until all work in the stream has finished (checked).
  void synchronize() const { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// A CUDA event used as a timestamp.
class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }  ///< the raw handle
  /// Records the event in @p stream.
  void record(cudaStream_t stream) { CUDA_CHECK(cudaEventRecord(event_, stream)); }
  /// Milliseconds between @p start and this event; waits for this event to complete.
  float elapsed_ms_since(const Event& start) const {
    CUDA_CHECK(cudaEventSynchronize(event_));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace course
