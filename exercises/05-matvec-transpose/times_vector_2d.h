// Exercise 05-B: y = A x with two-dimensional thread blocks.
//
// This header is the contract between your code (times_vector_2d.cu) and the grading test
// (grade_times_vector_2d.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace exercise05 {

/// On the GPU: y = A x, where A is rows x columns (row-major, device), x has `columns` elements and y
/// gets `rows` elements (device). Launch blocks of dim3(32, 8) threads: threadIdx.y picks one of the
/// block's 8 rows, threadIdx.x walks along it. Enqueue into `stream`; check every launch.
void times_vector_2d(const float* a, const float* x, float* y, std::size_t rows, std::size_t columns,
                     cudaStream_t stream);

}  // namespace exercise05
