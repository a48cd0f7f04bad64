// Exercise 05-A: y = A^T x with coalesced reads. YOUR CODE GOES HERE.
//
// Give each column j its own thread: at every step the 32 threads of a warp then read 32 neighbouring
// elements of one row, which is what coalesced means (lesson 05, steps 03 and 05). One column's sum
// runs over all M rows; to have enough threads, cut the rows into bands (blockIdx.y), write each
// band's partial sums to scratch, and add the bands in a second kernel.
//
// Grade your work:   ./course grade 05 transpose_times_vector
// The tests try 1 x 1, 1 x 1000, 1000 x 1, 33 x 1000 and 999 x 1001 (three seeds each), 16384 x 16384,
// 100000 x 7 and 5 x 50000, and compare with a double-precision reference within
// 4 * 2^-24 * sqrt(M) * max|y|.
//
// Traps:
//   - M need not divide by the number of bands: the last bands can be short, or even empty (M = 33
//     gives 32 bands of 2 rows, so bands 17 to 31 have none). An empty band must still write zeros
//     for its columns, or add_bands adds whatever scratch held.
// Target: your time within 1.2x of the solution's on your GPU (on an H100 the solution takes 0.356 ms
// at size 16384x16384); `./course grade` prints the ratio and says whether you met it (advisory: the
// grade does not depend on it).
#include "transpose_times_vector.h"

#include <algorithm>

#include "course/check.h"

namespace exercise05 {
namespace {

constexpr int kThreads = 256;
constexpr int kBands = 32;

// partial[blockIdx.y * columns + j] = sum over the rows of band blockIdx.y of a[i][j] * x[i].
__global__ void band_sums(const float* a, const float* x, float* partial, std::size_t rows, std::size_t columns) {
  // TODO 1: j from the block and thread index (return if j >= columns); the band's first and last
  // row from blockIdx.y and gridDim.y (the last band may be short); the loop; the store.
}

// y[j] = sum over the bands of partial[b * columns + j].
__global__ void add_bands(const float* partial, int bands, float* y, std::size_t columns) {
  // TODO 2: one thread per column.
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
