// Exercise @NN@-A: y = 2 x + 1 with a grid-stride loop. YOUR CODE GOES HERE.
//
// Step 02 launches one thread per element. Here the grid is fixed, a few blocks per SM, and each
// thread handles elements i, i + (threads in the grid), i + 2 (threads in the grid), ... until n.
//
// Grade your work:   ./course grade @NN@ grid_stride
// Target: your time within 1.1x of the solution's on your GPU; `./course grade` prints the ratio.
#include "grid_stride.h"

#include "course/check.h"

namespace exercise@NN@ {
namespace {

constexpr int kThreads = 256;

__global__ void scale_and_shift(const float* x, float* y, std::size_t n) {
  // TODO: start at this thread's index in the grid and stride by the number of threads in the grid.
}

}  // namespace

void grid_stride(const float* x, float* y, std::size_t n, cudaStream_t stream) {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  scale_and_shift<<<4 * sms, kThreads, 0, stream>>>(x, y, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise@NN@
