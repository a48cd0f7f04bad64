// Lesson 04, step 04: parallel GPU, one launch per k.
//
// What changed: within round k every (i, j) is independent, so each round becomes one kernel launch
// over the whole matrix: block i takes row i, and its threads stride along the row, each handling
// several elements (n / threads of them), as the original study did. Rounds must run in order, and
// the end of a launch is the barrier between them: n launches in all.
//
// Why it is faster: n blocks of 256 threads update the matrix at once (the ladder compares its rate
// with step 03's). Neighbouring threads read and write neighbouring elements of row i and of row k.
//
// What it costs: each round reads the whole matrix and writes what improves (16 MB at n = 2048, which
// fits in the 50 MB L2 cache of an H100 or an H200; 256 MB at n = 8192, which does not, and the rate
// falls there: the README's table at n = 8192), and there are n launches, each a round with its launch
// (the README divides the time by them). The compiler must also reload d[i][k] for every
// element: the thread writes d[i][j], and for all the compiler knows j could equal k.
//
// Launch: n blocks of 256 threads (or --threads, rounded to whole warps); --blocks is ignored.
#include "course/launch.h"
#include "floyd_warshall.h"
#include "04_gpu_launch_per_k.cuh"
#include "floyd_warshall_device.cuh"

namespace {

using floyd_warshall::LaunchPlan;

__global__ void relax_through(std::int32_t* d, int n, int k) {
  const int i = blockIdx.x;
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    floyd_warshall::relax(&d[static_cast<std::size_t>(i) * n + j], d[static_cast<std::size_t>(i) * n + k],
                          d[static_cast<std::size_t>(k) * n + j]);
}

LaunchPlan plan(std::size_t n, const course::DeviceFacts&, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.blocks = static_cast<int>(n);
  return p;
}

void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& p, void*,
         cudaStream_t stream) {
  floyd_warshall::copy_graph(graph, dist, n, stream);
  for (int k = 0; k < static_cast<int>(n); ++k) {
    relax_through<<<p.blocks, p.threads, 0, stream>>>(dist, static_cast<int>(n), k);
    CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "04", "parallel GPU, one launch per k", "gpu", nullptr, plan, run, floyd_warshall::kDefaultVertices, 2049};
