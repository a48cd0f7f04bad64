// Exercise 05-A: y = A^T x alone, with coalesced reads.
//
// This header is the contract between your code (transpose_times_vector.cu) and the grading test
// (grade_transpose_times_vector.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace exercise05 {

/// Device scratch, in bytes, that transpose_times_vector() needs (may be 0).
std::size_t transpose_times_vector_scratch_bytes(std::size_t rows, std::size_t columns);

/// On the GPU: y = A^T x, where A is rows x columns (row-major, device), x has `rows` elements and y
/// gets `columns` elements (device). Read A coalesced: neighbouring threads must read neighbouring
/// elements of a row. Enqueue everything into `stream`; check every CUDA call and launch.
void transpose_times_vector(const float* a, const float* x, float* y, std::size_t rows, std::size_t columns,
                            void* scratch, cudaStream_t stream);

}  // namespace exercise05
