// Lesson 02, step 03: a float atomic max, built from the integer atomics CUDA provides, and the
// launch that starts the result at -infinity. Steps 04 to 07 combine their blocks with it too.
#pragma once

#include <cuda_runtime.h>

#include <cmath>

#include "course/check.h"
#include "max_reduction_device.cuh"

namespace max_reduction {

// CUDA has no atomicMax for float, but the bit patterns of floats order like integers: for
// non-negative floats as signed ints, for negative floats in reverse as unsigned ints. The sign bit
// picks which atomic keeps the larger value (signbit also sends -0.0f down the negative path).
__device__ inline void atomic_max_float(float* address, float value) {
  if (!signbit(value)) {
    atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
  } else {
    atomicMin(reinterpret_cast<unsigned int*>(address), __float_as_uint(value));
  }
}

static __global__ void set_to_lowest(float* result) { *result = kLowest; }

// Steps that combine blocks with atomic_max_float first set the result to -infinity: a one-thread
// launch in the same stream, so it is counted in the step's time.
inline void start_at_lowest(float* result, cudaStream_t stream) {
  set_to_lowest<<<1, 1, 0, stream>>>(result);
  CUDA_CHECK_LAUNCH();
}

}  // namespace max_reduction
