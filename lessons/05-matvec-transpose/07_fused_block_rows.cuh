// Lesson 05, step 07, rows of 1024 < N <= 16384 columns: a block holds a group of rows.
//
// Each thread holds E = 4, 8 or 16 elements of each row (columns t, t + T, ...) and takes R = 16 / E
// neighbouring rows at a time, so that every thread has 16 values in flight and the block meets at
// one barrier per 16 values, whatever N is. The warps' sums of each row meet in shared memory; after
// the barrier every thread adds them up to B_i and applies it to the values it holds. Blocks of
// T = 512 threads, two per SM, up to 8192 columns (16 values a thread); of 1024, one per SM, beyond.
// With two blocks an SM has a second block's loads to run while one block waits at its barrier
// (--block-threads 1024 takes one block of 1024 at any N, to measure that). A block loads each group
// of rows when it needs it: the SM's other warps run their loads meanwhile. Keeping the next group's
// loads in flight too (kPrefetch, --prefetch on) was measured slower on the H100, where the choice was
// made; the README's table of these ideas shows what it does on the GPU it was last run on. v waits in shared memory, C's shares in registers; each block writes one partial
// C and sum_partials adds them.
#pragma once

#include "05_coalesced_warps.cuh"
#include "matvec_device.cuh"

namespace block_rows {

constexpr int kValuesPerThread = 16;  // E elements of each of R = 16 / E rows
constexpr std::size_t kMaxColumns = matvec::kBlockRowColumns;
static_assert(kMaxColumns == 1024 * kValuesPerThread);
constexpr std::size_t kHalfBlockColumns = 512 * kValuesPerThread;  // up to here, blocks of 512

template <int T, int E, int R>
__device__ inline void load_row_group(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                      float (&x)[R][E]) {
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int k = 0; k < E; ++k) {
      const std::size_t j = threadIdx.x + static_cast<std::size_t>(k) * T;
      x[r][k] = first_row + r < rows && j < columns ? a[(first_row + r) * columns + j] : 0.0f;
    }
}

template <int E, int T, bool kPrefetch>
__device__ inline void block_rows_body(const float* a, const float* v, float* partial, std::size_t rows,
                                       std::size_t columns) {
  constexpr int R = kValuesPerThread / E;
  extern __shared__ float v_shared[];
  __shared__ float4 warp_sums[2][R][T / 32 / 4];  // the warps' sums, 4 to a float4
  for (std::size_t j = threadIdx.x; j < columns; j += T) v_shared[j] = v[j];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float c_share[E] = {}, group[R][E] = {}, next[R][E] = {};
  std::size_t first = blockIdx.x * static_cast<std::size_t>(R);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * R;
  if (kPrefetch && first < rows) load_row_group<T>(a, first, rows, columns, group);
  __syncthreads();  // v_shared is loaded
  for (int parity = 0; first < rows; first += stride, parity ^= 1) {
    if constexpr (kPrefetch) {
      if (first + stride < rows) load_row_group<T>(a, first + stride, rows, columns, next);  // in flight meanwhile
    } else {
      load_row_group<T>(a, first, rows, columns, group);  // needed at once: the block waits for it
    }
    float dot[R] = {};
#pragma unroll
    for (int k = 0; k < E; ++k) {
      const std::size_t j = threadIdx.x + static_cast<std::size_t>(k) * T;
      const float v_j = j < columns ? v_shared[j] : 0.0f;  // one load of v for R rows
#pragma unroll
      for (int r = 0; r < R; ++r) dot[r] += group[r][k] * v_j;
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      dot[r] = matvec::warp_sum(dot[r]);
      if (lane == 0) reinterpret_cast<float*>(warp_sums[parity][r])[warp] = dot[r];
    }
    __syncthreads();  // the slots of the other parity are rewritten only after the next barrier
#pragma unroll
    for (int r = 0; r < R; ++r) {
      float b_r = 0.0f;
#pragma unroll
      for (int q = 0; q < T / 32 / 4; ++q) {
        const float4 s = warp_sums[parity][r][q];
        b_r += (s.x + s.y) + (s.z + s.w);
      }
#pragma unroll
      for (int k = 0; k < E; ++k) c_share[k] += b_r * group[r][k];
    }
    if constexpr (kPrefetch) {
#pragma unroll
      for (int r = 0; r < R; ++r)
#pragma unroll
        for (int k = 0; k < E; ++k) group[r][k] = next[r][k];
    }
  }
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = threadIdx.x + static_cast<std::size_t>(k) * T;
    if (j < columns) partial[blockIdx.x * columns + j] = c_share[k];
  }
}

// The kernel is its body alone (step 10b runs the same body and then finishes C).
template <int E, int T, bool kPrefetch>
__global__ void __launch_bounds__(T, 1024 / T)
    fused_block_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns) {
  block_rows_body<E, T, kPrefetch>(a, v, partial, rows, columns);
}

// Threads per block for rows of `columns` elements.
inline int threads_for(std::size_t columns) { return columns <= kHalfBlockColumns ? 512 : 1024; }

// The kernel for rows of `columns` elements in blocks of T threads: E = columns / T, rounded up to a
// power of 2 of at least 4.
template <int T, bool kPrefetch>
const void* kernel_of_length(std::size_t columns) {
  switch (matvec::values_per_thread(columns, T)) {  // 1, 2, 4, 8 or 16
    case 1:
    case 2:
    case 4: return reinterpret_cast<const void*>(fused_block_rows<4, T, kPrefetch>);
    case 8: return reinterpret_cast<const void*>(fused_block_rows<8, T, kPrefetch>);
    default: return reinterpret_cast<const void*>(fused_block_rows<16, T, kPrefetch>);
  }
}

inline const void* kernel_for(std::size_t columns, int threads, bool prefetch) {
  if (threads == 1024) return prefetch ? kernel_of_length<1024, true>(columns) : kernel_of_length<1024, false>(columns);
  return prefetch ? kernel_of_length<512, true>(columns) : kernel_of_length<512, false>(columns);
}

// Checks that the kernel may hold v (`columns` floats) in shared memory on this device.
inline void require_shared_vector(std::size_t columns, int threads, bool prefetch, const course::DeviceFacts& device) {
  course::require_shared_memory(kernel_for(columns, threads, prefetch), columns * sizeof(float), device,
                                "step 07 (v in shared memory)");
}

// One partial C per block into `partial` (blocks x columns floats), in blocks of `threads` (512 for
// rows of at most kHalfBlockColumns, or 1024).
inline void launch(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns, int blocks,
                   int threads, bool prefetch, cudaStream_t stream) {
  void* arguments[] = {&a, &v, &partial, &rows, &columns};
  CUDA_CHECK(cudaLaunchKernel(kernel_for(columns, threads, prefetch), dim3(blocks), dim3(threads), arguments,
                              columns * sizeof(float), stream));
}

}  // namespace block_rows
