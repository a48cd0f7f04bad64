// Exercise 02-A: argmax. Find the largest value of an array AND the first index where it occurs.
//
// This header is the contract between your code (argmax.cu) and the grading test (grade_argmax.cpp).
// Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace exercise02 {

/// The answer: the largest value and the smallest index i with values[i] == value.
struct ArgMax {
  float value;
  std::uint64_t index;
};

/// Device scratch, in bytes, that argmax() needs for n elements (may be 0).
std::size_t argmax_scratch_bytes(std::size_t n);

/// Enqueues into `stream` the argmax of values[0..n) (device memory, n >= 1, finite values) and
/// writes the answer to *result (device memory). `scratch` holds argmax_scratch_bytes(n) bytes.
/// Check every CUDA call and launch.
void argmax(const float* values, std::size_t n, ArgMax* result, void* scratch, cudaStream_t stream);

}  // namespace exercise02
