// Lesson 01, step 13: row norms plus cublasSgemm (the story is in 13_cublas_norms.cu). Step 14 and the
// report programs (lesson01_accuracy, lesson01_register_tile_shapes) include this header too.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "08_norm_expansion.cuh"
#include "course/check.h"
#include "course/errors.h"

namespace cublas_norms {

inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw course::CudaError(std::string("cuBLAS error ") + cublasGetStatusName(status) + " in " + what);
}

// The arithmetic cuBLAS may use. Fp32: CUBLAS_DEFAULT_MATH, only arithmetic at least as precise as
// FP32, so no TF32 tensor cores (they keep 10 bits of each input's mantissa instead of 23). Tf32:
// CUBLAS_TF32_TENSOR_OP_MATH, the tensor cores in TF32 (step 14).
enum class Math { Fp32, Tf32 };

// One handle per kind of arithmetic for the program, made on first use (outside the timed runs).
inline cublasHandle_t handle(Math math = Math::Fp32) {
  const auto make = [](cublasMath_t mode) {
    cublasHandle_t made = nullptr;
    check(cublasCreate(&made), "cublasCreate");
    check(cublasSetMathMode(made, mode), "cublasSetMathMode");
    return made;
  };
  static cublasHandle_t fp32 = make(CUBLAS_DEFAULT_MATH);
  static cublasHandle_t tf32 = make(CUBLAS_TF32_TENSOR_OP_MATH);
  return math == Math::Tf32 ? tf32 : fp32;
}

// c[i][j] = norms_a[i] + norms_b[j], the part of C that does not depend on the pair.
__global__ void add_norms(const float* norms_a, const float* norms_b, float* c, std::size_t m, std::size_t k) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t e = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; e < m * k; e += stride)
    c[e] = norms_a[e / k] + norms_b[e % k];
}

// Device scratch for the row norms of A and B.
inline std::size_t scratch_bytes(std::size_t m, std::size_t k) { return (m + k) * sizeof(float); }

// Throws course::UsageError for sizes cuBLAS's 32-bit interface cannot take.
inline void require_int_sizes(std::size_t m, std::size_t k, std::size_t n) {
  if (m > 2147483647u || k > 2147483647u || n > 2147483647u)
    throw course::UsageError("cuBLAS takes dimensions below 2^31");
}

// Everything launch() needs done once, outside the timed runs: sizes cuBLAS can take (else
// UsageError) and the handle for `math`. Returns the scratch bytes for M x K.
inline std::size_t prepare(std::size_t m, std::size_t k, std::size_t n, Math math) {
  require_int_sizes(m, k, n);
  handle(math);
  return scratch_bytes(m, k);
}

// Enqueues C = |a_i|^2 + |b_j|^2 - 2 A B^T into stream. `scratch` holds scratch_bytes(m, k) bytes.
inline void launch(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                   void* scratch, cudaStream_t stream, Math math = Math::Fp32) {
  const norm_expansion::Norms<float> norms = norm_expansion::launch_norms(a, b, m, k, n, scratch, stream);
  const std::size_t blocks = (m * k + 255) / 256;
  add_norms<<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), 256, 0, stream>>>(norms.a, norms.b, c, m, k);
  CUDA_CHECK_LAUNCH();
  // cuBLAS reads matrices by columns. Row-major C (M x K) is, by columns, C^T (K x M) with leading
  // dimension K; row-major A and B are A^T (N x M) and B^T (N x K) with leading dimension N. So
  // C^T = -2 B A^T + C^T is one Sgemm with op(B^T) = transposed and op(A^T) = as is, beta = 1.
  const float minus_two = -2.0f, one = 1.0f;
  check(cublasSetStream(handle(math), stream), "cublasSetStream");
  check(cublasSgemm(handle(math), CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(k), static_cast<int>(m),
                    static_cast<int>(n), &minus_two, b, static_cast<int>(n), a, static_cast<int>(n), &one, c,
                    static_cast<int>(k)),
        "cublasSgemm");
}

}  // namespace cublas_norms
