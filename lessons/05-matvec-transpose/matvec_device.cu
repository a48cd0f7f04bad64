// Lesson 05: the shared building blocks of matvec_device.cuh.
#include "matvec_device.cuh"

#include <algorithm>

namespace matvec {

__global__ void sum_partials(const float* partial, int parts, std::size_t length, float* out) {
  for (std::size_t x = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; x < length;
       x += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    float sum = 0.0f;
    for (int p = 0; p < parts; ++p) sum += partial[p * length + x];
    out[x] = sum;
  }
}

void launch_sum_partials(const float* partial, int parts, std::size_t length, float* out, cudaStream_t stream) {
  const int blocks = static_cast<int>(std::min<std::size_t>((length + 255) / 256, 4096));
  sum_partials<<<blocks, 256, 0, stream>>>(partial, parts, length, out);
  CUDA_CHECK_LAUNCH();
}

namespace {

// B = A v: warp w of the grid takes rows w, w + warps, ...; its lanes stride along the row.
__global__ void warp_per_row(const float* a, const float* v, float* b, std::size_t rows, std::size_t columns) {
  const std::size_t warp = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) / 32;
  const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (std::size_t i = warp; i < rows; i += warps) {
    const float* row = a + i * columns;
    float sum = 0.0f;
    for (std::size_t j = lane; j < columns; j += 32) sum += row[j] * v[j];
    sum = warp_sum(sum);
    if (lane == 0) b[i] = sum;
  }
}

// Partial C over band blockIdx.y of the rows: thread j sums a[i][j] * b[i] over the band's rows.
__global__ void column_per_thread(const float* a, const float* b, float* partial, std::size_t rows,
                                  std::size_t columns) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j >= columns) return;
  const std::size_t band = (rows + gridDim.y - 1) / gridDim.y;
  const std::size_t first = blockIdx.y * band, last = smaller(rows, first + band);
  float sum = 0.0f;
  for (std::size_t i = first; i < last; ++i) sum += a[i * columns + j] * b[i];
  partial[blockIdx.y * columns + j] = sum;
}

}  // namespace

std::size_t coalesced_scratch_bytes(std::size_t rows, std::size_t columns, int parts) {
  return (rows + static_cast<std::size_t>(parts) * columns) * sizeof(float);
}

int parts_to_fill(std::size_t rows, std::size_t columns, int threads, const course::DeviceFacts& device) {
  const std::size_t column_blocks = (columns + threads - 1) / threads;
  const std::size_t wanted = 8 * static_cast<std::size_t>(device.multiprocessors);
  const std::size_t parts = (wanted + column_blocks - 1) / column_blocks;
  return static_cast<int>(std::max<std::size_t>(1, std::min({parts, rows, std::size_t(65535)})));
}

void launch_coalesced_two_pass(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                               int threads, int parts, void* scratch, cudaStream_t stream) {
  float* b = static_cast<float*>(scratch);
  float* partial = b + rows;
  const std::size_t row_blocks = std::min<std::size_t>((rows * 32 + threads - 1) / threads, 65535);
  warp_per_row<<<static_cast<unsigned>(row_blocks), threads, 0, stream>>>(a, v, b, rows, columns);
  CUDA_CHECK_LAUNCH();
  const dim3 grid(static_cast<unsigned>((columns + threads - 1) / threads), static_cast<unsigned>(parts));
  column_per_thread<<<grid, threads, 0, stream>>>(a, b, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  launch_sum_partials(partial, parts, columns, c, stream);
}

}  // namespace matvec
