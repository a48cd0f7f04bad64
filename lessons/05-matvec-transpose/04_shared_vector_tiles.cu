// Lesson 05, step 04: vector tiles in shared memory, with per-block partial sums.
//
// What changed: the design of the project this lesson started from, generalised to any M and N. The
// work is cut into "parts" (bands of columns for A v, bands of rows for A^T B) and blocks of 128
// threads. For A v, block (r, p) takes 128 rows and column band p; it walks the band in tiles of 128
// columns, each time loading the 128 values of v into shared memory once, after which each thread
// adds its row's 128 products. For A^T B the roles swap: 128 columns, row band p, tiles of 128 values
// of B. Each block writes its partial sums; a last small kernel adds the parts (sum_partials).
//
// Why it is faster (the ladder's step 04 against step 03, for the two ideas together): many more threads
// (parts x rows or parts x columns), and the vector is read from shared memory, once per block instead
// of once per thread. The A^T B kernel reads A coalesced, as step 03's did. --blocks 1 (one part) and
// --no-shared-vector switch the two ideas off one at a time: the README's table of step 04's ideas
// shows the parts buying nearly all of the gain.
//
// What it still costs: the A v kernel still has each thread walk its own row, so a warp's loads are
// N floats apart, as in step 03. Step 05 turns that around.
//
// Any size: the last tile of a band may be short and the last block may run past M or N; tiles are
// loaded with zeros beyond the end, and threads beyond it compute nothing. The original required
// multiples of the block size.
//
// Launch: 128 threads per block (or --threads, whole warps); parts chosen to give about 8 blocks per SM
// (or --blocks, the number of parts).
#include <algorithm>

#include "matvec.h"
#include "04_shared_vector_tiles.cuh"
#include "matvec_device.cuh"

namespace {

using matvec::LaunchPlan;

// The first and one-past-last index of band `part` of `length` cut into `parts`, in whole tiles.
__device__ inline void band(std::size_t length, int parts, int part, int tile, std::size_t& first, std::size_t& last) {
  const std::size_t tiles = (length + tile - 1) / tile;
  const std::size_t per_part = (tiles + parts - 1) / parts;
  first = matvec::smaller(length, part * per_part * tile);
  last = matvec::smaller(length, first + per_part * tile);
}

// Partial B over column band blockIdx.y, for rows blockIdx.x * blockDim.x + threadIdx.x. kShared:
// v through a tile in shared memory (the step); otherwise straight from global memory
// (--no-shared-vector, to measure what the tile is worth).
template <bool kShared>
__global__ void a_v_tiled(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns) {
  extern __shared__ float v_tile[];
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  std::size_t first, last;
  band(columns, gridDim.y, blockIdx.y, blockDim.x, first, last);
  float sum = 0.0f;
  for (std::size_t j0 = first; j0 < last; j0 += blockDim.x) {
    const std::size_t j = j0 + threadIdx.x;
    if (kShared) {
      v_tile[threadIdx.x] = j < last ? v[j] : 0.0f;
      __syncthreads();
    }
    const float* v_here = kShared ? v_tile : v + j0;
    const std::size_t width = matvec::smaller(blockDim.x, last - j0);
    if (i < rows)
      for (std::size_t t = 0; t < width; ++t) sum += a[i * columns + j0 + t] * v_here[t];
    if (kShared) __syncthreads();  // the tile is reused for the next slice
  }
  if (i < rows) partial[blockIdx.y * rows + i] = sum;
}

// Partial C over row band blockIdx.y, for columns blockIdx.x * blockDim.x + threadIdx.x.
template <bool kShared>
__global__ void at_b_tiled(const float* a, const float* b, float* partial, std::size_t rows, std::size_t columns) {
  extern __shared__ float b_tile[];
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  std::size_t first, last;
  band(rows, gridDim.y, blockIdx.y, blockDim.x, first, last);
  float sum = 0.0f;
  for (std::size_t i0 = first; i0 < last; i0 += blockDim.x) {
    const std::size_t i = i0 + threadIdx.x;
    if (kShared) {
      b_tile[threadIdx.x] = i < last ? b[i] : 0.0f;
      __syncthreads();
    }
    const float* b_here = kShared ? b_tile : b + i0;
    const std::size_t height = matvec::smaller(blockDim.x, last - i0);
    if (j < columns)
      for (std::size_t t = 0; t < height; ++t) sum += a[(i0 + t) * columns + j] * b_here[t];
    if (kShared) __syncthreads();
  }
  if (j < columns) partial[blockIdx.y * columns + j] = sum;
}

int parts_for(std::size_t outputs, std::size_t inputs, int threads, const course::DeviceFacts& device) {
  const std::size_t blocks = (outputs + threads - 1) / threads;
  const std::size_t tiles = (inputs + threads - 1) / threads;
  const std::size_t wanted = (8 * static_cast<std::size_t>(device.multiprocessors) + blocks - 1) / blocks;
  return static_cast<int>(std::max<std::size_t>(1, std::min({wanted, tiles, std::size_t(65535)})));
}

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 128);
  // One part count serves both products: the larger of what each needs, capped by both band counts.
  // --blocks N asks for N parts instead (--blocks 1: no partial sums, to measure what they are worth).
  const int parts_a_v = parts_for(rows, columns, p.threads, device);
  const int parts_at_b = parts_for(columns, rows, p.threads, device);
  p.parts = requested.blocks > 0 ? std::min(requested.blocks, 65535) : std::max(parts_a_v, parts_at_b);
  p.blocks = p.parts;
  p.shared_vector = requested.shared_vector;
  // B, then the partial sums of whichever product has more outputs.
  p.scratch_bytes = (rows + static_cast<std::size_t>(p.parts) * std::max(rows, columns)) * sizeof(float);
  return p;
}

template <bool kShared>
void launch(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
            void* scratch, cudaStream_t stream) {
  float* b = static_cast<float*>(scratch);
  float* partial = b + rows;
  const std::size_t shared = p.threads * sizeof(float);
  const dim3 grid_a_v(static_cast<unsigned>((rows + p.threads - 1) / p.threads), static_cast<unsigned>(p.parts));
  a_v_tiled<kShared><<<grid_a_v, p.threads, shared, stream>>>(a, v, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  matvec::launch_sum_partials(partial, p.parts, rows, b, stream);
  const dim3 grid_at_b(static_cast<unsigned>((columns + p.threads - 1) / p.threads), static_cast<unsigned>(p.parts));
  at_b_tiled<kShared><<<grid_at_b, p.threads, shared, stream>>>(a, b, partial, rows, columns);
  CUDA_CHECK_LAUNCH();
  matvec::launch_sum_partials(partial, p.parts, columns, c, stream);
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  if (p.shared_vector) launch<true>(a, v, c, rows, columns, p, scratch, stream);
  else launch<false>(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {
    "04", "vector tiles in shared memory, partial sums per block", "gpu", nullptr, plan, run, 2, false,
    matvec::kSharedVectorOption};
