// Lesson 05, step 03: naive GPU, one thread per output element.
//
// What changed: each product becomes one kernel with one thread per output: thread i computes B_i
// from row i, then thread j computes C_j from column j.
//
// Which is coalesced: in the first kernel, the 32 threads of a warp read row i, row i + 1, ...: at
// each step of their loops their addresses are N floats apart, so every load of the warp touches 32
// different memory segments. In the second, the threads read A[i][j], A[i][j + 1], ...: neighbours in
// memory, one segment per warp load. Same arithmetic, different speed: `./course profile 05` times the
// two kernels apart (the README's counters).
//
// What it costs: besides the uncoalesced first kernel, only M threads in the first kernel and N in the
// second: at 16384, 512 warps for a GPU that holds 8448 at once (132 SMs x 64 warps).
//
// This file is also the lesson's one full page of host code: once the course's step skeleton has read
// the options, its main makes the problem, allocates device memory (A, v, C and the intermediate B),
// copies A and v over, launches the two kernels (timed), copies C back and checks it. The later steps
// leave that to the lesson's driver (matvec.cpp, step_main.cpp), which does the same with owning
// buffers and a stream of its own.
//
// Launch: 256 threads per block (or --threads, whole warps); blocks to cover M, then N. --blocks is
// ignored.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/launch.h"
#include "course/timing.h"
#include "matvec.h"
#include "matvec_device.cuh"

namespace {

using matvec::LaunchPlan;

// Thread i computes B_i = row i of A times v.
__global__ void thread_per_row(const float* a, const float* v, float* b, std::size_t rows, std::size_t columns) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  float sum = 0.0f;
  for (std::size_t j = 0; j < columns; ++j) sum += a[i * columns + j] * v[j];
  b[i] = sum;
}

// Thread j computes C_j = column j of A times B.
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

// One run: B = A v, then C = A^T B; `scratch` holds B (M floats).
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

// The step as the lesson's tests see it.
const matvec::Step matvec::kThisStep = {"03", "naive GPU, one thread per output", "gpu", nullptr, plan, run, 2};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<matvec::Lesson>(argc, argv, matvec::kThisStep, [](matvec::Request& request) {
    const matvec::Problem problem = matvec::load_problem(request);  // --input, or seeded A and v
    const std::size_t rows = request.rows = problem.rows, columns = request.columns = problem.columns;
    course::Measurement m = matvec::Lesson::describe(matvec::kThisStep, request);
    course::require_cuda_device();

    // Device memory for A, v, C and B. Asking first turns a matrix that cannot fit into one clear
    // line (exit code 2) rather than a failed cudaMalloc.
    const std::size_t a_bytes = rows * columns * sizeof(float), vector_bytes = columns * sizeof(float);
    const std::size_t b_bytes = rows * sizeof(float);
    course::ensure_device_memory(a_bytes + 2 * vector_bytes + b_bytes, "A, v, C and B");
    float *d_a = nullptr, *d_v = nullptr, *d_c = nullptr, *d_b = nullptr;
    CUDA_CHECK(cudaMalloc(&d_a, a_bytes));
    CUDA_CHECK(cudaMalloc(&d_v, vector_bytes));
    CUDA_CHECK(cudaMalloc(&d_c, vector_bytes));
    CUDA_CHECK(cudaMalloc(&d_b, b_bytes));
    CUDA_CHECK(cudaMemcpy(d_a, problem.a.data(), a_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, problem.v.data(), vector_bytes, cudaMemcpyHostToDevice));

    const LaunchPlan launch = plan(rows, columns, course::query_device(), request.requested);

    // Warm-up runs, then --reps timed runs, each between two CUDA events; before each, every byte of C
    // is set to 0xFF (NaN), so an element that a run forgot to write cannot pass. Everything goes into
    // the default stream, which also orders the runs after the copies above.
    cudaStream_t stream = nullptr;
    m.time = course::time_gpu([&](cudaStream_t s) { run(d_a, d_v, d_c, rows, columns, launch, d_b, s); },
                              request.common.timing, stream,
                              [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(d_c, 0xFF, vector_bytes, s)); });

    std::vector<float> c(columns);
    CUDA_CHECK(cudaMemcpy(c.data(), d_c, vector_bytes, cudaMemcpyDeviceToHost));  // waits for the last run
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_v));
    CUDA_CHECK(cudaFree(d_c));
    CUDA_CHECK(cudaFree(d_b));
    // Check against the double-precision reference within the lesson's tolerance, print, --output.
    return matvec::report_gpu(m, problem, c, request);
  });
}
