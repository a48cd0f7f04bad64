// Lesson 05, step 07's plan and launcher for its two layouts, a warp or a block per row (steps 08 to
// 10 run them too, for the rows a block can hold), and its fallback, step 06's two passes.
#pragma once

#include "matvec.h"
#include "04_shared_vector_tiles.cuh"
#include "06_vector_loads_registers.cuh"
#include "07_fused_block_rows.cuh"
#include "07_fused_warp_rows_ways.cuh"

namespace fused_rows {

using matvec::LaunchPlan;
using matvec::RowLayout;

// The narrower of the two layouts that holds rows of `columns` elements; kAuto where neither does.
inline RowLayout short_row_layout(std::size_t columns) {
  if (columns <= warp_rows::kMaxColumns) return RowLayout::kWarp;
  if (columns <= block_rows::kMaxColumns) return RowLayout::kBlock;
  return RowLayout::kAuto;
}

// Step 06's two passes, as step 06 runs them.
inline LaunchPlan two_passes(std::size_t rows, std::size_t columns, const course::DeviceFacts& device) {
  return vector_loads::plan_two_passes(rows, columns, 256, vector_loads::kRowsAtATime, false, device);
}

// A warp (layout kWarp) or a block (kBlock) per row: as many blocks as fit at once (or --blocks), and
// the ways --prefetch, --block-threads and --warp-e32 ask for.
inline LaunchPlan warp_or_block_plan(std::size_t columns, RowLayout layout, const course::DeviceFacts& device,
                                     const LaunchPlan& requested) {
  LaunchPlan p;
  p.layout = layout;
  if (layout == RowLayout::kWarp) {
    p.threads = warp_rows::kThreads;
    p.prefetch = requested.prefetch_request >= 0;  // on unless asked not to
    p.warp_e32 = requested.warp_e32;
    p.blocks = requested.blocks > 0
                   ? requested.blocks
                   : course::resident_blocks(warp_rows::kernel_for(columns, p.prefetch, p.warp_e32), p.threads, 0,
                                             device);
  } else {
    p.threads = requested.block_threads != 0 ? requested.block_threads : block_rows::threads_for(columns);
    p.prefetch = requested.prefetch_request > 0;  // off unless asked for
    block_rows::require_shared_vector(columns, p.threads, p.prefetch, device);
    p.blocks = requested.blocks > 0 ? requested.blocks : device.multiprocessors * (1024 / p.threads);
  }
  p.scratch_bytes = static_cast<std::size_t>(p.blocks) * columns * sizeof(float);  // one partial C per block
  return p;
}

// C = A^T (A v) by a warp or a block per row: each block writes one partial C into `scratch`, and
// sum_partials adds them.
inline void launch_warp_or_block(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                                 const LaunchPlan& p, void* scratch, cudaStream_t stream) {
  float* partial = static_cast<float*>(scratch);
  if (p.layout == RowLayout::kWarp)
    warp_rows::launch(a, v, partial, rows, columns, p.blocks, p.prefetch, p.warp_e32, stream);
  else
    block_rows::launch(a, v, partial, rows, columns, p.blocks, p.threads, p.prefetch, stream);
  matvec::launch_sum_partials(partial, p.blocks, columns, c, stream);
}

}  // namespace fused_rows
