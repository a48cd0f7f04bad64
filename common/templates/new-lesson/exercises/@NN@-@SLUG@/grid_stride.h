// Exercise @NN@-A: y = 2 x + 1 with a grid-stride loop.
//
// This header is the contract between your code (grid_stride.cu) and the grading test
// (grade_grid_stride.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace exercise@NN@ {

/// Enqueues into `stream` y[i] = 2 x[i] + 1 for i in [0, n) (x and y in device memory, n >= 1), with a
/// grid of at most 4 blocks per SM whose threads stride over the array. Check every CUDA call and launch.
void grid_stride(const float* x, float* y, std::size_t n, cudaStream_t stream);

}  // namespace exercise@NN@
