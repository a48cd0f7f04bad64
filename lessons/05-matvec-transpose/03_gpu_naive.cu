// Lesson 05, step 03: naive GPU, one thread per output element.
//
// What changed: each product becomes one kernel with one thread per output: thread i computes B_i
// from row i, then thread j computes C_j from column j.
//
// Which is coalesced: in the first kernel, the 32 threads of a warp read row i, row i + 1, ...: at
// each step of their loops their addresses are N floats apart, so every load of the warp touches 32
// different memory segments. In the second, the threads read A[i][j], A[i][j + 1], ...: neighbours in
// memory, one segment per warp load. Same arithmetic, very different speed; the timeline of the two
// kernels (Nsight Systems, or timing them apart) shows it.
//
// What it costs: besides the uncoalesced first kernel, only M threads in the first kernel and N in the
// second: at 16384, about 500 warps for a GPU that holds 8448 at once.
//
// Launch: 256 threads per block (or --threads, whole warps); blocks to cover M, then N.
#include "matvec.h"
#include "matvec_device.cuh"

namespace {

using matvec::LaunchPlan;

__global__ void thread_per_row(const float* a, const float* v, float* b, std::size_t rows, std::size_t columns) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  float sum = 0.0f;
  for (std::size_t j = 0; j < columns; ++j) sum += a[i * columns + j] * v[j];
  b[i] = sum;
}

__global__ void thread_per_column(const float* a, const float* b, float* c, std::size_t rows, std::size_t columns) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= columns) return;
  float sum = 0.0f;
  for (std::size_t i = 0; i < rows; ++i) sum += a[i * columns + j] * b[i];
  c[j] = sum;
}

LaunchPlan plan(std::size_t rows, std::size_t, const course::DeviceFacts&, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.scratch_bytes = rows * sizeof(float);  // B
  return p;
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  float* b = static_cast<float*>(scratch);
  thread_per_row<<<static_cast<unsigned>((rows + p.threads - 1) / p.threads), p.threads, 0, stream>>>(a, v, b, rows,
                                                                                                       columns);
  CUDA_CHECK_LAUNCH();
  thread_per_column<<<static_cast<unsigned>((columns + p.threads - 1) / p.threads), p.threads, 0, stream>>>(
      a, b, c, rows, columns);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

const matvec::Step matvec::kThisStep = {"03", "naive GPU, one thread per output", "gpu", nullptr, plan, run, 2};
