// Lesson 05, step 08, rows of 16384 < N <= 65536 columns: a group of blocks holds a row.
//
// A row is too long for one block, but not for a few. So a group of S = N / 8192 blocks (rounded up)
// holds each of its rows, 16 values per thread of 512, in registers, and the S blocks work out B_i
// together. For each row:
//
//   1. every thread multiplies its 16 values by v's, the warps' sums meet in shared memory, and warp 0
//      posts the block's part of B_i to global memory, one 64-bit word (matvec::PartWord);
//   2. warp 0 waits until all S parts of the row are posted and adds them up in block order, so every
//      block of the group gets the same B_i, bit for bit; a barrier hands it to the other warps;
//   3. every thread applies B_i to its 16 values.
//
// Only the S blocks that share a row wait for each other, never the whole grid, and while they wait,
// each thread's loads of its next row are in flight: they are issued before the block posts.
//
// A block that waits for another must know that the other runs too, or the wait never ends. Two
// launches promise it, for the same kernel. A cooperative launch (Launch::kCooperative) puts every
// block of the grid on the GPU at once, so the grid can be no larger than what fits: on an H100 or an
// H200, one block per SM, 16 groups of 8. A cluster launch (Launch::kCluster, compute capability 9.0 and newer)
// starts the S blocks of each cluster together, on the SMs of one GPC (a group of SMs on the chip),
// and the grid may be any size; but a GPC must have S free SMs, and at S = 8 the GPCs of an H100 or an H200 hold 15
// clusters at once, 120 SMs. Groups take rows i, i + groups, ...; each writes one partial C, and
// sum_partials adds them.
//
// The cost: a post, a wait and two barriers per row, with the parts' trip through the L2 cache in
// the middle of every row (step 09 hides it), and a grid that must fit on the GPU (or a GPU with
// clusters). The host side below (the plan and the launch) serves step 09's kernels too.
#pragma once

#include "05_coalesced_warps.cuh"
#include "07_fused_single_pass.cuh"
#include "matvec_device.cuh"

namespace group_rows {

using matvec::LaunchPlan;
using matvec::PartWord;
using matvec::RowLayout;

constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;
constexpr int kChunks = 4;     // of 4 values (16 bytes): 16 values of the row per thread
constexpr int kMaxBlocks = 8;  // the largest cluster every GPU with clusters accepts
constexpr std::size_t kColumnsPerBlock = static_cast<std::size_t>(kThreads) * kChunks * 4;
constexpr std::size_t kMaxColumns = matvec::kGroupRowColumns;
static_assert(kColumnsPerBlock == matvec::kGroupBlockColumns && kMaxColumns == kMaxBlocks * kColumnsPerBlock);

// First column of this thread's chunk k in block `rank` of a group: block r holds columns 8192 r to
// 8192 r + 8191, chunk k of its threads the 2048 columns from 8192 r + 2048 k on. Each warp reads 512
// contiguous bytes and each block one run of 32 KB of the row (step 09 copies that run in one piece).
__device__ inline std::size_t chunk_column(int k, unsigned rank) {
  return 4 * ((static_cast<std::size_t>(rank) * kChunks + k) * kThreads + threadIdx.x);
}

// This thread's 16 values of `row` (v, or a row of A), zero past the row's end: 16-byte loads where
// rows start on 16-byte boundaries (by_16), else 4-byte ones.
__device__ inline void load_chunks(const float* row, std::size_t columns, unsigned rank, bool by_16,
                                   float4 (&x)[kChunks]) {
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const std::size_t j = chunk_column(k, rank);
    if (by_16) {
      x[k] = j < columns ? *reinterpret_cast<const float4*>(row + j) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    } else {
      float* e = reinterpret_cast<float*>(&x[k]);
#pragma unroll
      for (int q = 0; q < 4; ++q) e[q] = j + q < columns ? row[j + q] : 0.0f;
    }
  }
}

__device__ inline float dot_chunks(const float4 (&x)[kChunks], const float4 (&y)[kChunks]) {
  float dot = 0.0f;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) dot += x[k].x * y[k].x + x[k].y * y[k].y + x[k].z * y[k].z + x[k].w * y[k].w;
  return dot;
}

// This thread's 16 values of its group's partial C (`partial_c`), each column once, none past the end.
__device__ inline void store_chunks(float* partial_c, std::size_t columns, unsigned rank,
                                    const float4 (&c_chunks)[kChunks]) {
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const std::size_t j = chunk_column(k, rank);
    const float* e = reinterpret_cast<const float*>(&c_chunks[k]);
    for (int q = 0; q < 4; ++q)
      if (j + q < columns) partial_c[j + q] = e[q];
  }
}

// Step 2, by one warp: B_i from the S parts of row i (`row_parts`), once all are posted. Lane q < S
// watches block q's word, starting from `word`, the value it last loaded; the other lanes have nothing
// to wait for. Polls sparingly: the blocks' loads of A need the same L2 cache.
template <int S>
__device__ inline float gather_parts(const PartWord* row_parts, PartWord word) {
  const unsigned lane = threadIdx.x % 32;
  if (lane >= S) word = 1ull << 32;
  for (unsigned pause = 32; !__all_sync(0xffffffffu, word >> 32 != 0); pause = min(2 * pause, 512u)) {
    __nanosleep(pause);
    if (word >> 32 == 0) word = matvec::load_part(row_parts + lane);
  }
  float b = 0.0f;
#pragma unroll
  for (int q = 0; q < S; ++q) b += __shfl_sync(0xffffffffu, __uint_as_float(static_cast<unsigned>(word)), q);
  return b;
}

// Groups of S neighbouring blocks of the grid: block b is block b % S of group b / S (a cluster launch
// of size S makes the same groups clusters). parts[i * S + rank]: block rank's part of B_i, posted
// with the number 1 (the scratch is zeroed before each launch).
template <int S>
__global__ void __launch_bounds__(kThreads, 1)
    fused_group_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns,
                     PartWord* parts) {
  __shared__ float warp_sums[kWarps];
  __shared__ float b_shared;
  const unsigned rank = blockIdx.x % S, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t group = blockIdx.x / S, groups = gridDim.x / S;
  const bool by_16 = columns % 4 == 0 && reinterpret_cast<std::uintptr_t>(a) % 16 == 0;
  float4 v_chunks[kChunks], c_chunks[kChunks] = {}, x[kChunks], next[kChunks];
  load_chunks(v, columns, rank, false, v_chunks);
  if (group < rows) load_chunks(a + group * columns, columns, rank, by_16, next);
  for (std::size_t i = group; i < rows; i += groups) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) x[k] = next[k];
    if (i + groups < rows) load_chunks(a + (i + groups) * columns, columns, rank, by_16, next);  // in flight
    const float dot = matvec::warp_sum(dot_chunks(x, v_chunks));  // step 1
    if (lane == 0) warp_sums[warp] = dot;
    __syncthreads();
    if (warp == 0) {
      const float part = matvec::warp_sum(lane < kWarps ? warp_sums[lane] : 0.0f);
      if (lane == 0) matvec::store_part(&parts[i * S + rank], matvec::make_part(1, part));
      const PartWord* row_parts = parts + i * S;  // step 2
      const float b = gather_parts<S>(row_parts, lane < S ? matvec::load_part(row_parts + lane) : 0);
      if (lane == 0) b_shared = b;
    }
    // Past this barrier warp_sums and b_shared are written again only after the next row's first
    // barrier, which no thread passes before it has read them here.
    __syncthreads();
    const float b = b_shared;  // step 3
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      c_chunks[k].x += b * x[k].x;
      c_chunks[k].y += b * x[k].y;
      c_chunks[k].z += b * x[k].z;
      c_chunks[k].w += b * x[k].w;
    }
  }
  store_chunks(partial + group * columns, columns, rank, c_chunks);
}

// Blocks per group for rows of `columns` elements: 1 to kMaxBlocks (the most, for longer rows, which
// no group holds).
inline int group_blocks(std::size_t columns) {
  return static_cast<int>(matvec::smaller((columns + kColumnsPerBlock - 1) / kColumnsPerBlock, kMaxBlocks));
}

// A group kernel as the host sees it: the kernel for groups of one size, its dynamic shared memory
// (step 09's kernels take some; this step's none) and the rows its blocks post ahead (step 09's
// kernels take them as a seventh argument; this step's kernels take six and never read it).
struct Kernel {
  const void* function;
  std::size_t shared_bytes;
  int ahead = 0;
};

// This step's kernel for rows of `columns` elements.
inline Kernel plain_kernel(std::size_t columns) {
  const void* const kernels[] = {
      reinterpret_cast<const void*>(fused_group_rows<1>), reinterpret_cast<const void*>(fused_group_rows<2>),
      reinterpret_cast<const void*>(fused_group_rows<3>), reinterpret_cast<const void*>(fused_group_rows<4>),
      reinterpret_cast<const void*>(fused_group_rows<5>), reinterpret_cast<const void*>(fused_group_rows<6>),
      reinterpret_cast<const void*>(fused_group_rows<7>), reinterpret_cast<const void*>(fused_group_rows<8>)};
  return {kernels[group_blocks(columns) - 1], 0};
}

// What makes the blocks of a group run at the same time (see the top of this file).
enum class Launch { kCooperative, kCluster };

inline Launch launch_of(RowLayout layout) {
  return layout == RowLayout::kCluster ? Launch::kCluster : Launch::kCooperative;
}

// A launch of `blocks` blocks for rows of `columns` elements, its one attribute pointing into
// `attribute`.
inline cudaLaunchConfig_t launch_config(std::size_t columns, int blocks, Launch how, const Kernel& kernel,
                                        cudaLaunchAttribute& attribute, cudaStream_t stream) {
  attribute = {};
  if (how == Launch::kCooperative) {
    attribute.id = cudaLaunchAttributeCooperative;
    attribute.val.cooperative = 1;
  } else {
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(group_blocks(columns));
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = kernel.shared_bytes;
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// How many groups for rows of `columns` elements the device runs at once with `kernel`, launched
// `how` (0: none fit). Sets the kernel's shared-memory limit. The caller checks that the device has
// cooperative launches or clusters.
inline int resident_groups(std::size_t columns, Launch how, const Kernel& kernel, const course::DeviceFacts& device) {
  const int size = group_blocks(columns);
  course::require_shared_memory(kernel.function, kernel.shared_bytes, device, "a group of blocks per row");
  if (how == Launch::kCooperative)
    return course::resident_blocks(kernel.function, kThreads, kernel.shared_bytes, device) / size;
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = launch_config(columns, size, how, kernel, attribute, nullptr);
  int clusters = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel.function, &config));
  return clusters;
}

inline bool has_clusters(const course::DeviceFacts& device) { return device.compute_major >= 9; }

// The group layout that runs rows of `columns` elements with `kernel` here: cooperative where its
// groups fit, else clusters; kAuto where neither runs.
inline RowLayout runnable_layout(std::size_t columns, const Kernel& kernel, const course::DeviceFacts& device) {
  if (device.cooperative_launch && resident_groups(columns, Launch::kCooperative, kernel, device) > 0)
    return RowLayout::kGroup;
  if (has_clusters(device) && resident_groups(columns, Launch::kCluster, kernel, device) > 0)
    return RowLayout::kCluster;
  return RowLayout::kAuto;
}

// --layout group or cluster must run on this GPU, or the step is skipped.
inline void require_runs(RowLayout layout, std::size_t columns, const Kernel& kernel,
                         const course::DeviceFacts& device) {
  if (layout == RowLayout::kGroup && !device.cooperative_launch)
    throw course::NotSupportedError(device.name + " does not support cooperative launches, which --layout group needs");
  if (layout == RowLayout::kCluster && !has_clusters(device))
    throw course::NotSupportedError(device.name + " has no thread-block clusters (compute capability 9.0 and newer)");
  if (resident_groups(columns, launch_of(layout), kernel, device) == 0)
    throw course::NotSupportedError(device.name + " cannot run a group of " + std::to_string(group_blocks(columns)) +
                                    " blocks of " + std::to_string(kThreads) + " threads at once");
}

// The scratch: the parts of B (a word per row and block) and one partial C per group.
inline std::size_t parts_bytes(std::size_t rows, std::size_t columns) {
  return rows * static_cast<std::size_t>(group_blocks(columns)) * sizeof(PartWord);
}

// A group of blocks per row (layout kGroup or kCluster): as many groups as fit at once, or --blocks
// rounded up to whole groups (launched cooperatively, no more than fit).
inline LaunchPlan group_plan(std::size_t rows, std::size_t columns, RowLayout layout, const Kernel& kernel,
                             const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.layout = layout;
  p.threads = kThreads;
  const int size = group_blocks(columns);
  const long long whole_groups = (requested.blocks + size - 1LL) / size * size;
  if (whole_groups > 2147483647LL)
    throw course::UsageError("--blocks " + std::to_string(requested.blocks) + ": more than 2^31 - 1 blocks in " +
                             "whole groups of " + std::to_string(size));
  p.blocks = requested.blocks > 0 ? static_cast<int>(whole_groups)
                                  : resident_groups(columns, launch_of(layout), kernel, device) * size;
  if (layout == RowLayout::kGroup)
    p.blocks = course::cooperative_grid_blocks(kernel.function, p.threads, kernel.shared_bytes, p.blocks, device);
  p.scratch_bytes = parts_bytes(rows, columns) + static_cast<std::size_t>(p.blocks / size) * columns * sizeof(float);
  return p;
}

// Steps 08 and 09's plan, by the row's length or --layout: rows a block holds go to step 07's warp or
// block layout, rows of up to 65536 columns to a group of blocks running `kernel`, and the rest (or
// all where no group runs here) to step 06's two passes.
inline LaunchPlan plan_by_length(std::size_t rows, std::size_t columns, const Kernel& kernel,
                                 const course::DeviceFacts& device, const LaunchPlan& requested) {
  RowLayout layout = requested.layout;
  if (layout == RowLayout::kGroup || layout == RowLayout::kCluster) require_runs(layout, columns, kernel, device);
  if (layout == RowLayout::kAuto) layout = fused_rows::short_row_layout(columns);
  if (layout == RowLayout::kAuto && columns <= kMaxColumns) layout = runnable_layout(columns, kernel, device);
  if (layout == RowLayout::kAuto) return fused_rows::two_passes(rows, columns, device);
  if (layout == RowLayout::kWarp || layout == RowLayout::kBlock)
    return fused_rows::warp_or_block_plan(columns, layout, device, requested);
  return group_plan(rows, columns, layout, kernel, device, requested);
}

// C = A^T (A v) by groups of blocks running `kernel(a, v, partial, rows, columns, parts)`, as planned
// by group_plan(); `scratch` holds its scratch_bytes.
inline void launch(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                   const LaunchPlan& p, const Kernel& kernel, void* scratch, cudaStream_t stream) {
  PartWord* parts = static_cast<PartWord*>(scratch);
  float* partial = reinterpret_cast<float*>(static_cast<char*>(scratch) + parts_bytes(rows, columns));
  CUDA_CHECK(cudaMemsetAsync(parts, 0, parts_bytes(rows, columns), stream));  // nothing posted yet
  int ahead = kernel.ahead;
  void* arguments[] = {&a, &v, &partial, &rows, &columns, &parts, &ahead};
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = launch_config(columns, p.blocks, launch_of(p.layout), kernel, attribute, stream);
  CUDA_CHECK(cudaLaunchKernelExC(&config, kernel.function, arguments));
  matvec::launch_sum_partials(partial, p.blocks / group_blocks(columns), columns, c, stream);
}

// Steps 08 and 09's launcher for any plan of plan_by_length().
inline void run_by_plan(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                        const LaunchPlan& p, const Kernel& kernel, void* scratch, cudaStream_t stream) {
  if (p.parts > 0)  // two passes
    vector_loads::launch_two_passes(a, v, c, rows, columns, p, scratch, stream);
  else if (p.layout == RowLayout::kWarp || p.layout == RowLayout::kBlock)
    fused_rows::launch_warp_or_block(a, v, c, rows, columns, p, scratch, stream);
  else
    launch(a, v, c, rows, columns, p, kernel, scratch, stream);
}

}  // namespace group_rows
