// Lesson 05, step 10b: the fused kernels of steps 07 and 09 finishing C themselves, in one launch.
//
// Steps 07 to 10 end every layout but the wide one with two launches: the fused kernel writes one
// partial C per block (or group of blocks), and step 04's sum_partials adds them. The second launch
// reads little, but the GPU drains the first grid, starts the second and drains it again, with every
// SM idle in between. Here the fused kernel does both: after its rows, each block writes its partial C
// as before, then the whole grid meets at one barrier (cooperative_groups' grid.sync(), which needs
// every block resident at once: a cooperative launch, which the group layout already has and the warp
// and block layouts now take too), and then the same blocks add the partial C's, each a run of 32
// columns at a time, with add_partials (04_shared_vector_tiles.cuh): warp w of a block adds parts w,
// w + warps, ... and the warps' sums meet in shared memory in warp order, so every C_j is the sum of the
// same partials in the same order from run to run (as in sum_partials, with this kernel's warps).
//
// The bodies are steps 07 and 09's, unchanged (warp_rows_body, warp_rows_ways_body, block_rows_body,
// ahead_rows::group_rows_ahead); each kernel below is a body, the barrier and the sum. Variants kept
// only to measure step 07's ideas (--prefetch against the step's choice, --warp-e32 ways other than
// whole lines), the cluster launch (no grid barrier) and the two passes finish with sum_partials, as
// before; the wide layout writes C directly already.
#pragma once

#include <cooperative_groups.h>

#include "04_shared_vector_tiles.cuh"
#include "07_fused_block_rows.cuh"
#include "07_fused_warp_rows_ways.cuh"
#include "09_rows_posted_ahead.cuh"
#include "10_wide_rows.cuh"

namespace one_launch {

using matvec::LaunchPlan;
using matvec::PartWord;
using matvec::RowLayout;

// After every block of the grid has written its partial C (`parts` of them, `columns` floats each):
// C = their sum, by blocks of T threads, in a fixed order.
template <int T>
__device__ inline void finish_c(const float* partial, int parts, std::size_t columns, float* c) {
  cooperative_groups::this_grid().sync();  // every partial C is written, and visible to every block
  matvec::add_partials<T>(partial, parts, columns, c);
}

// A warp per row (E values a lane; E = 32: the whole-lines way), then C.
template <int E>
__global__ void __launch_bounds__(warp_rows::kThreads, 2)
    finished_warp_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns,
                       float* c) {
  if constexpr (E == 32)
    warp_rows::warp_rows_ways_body<E, true, warp_rows::kWholeLines>(a, v, partial, rows, columns);
  else
    warp_rows::warp_rows_body<E>(a, v, partial, rows, columns);
  finish_c<warp_rows::kThreads>(partial, gridDim.x, columns, c);
}

// A block of T threads per group of rows (E values of each a thread), then C.
template <int E, int T>
__global__ void __launch_bounds__(T, 1024 / T)
    finished_block_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns,
                        float* c) {
  block_rows::block_rows_body<E, T, false>(a, v, partial, rows, columns);
  finish_c<T>(partial, gridDim.x, columns, c);
}

// A group of S blocks per row, posting ahead through kStages stages (step 09), then C: one partial C
// per group.
template <int S, bool kBulk, int kStages>
__global__ void __launch_bounds__(group_rows::kThreads, 1)
    finished_group_rows(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns,
                        PartWord* parts, int ahead, float* c) {
  ahead_rows::group_rows_ahead<S, kBulk, kStages>(a, v, partial, rows, columns, parts, ahead);
  finish_c<group_rows::kThreads>(partial, gridDim.x / S, columns, c);
}

template <int S, bool kBulk, int kStages>
struct FinishedGroupKernel {
  static const void* function() { return reinterpret_cast<const void*>(finished_group_rows<S, kBulk, kStages>); }
};

// The kernel that finishes C for plan `p`, with its dynamic shared memory; nullptr where the plan's
// layout or variant finishes with sum_partials (or writes C directly).
inline const void* kernel_of(std::size_t columns, const LaunchPlan& p, std::size_t& shared_bytes) {
  shared_bytes = 0;
  if (p.parts > 0) return nullptr;  // two passes
  if (p.layout == RowLayout::kWarp && p.prefetch && p.warp_e32 == warp_rows::kWholeLines) {
    switch (matvec::values_per_thread(columns, 32)) {
      case 1: return reinterpret_cast<const void*>(finished_warp_rows<1>);
      case 2: return reinterpret_cast<const void*>(finished_warp_rows<2>);
      case 4: return reinterpret_cast<const void*>(finished_warp_rows<4>);
      case 8: return reinterpret_cast<const void*>(finished_warp_rows<8>);
      case 16: return reinterpret_cast<const void*>(finished_warp_rows<16>);
      default: return reinterpret_cast<const void*>(finished_warp_rows<32>);
    }
  }
  if (p.layout == RowLayout::kBlock && !p.prefetch) {
    shared_bytes = columns * sizeof(float);  // v
    const int e = std::max(4, matvec::values_per_thread(columns, static_cast<std::size_t>(p.threads)));
    if (p.threads == 512)
      return e == 4 ? reinterpret_cast<const void*>(finished_block_rows<4, 512>)
                    : e == 8 ? reinterpret_cast<const void*>(finished_block_rows<8, 512>)
                             : reinterpret_cast<const void*>(finished_block_rows<16, 512>);
    return e == 4 ? reinterpret_cast<const void*>(finished_block_rows<4, 1024>)
                  : e == 8 ? reinterpret_cast<const void*>(finished_block_rows<8, 1024>)
                           : reinterpret_cast<const void*>(finished_block_rows<16, 1024>);
  }
  if (p.layout == RowLayout::kGroup) {
    const group_rows::Kernel k =
        ahead_rows::kernel_for<FinishedGroupKernel>(columns, p.bulk_copies, p.rows_ahead, p.stages);
    shared_bytes = k.shared_bytes;
    return k.function;
  }
  return nullptr;
}

// Step 10's plan, then, where a kernel here finishes C: that kernel's grid, every block resident at
// once (as many as fit, no more than step 10's plan took, in whole groups), or --blocks if they fit.
inline LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                       const LaunchPlan& requested) {
  LaunchPlan p = wide_rows::plan_by_length(rows, columns, device, requested);
  std::size_t shared_bytes = 0;
  const void* kernel = kernel_of(columns, p, shared_bytes);
  if (kernel == nullptr || !device.cooperative_launch) return p;
  course::require_shared_memory(kernel, shared_bytes, device, "step 10b");
  const int size = p.layout == RowLayout::kGroup ? group_rows::group_blocks(columns) : 1;
  const int fits =
      course::cooperative_grid_blocks(kernel, p.threads, shared_bytes, requested.blocks > 0 ? p.blocks : 0, device);
  const int blocks = std::min(p.blocks, fits) / size * size;
  if (blocks == 0) return p;  // not one group fits with the sum: finish as step 10 does
  p.blocks = blocks;          // the scratch step 10's plan sized for its grid holds this one's
  p.finish_in_launch = true;
  return p;
}

// C = A^T (A v) as planned: one cooperative launch where the plan says so, else as step 10.
inline void run_by_plan(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                        const LaunchPlan& p, void* scratch, cudaStream_t stream) {
  if (!p.finish_in_launch) return wide_rows::run_by_plan(a, v, c, rows, columns, p, scratch, stream);
  std::size_t shared_bytes = 0;
  const void* kernel = kernel_of(columns, p, shared_bytes);
  if (p.layout != RowLayout::kGroup) {
    float* partial = static_cast<float*>(scratch);  // one partial C per block
    void* arguments[] = {&a, &v, &partial, &rows, &columns, &c};
    CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(p.blocks), dim3(p.threads), arguments, shared_bytes, stream));
    return;
  }
  PartWord* parts = static_cast<PartWord*>(scratch);  // then one partial C per group
  float* partial = reinterpret_cast<float*>(static_cast<char*>(scratch) + group_rows::parts_bytes(rows, columns));
  CUDA_CHECK(cudaMemsetAsync(parts, 0, group_rows::parts_bytes(rows, columns), stream));  // nothing posted yet
  int ahead = p.rows_ahead;
  void* arguments[] = {&a, &v, &partial, &rows, &columns, &parts, &ahead, &c};
  CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(p.blocks), dim3(p.threads), arguments, shared_bytes, stream));
}

}  // namespace one_launch
