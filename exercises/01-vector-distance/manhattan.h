// Exercise 01-A: Manhattan (L1) distances with shared-memory tiles.
//
// This header is the contract between your code (manhattan.cu) and the grading test
// (grade_manhattan.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace exercise01 {

/// On the GPU: c[i][j] = sum over x of |a[i][x] - b[j][x]|, where A is m x n, B is k x n and C is
/// m x k, all float32, row-major, in device memory. Any m, k, n >= 1. Stage tiles of A and B in
/// shared memory as lesson 01's steps 04 and 05 do. Enqueue everything into `stream`; check every
/// launch.
void manhattan_distances(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                         cudaStream_t stream);

}  // namespace exercise01
