// Exercise 02-B: minimum and maximum in one pass. Read the array once and find both.
//
// This header is the contract between your code (min_max.cu) and the grading test (grade_min_max.cpp).
// Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace exercise02 {

/// The answer: the smallest and the largest value.
struct MinMax {
  float min;
  float max;
};

/// Device scratch, in bytes, that min_max() needs for n elements (may be 0).
std::size_t min_max_scratch_bytes(std::size_t n);

/// Enqueues into `stream` the minimum and maximum of values[0..n) (device memory, n >= 1, finite
/// values), written to *result (device memory). `scratch` holds min_max_scratch_bytes(n) bytes.
/// Read each element once: one pass over the array, not two. Check every CUDA call and launch.
void min_max(const float* values, std::size_t n, MinMax* result, void* scratch, cudaStream_t stream);

}  // namespace exercise02
