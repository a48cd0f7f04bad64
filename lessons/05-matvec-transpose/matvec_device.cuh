// Lesson 05, C = A^T (A v): the device building blocks that several steps share. Each is introduced,
// and explained, by the step named beside it; later steps reuse it from here instead of copying it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "course/check.h"
#include "course/launch.h"
#include "matvec.h"

namespace matvec {

// The smaller of two sizes, on the host or the device (std::min is host-only).
__host__ __device__ inline std::size_t smaller(std::size_t a, std::size_t b) { return a < b ? a : b; }

// Step 03. Steps that split a sum into `parts` pieces write partial sums, part p at
// partial[p * length + x]; this kernel adds them up: out[x] = sum over p. Consecutive threads take
// consecutive x, so every read is coalesced.
__global__ void sum_partials(const float* partial, int parts, std::size_t length, float* out);
void launch_sum_partials(const float* partial, int parts, std::size_t length, float* out, cudaStream_t stream);

// Step 04. The sum of a value over the 32 lanes of a warp, by shuffles; every lane gets the sum.
__device__ inline float warp_sum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  return value;
}

// Step 04. The coalesced two-pass algorithm, which step 06 also falls back to for very wide matrices:
// B = A v with one warp per row (lanes read consecutive columns), then C = A^T B with one thread per
// column over `parts` bands of rows (consecutive threads read consecutive columns of a row), whose
// partial sums are then added. Scratch: B (rows floats), then parts x columns partial sums.
std::size_t coalesced_scratch_bytes(std::size_t rows, std::size_t columns, int parts);
void launch_coalesced_two_pass(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                               int threads, int parts, void* scratch, cudaStream_t stream);

// Step 04. How many bands of rows make enough blocks to fill the GPU: about 8 blocks of `threads`
// per SM in all, never more bands than rows.
int parts_to_fill(std::size_t rows, std::size_t columns, int threads, const course::DeviceFacts& device);

}  // namespace matvec
