// Exercise 05-A, solution: y = A^T x with coalesced reads.
//
// One thread per column j, so the 32 threads of a warp read 32 neighbouring elements of a row at each
// step: coalesced. One column's sum runs over all M rows, which leaves too few threads when N is
// small, so the rows are cut into bands (blockIdx.y): each band writes partial sums to scratch, and a
// second kernel adds the bands, one thread per column again.
#include "transpose_times_vector.h"

#include <algorithm>

#include "course/check.h"

namespace exercise05 {
namespace {

constexpr int kThreads = 256;
constexpr int kBands = 32;

__global__ void band_sums(const float* a, const float* x, float* partial, std::size_t rows, std::size_t columns) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= columns) return;
  const std::size_t band = (rows + gridDim.y - 1) / gridDim.y;
  const std::size_t first = blockIdx.y * band;
  const std::size_t last = first + band < rows ? first + band : rows;
  float sum = 0.0f;
  for (std::size_t i = first; i < last; ++i) sum += a[i * columns + j] * x[i];
  partial[blockIdx.y * columns + j] = sum;
}

__global__ void add_bands(const float* partial, int bands, float* y, std::size_t columns) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= columns) return;
  float sum = 0.0f;
  for (int b = 0; b < bands; ++b) sum += partial[b * columns + j];
  y[j] = sum;
}

int bands_for(std::size_t rows) { return static_cast<int>(std::min<std::size_t>(kBands, rows)); }

}  // namespace

std::size_t transpose_times_vector_scratch_bytes(std::size_t rows, std::size_t columns) {
  return static_cast<std::size_t>(bands_for(rows)) * columns * sizeof(float);
}

void transpose_times_vector(const float* a, const float* x, float* y, std::size_t rows, std::size_t columns,
                            void* scratch, cudaStream_t stream) {
  float* partial = static_cast<float*>(scratch);
  const int bands = bands_for(rows);
  const unsigned column_blocks = static_cast<unsigned>((columns + kThreads - 1) / kThreads);
  band_sums<<<dim3(column_blocks, bands), kThreads, 0, stream>>>(a, x, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  add_bands<<<column_blocks, kThreads, 0, stream>>>(partial, bands, y, columns);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise05
