// Lesson 01, step 03: naive GPU, one thread per distance (the original study's first GPU version).
//
// What changed: the two outer loops of step 01 become the grid. Each thread computes one C[i][j]: it
// walks row i of A and row j of B and adds up the squared differences, exactly like the CPU's inner
// loop. 16 x 16 threads per block, as in the study; the blocks tile C.
//
// Why it is faster: M x K threads, millions of them, give every SM many warps to switch between
// while others wait for memory. The wait still dominates: in the README's counters the warps stall
// most on the global-memory instruction queue (lg_throttle), and the FMA pipe is nearly idle.
//
// What it costs: everything is read from global memory, and nothing a thread loads is shared with
// its neighbours. At each step of the loop the 16 threads of a row of the block read the same A[i][x]
// (one broadcast) but 16 different rows of B, N elements apart: 16 memory transactions for 16 useful
// values. Each element of B is fetched once per row of A. Caches may absorb part of that; the next
// steps stop relying on them.
//
// This file is also the lesson's one full page of host code: once the course's step skeleton has read
// the options, its main makes the problem, allocates device memory, copies A and B over, launches
// (timed), copies C back and checks it. The later steps leave that to the lesson's driver
// (distance.cpp, step_main.cpp), which does the same with owning buffers and a stream of its own.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/report.h"
#include "course/timing.h"
#include "distance.h"

namespace {

constexpr int kBlock = 16;  // a block is kBlock x kBlock threads: one distance each

const distance::Step kStep = {"03", "naive GPU, one thread per distance", "gpu", distance::Form::Direct,
                              distance::kDefaultSize};

// Thread (threadIdx.y, threadIdx.x) of block b computes C[i][j]. The grid is one-dimensional (block b
// covers row band b / blocks_across and column band b % blocks_across), so that M and K are not bound
// by the 65535 blocks a grid may have along y.
template <class T>
__global__ void distance_per_thread(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n,
                                    std::size_t blocks_across) {
  const std::size_t i = blockIdx.x / blocks_across * kBlock + threadIdx.y;  // row of A
  const std::size_t j = blockIdx.x % blocks_across * kBlock + threadIdx.x;  // row of B
  if (i >= m || j >= k) return;
  T sum = 0;
  for (std::size_t x = 0; x < n; ++x) {
    const T d = a[i * n + x] - b[j * n + x];
    sum += d * d;
  }
  c[i * k + j] = sum;
}

template <class T>
int run_on_gpu(distance::Request& request) {
  const distance::Problem<T> p = distance::load_problem<T>(request);  // seeded, or read from --input
  course::Measurement m = distance::Lesson::describe(kStep, request);
  course::require_cuda_device();

  // Device memory for A, B and C. Asking first turns a size that cannot fit into one clear line
  // (exit code 2) rather than a failed cudaMalloc.
  const std::size_t a_bytes = p.a.size() * sizeof(T), b_bytes = p.b.size() * sizeof(T);
  const std::size_t c_bytes = p.m * p.k * sizeof(T);
  course::ensure_device_memory(a_bytes + b_bytes + c_bytes, "A, B and C");
  T *d_a = nullptr, *d_b = nullptr, *d_c = nullptr;
  CUDA_CHECK(cudaMalloc(&d_a, a_bytes));
  CUDA_CHECK(cudaMalloc(&d_b, b_bytes));
  CUDA_CHECK(cudaMalloc(&d_c, c_bytes));
  CUDA_CHECK(cudaMemcpy(d_a, p.a.data(), a_bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_b, p.b.data(), b_bytes, cudaMemcpyHostToDevice));

  const std::size_t blocks_down = (p.m + kBlock - 1) / kBlock, blocks_across = (p.k + kBlock - 1) / kBlock;
  if (blocks_down * blocks_across > 2147483647u)
    throw course::UsageError("M x K needs more than 2^31 - 1 blocks of 16 x 16 threads");
  const dim3 block(kBlock, kBlock);
  const unsigned grid = static_cast<unsigned>(blocks_down * blocks_across);

  // Warm-up runs, then --reps timed runs; before each, every byte of C is set to 0xFF (NaN), so a
  // distance the kernel forgot to write cannot pass. Everything goes into the default stream, which
  // also orders the kernels after the copies above.
  cudaStream_t stream = nullptr;
  m.time = course::time_gpu(
      [&](cudaStream_t s) {
        distance_per_thread<<<grid, block, 0, s>>>(d_a, d_b, d_c, p.m, p.k, p.n, blocks_across);
        CUDA_CHECK_LAUNCH();
      },
      request.common.timing, stream, [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(d_c, 0xFF, c_bytes, s)); });

  std::vector<T> c(p.m * p.k);
  CUDA_CHECK(cudaMemcpy(c.data(), d_c, c_bytes, cudaMemcpyDeviceToHost));  // waits for the last run
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  CUDA_CHECK(cudaFree(d_c));
  return distance::finish(m, kStep, p, c, request);  // check against the CPU reference, print, --output
}

}  // namespace

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest,
  // with the kernel for the element type of the request (--type, or the --input file's).
  return course::step_main<distance::Lesson>(argc, argv, kStep, [](distance::Request& request) {
    if (request.type == distance::Type::Int32) return run_on_gpu<std::int32_t>(request);
    return run_on_gpu<float>(request);
  });
}
