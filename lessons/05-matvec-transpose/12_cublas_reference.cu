// Lesson 05, step 12: the library reference, two cublasSgemv calls.
//
// cuBLAS stores matrices by columns. Our row-major M x N matrix A is, read by columns, the N x M
// matrix A^T with leading dimension N. So B = A v is cublasSgemv with op T on that N x M matrix, and
// C = A^T B is cublasSgemv with op N on it: no copy, no transposition in memory. The handle is made
// once, outside the timed region; each run only sets its stream.
//
// What to expect: cuBLAS reads A twice, once per call, so it is bounded by two passes over A; the fused
// steps 07 to 11 need only one.
//
// Launch: cuBLAS chooses; --threads and --blocks are ignored.
#include <cublas_v2.h>

#include <string>

#include "course/errors.h"
#include "matvec.h"
#include "matvec_device.cuh"

namespace {

using matvec::LaunchPlan;

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw course::CudaError(std::string("cuBLAS error ") + cublasGetStatusName(status) + " in " + what);
}

cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t made = nullptr;
    check(cublasCreate(&made), "cublasCreate");
    return made;
  }();
  return h;
}

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts&, const LaunchPlan&) {
  if (rows > 2147483647u || columns > 2147483647u) throw course::UsageError("cuBLAS takes dimensions below 2^31");
  handle();  // made here, not in the timed runs
  LaunchPlan p;
  p.scratch_bytes = rows * sizeof(float);  // B
  return p;
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan&,
         void* scratch, cudaStream_t stream) {
  float* b = static_cast<float*>(scratch);
  const int m = static_cast<int>(rows), n = static_cast<int>(columns);
  const float one = 1.0f, zero = 0.0f;
  check(cublasSetStream(handle(), stream), "cublasSetStream");
  check(cublasSgemv(handle(), CUBLAS_OP_T, n, m, &one, a, n, v, 1, &zero, b, 1), "cublasSgemv (B = A v)");
  check(cublasSgemv(handle(), CUBLAS_OP_N, n, m, &one, a, n, b, 1, &zero, c, 1), "cublasSgemv (C = A^T B)");
}

}  // namespace

const matvec::Step matvec::kThisStep = {"12", "two cublasSgemv calls (library)", "library", nullptr, plan, run, 2};
