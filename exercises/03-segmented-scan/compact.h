// Exercise 03-A: stream compaction with a scan.
//
// This header is the contract between your code (compact.cu) and the grading test (grade_compact.cpp).
// Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace exercise03 {

/// Device scratch, in bytes, that compact_positive() needs for n elements (may be 0).
std::size_t compact_positive_scratch_bytes(std::size_t n);

/// On the GPU: copies the elements of values[0..n) that are greater than zero to kept[0..count), in
/// their order, and writes count to *count. values, kept (room for n) and count are in device memory.
/// Enqueue everything into `stream`; check every CUDA call and launch.
void compact_positive(const float* values, std::size_t n, float* kept, unsigned long long* count, void* scratch,
                      cudaStream_t stream);

}  // namespace exercise03
