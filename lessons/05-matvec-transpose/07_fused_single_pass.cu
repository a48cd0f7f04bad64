// Lesson 05, step 07: a fused single pass that reads A once.
//
// What changed: both products in one kernel. Whoever loads a piece of row i keeps it on the chip
// until B_i = row_i . v is known, then adds B_i times that piece to its share of C. A is read from
// memory once; v, B and the running shares of C stay on the chip. B_i needs the whole row, so who
// holds a row depends on its length N. Each layout is a header of its own:
//
//   N <= 1024            a warp per row, in registers; shuffles give B_i to every lane, no barrier.
//                        07_fused_warp_rows.cuh
//   1024 < N <= 16384    a block per group of rows, in registers; one block barrier per 16 values
//                        per thread. 07_fused_block_rows.cuh
//   16384 < N <= 65536   a group of up to 8 blocks per row, in shared memory; the blocks post their
//                        parts of B_i to global memory and wait only for each other, one block
//                        barrier per row. 07_fused_group_rows.cuh (a cooperative launch; --layout
//                        cluster launches the same groups as clusters, compute capability 9.0+)
//   N > 65536            every block a slice of every row, in shared memory; the blocks exchange their
//                        parts of B_i through global memory, a wait for the whole grid per group of
//                        rows. 07_fused_wide_rows.cuh (a cooperative launch)
//
// The narrower layouts wait less: a warp never, a block at its barrier, a group for its few blocks,
// the wide layout for every block. So each row goes to the narrowest that can hold it; --layout picks
// one by hand, on any N it can hold, to compare them (the runner's "step 07's layouts" table). The
// group and wide layouts keep rows in shared memory; on Hopper, rows that start on 16-byte boundaries
// get there through the bulk copy engine (07_bulk_copy.cuh), one instruction per row and block (in
// the wide layout only where a thread holds 8 or 16 values of each row); --no-bulk-copy makes every
// thread copy its own values instead, to measure what the engine gives (the runner's table "step 07
// with and without the bulk copy engine"). A group's blocks post their parts of 3 rows ahead of the
// row they wait for; --rows-ahead 1 posts only the next one's (the runner's table "step 07's group
// layout posting 1 or 3 rows ahead"). A warp keeps its next row's loads in flight while it works on
// a row; a block does not, as its SM has other warps' loads to run meanwhile (--prefetch on|off
// switches either); and rows of at most 8192 columns go to blocks of 512 threads, two per SM
// (--block-threads 1024 takes one block of 1024); a warp reads rows of 513 to 1024 columns by whole
// lines, with v and C in shared memory (--warp-e32 first-element or registers goes back to reading
// from each row's first element, with v and C in shared memory or in registers): the runner's table
// "step 07's warp and block layouts, ideas one at a time".
//
// Why it is faster (1.96x over step 06 in the ladder): A is read once instead of twice.
//
// What it costs: four layouts instead of one kernel, and a second small kernel (sum_partials) that adds
// the blocks' or groups' partial C (in the warp layout each block first adds its warps' shares in
// shared memory), except in the wide layout, where each column has one owner. The step falls back to
// step 06's two passes, which read A twice, where the wide layout cannot run: on a GPU without
// cooperative launches, for rows of more than 16 values per thread of the grid (8192 per block:
// 1,081,344 columns on 132 SMs; the shapes table's 64 x 4,194,304), and for grids of more than 256
// blocks.
//
// Launch: chosen by N (the layouts above) or --layout; --threads is ignored, --blocks sets the grid
// (rounded up to whole groups), --no-bulk-copy turns the bulk copy engine off, --rows-ahead 1 posts
// one row ahead in a group of blocks, --prefetch, --block-threads and --warp-e32 as above.
#include "matvec.h"
#include "04_shared_vector_tiles.cuh"
#include "05_coalesced_warps.cuh"
#include "06_vector_loads_registers.cuh"
#include "07_fused_block_rows.cuh"
#include "07_fused_group_rows.cuh"
#include "07_fused_warp_rows.cuh"
#include "07_fused_wide_rows.cuh"

namespace {

using matvec::LaunchPlan;
using matvec::RowLayout;

bool has_clusters(const course::DeviceFacts& device) { return device.compute_major >= 9; }

// How the blocks of a group are started together: cooperatively, or (--layout cluster) as clusters.
group_rows::Launch group_launch(RowLayout layout) {
  return layout == RowLayout::kCluster ? group_rows::Launch::kCluster : group_rows::Launch::kCooperative;
}

// The narrowest layout that holds rows of `columns` elements on this device. A group's blocks go
// wherever there is room in a cooperative launch; as a cluster, only within one GPC, so fewer fit.
RowLayout layout_by_length(std::size_t columns, const course::DeviceFacts& device) {
  if (columns <= warp_rows::kMaxColumns) return RowLayout::kWarp;
  if (columns <= block_rows::kMaxColumns) return RowLayout::kBlock;
  if (columns <= group_rows::kMaxColumns) {
    const bool bulk = group_rows::use_bulk_copies(columns, device);
    if (device.cooperative_launch &&
        group_rows::resident_groups(columns, group_rows::Launch::kCooperative, bulk, device) > 0)
      return RowLayout::kGroup;
    if (has_clusters(device) && group_rows::resident_groups(columns, group_rows::Launch::kCluster, bulk, device) > 0)
      return RowLayout::kCluster;
  }
  return RowLayout::kWide;
}

// A layout asked for with --layout must hold the rows (one line otherwise) and run on this GPU (or
// the step is skipped).
void require_runs(RowLayout layout, std::size_t columns, const course::DeviceFacts& device) {
  matvec::require_layout_holds(layout, columns);
  if (layout != RowLayout::kGroup && layout != RowLayout::kCluster) return;
  if (layout == RowLayout::kGroup && !device.cooperative_launch)
    throw course::NotSupportedError(device.name + " does not support cooperative launches, which --layout group needs");
  if (layout == RowLayout::kCluster && !has_clusters(device))
    throw course::NotSupportedError(device.name + " has no thread-block clusters (compute capability 9.0 and newer)");
  const bool bulk = group_rows::use_bulk_copies(columns, device);
  if (group_rows::resident_groups(columns, group_launch(layout), bulk, device) == 0)
    throw course::NotSupportedError(device.name + " cannot run a group of " +
                                    std::to_string(group_rows::group_blocks(columns)) + " blocks of " +
                                    std::to_string(group_rows::kThreads) + " threads at once");
}

// A group of blocks per row: as many groups as fit at once (or --blocks, rounded up to whole
// groups; launched cooperatively, no more than fit).
LaunchPlan group_plan(std::size_t rows, std::size_t columns, RowLayout layout, const course::DeviceFacts& device,
                      const LaunchPlan& requested) {
  LaunchPlan p;
  p.layout = layout;
  p.threads = group_rows::kThreads;
  const int size = group_rows::group_blocks(columns);
  const long long whole_groups = (requested.blocks + size - 1LL) / size * size;
  if (whole_groups > 2147483647LL)
    throw course::UsageError("--blocks " + std::to_string(requested.blocks) + ": more than 2^31 - 1 blocks in " +
                             "whole groups of " + std::to_string(size));
  p.bulk_copies = group_rows::use_bulk_copies(columns, device) && !requested.no_bulk_copy;
  p.rows_ahead = requested.rows_ahead;
  const int resident =
      group_rows::resident_groups(columns, group_launch(layout), p.bulk_copies, device, p.rows_ahead) * size;
  p.blocks = requested.blocks > 0 ? static_cast<int>(whole_groups) : resident;
  if (layout == RowLayout::kGroup)
    p.blocks = course::cooperative_grid_blocks(group_rows::kernel_for(size, p.bulk_copies, p.rows_ahead), p.threads,
                                               group_rows::shared_bytes(p.rows_ahead), p.blocks, device);
  p.scratch_bytes = group_rows::scratch_bytes(rows, columns, p.blocks);
  return p;
}

// Step 06's two passes, as step 06 runs them.
LaunchPlan two_passes(std::size_t rows, std::size_t columns, const course::DeviceFacts& device) {
  return vector_loads::plan_two_passes(rows, columns, 256, vector_loads::kRowsAtATime, false, device);
}

// The wide layout: one block per SM (or --blocks), all resident at once. Falls back to two passes
// when it cannot run, unless it was asked for by name.
LaunchPlan wide_plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                     const LaunchPlan& requested) {
  LaunchPlan p;
  p.layout = RowLayout::kWide;
  p.threads = wide_rows::kThreads;
  p.blocks = requested.blocks > 0 ? requested.blocks : device.multiprocessors;
  const bool by_name = requested.layout == RowLayout::kWide;
  int e = wide_rows::values_per_thread(columns, p.blocks);
  if (!device.cooperative_launch && by_name)
    throw course::NotSupportedError(device.name + " does not support cooperative launches, which --layout wide needs");
  if (!device.cooperative_launch || (e > wide_rows::kMaxPerThread && !by_name)) return two_passes(rows, columns, device);
  course::require_shared_memory(wide_rows::kernel_for(e), wide_rows::kSharedBytes, device, "step 07 (wide rows)");
  p.blocks = course::cooperative_grid_blocks(wide_rows::kernel_for(e), p.threads, wide_rows::kSharedBytes, p.blocks,
                                             device);
  e = wide_rows::values_per_thread(columns, p.blocks);
  if (e > wide_rows::kMaxPerThread || p.blocks > wide_rows::kMaxBlocks) {
    if (!by_name) return two_passes(rows, columns, device);
    if (p.blocks > wide_rows::kMaxBlocks)
      throw course::UsageError("--layout wide takes at most " + std::to_string(wide_rows::kMaxBlocks) + " blocks, not " +
                               std::to_string(p.blocks));
    throw course::UsageError("--layout wide: a grid of " + std::to_string(p.blocks) + " blocks holds rows of at most " +
                             std::to_string(static_cast<std::size_t>(p.blocks) * p.threads * wide_rows::kMaxPerThread) +
                             " columns, not " + std::to_string(columns));
  }
  p.bulk_copies = !requested.no_bulk_copy;  // the kernel also checks the GPU, the alignment and the run length
  p.scratch_bytes = wide_rows::scratch_bytes(rows, p.blocks);
  return p;
}

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  if (requested.layout != RowLayout::kAuto) require_runs(requested.layout, columns, device);
  matvec::require_layout_options_apply(requested, columns);
  LaunchPlan p;
  p.layout = requested.layout != RowLayout::kAuto ? requested.layout : layout_by_length(columns, device);
  switch (p.layout) {
    case RowLayout::kWarp:
      p.threads = warp_rows::kThreads;
      p.prefetch = requested.prefetch_request >= 0;  // on unless asked not to
      p.warp_e32 = requested.warp_e32;
      p.blocks = requested.blocks > 0 ? requested.blocks
                                      : course::resident_blocks(warp_rows::kernel_for(columns, p.prefetch, p.warp_e32),
                                                                p.threads, 0, device);
      break;
    case RowLayout::kBlock:
      p.threads = requested.block_threads != 0 ? requested.block_threads : block_rows::threads_for(columns);
      p.prefetch = requested.prefetch_request > 0;  // off unless asked for
      block_rows::require_shared_vector(columns, p.threads, p.prefetch, device);
      p.blocks = requested.blocks > 0 ? requested.blocks : device.multiprocessors * (1024 / p.threads);
      break;
    case RowLayout::kGroup:
    case RowLayout::kCluster: return group_plan(rows, columns, p.layout, device, requested);
    default: return wide_plan(rows, columns, device, requested);
  }
  p.scratch_bytes = static_cast<std::size_t>(p.blocks) * columns * sizeof(float);  // one partial C per block
  return p;
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  if (p.parts > 0) {  // the wide layout could not run
    vector_loads::launch_two_passes(a, v, c, rows, columns, p, scratch, stream);
    return;
  }
  float* partial = static_cast<float*>(scratch);
  switch (p.layout) {
    case RowLayout::kWarp:
      warp_rows::launch(a, v, partial, rows, columns, p.blocks, p.prefetch, p.warp_e32, stream);
      break;
    case RowLayout::kBlock:
      block_rows::launch(a, v, partial, rows, columns, p.blocks, p.threads, p.prefetch, stream);
      break;
    case RowLayout::kGroup:
    case RowLayout::kCluster:
      group_rows::launch(a, v, c, rows, columns, p.blocks, group_launch(p.layout), p.bulk_copies, p.rows_ahead,
                         scratch, stream);
      return;
    default:  // C directly
      wide_rows::launch(a, v, c, rows, columns, p.blocks, p.bulk_copies, scratch, stream);
      return;
  }
  matvec::launch_sum_partials(partial, p.blocks, columns, c, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"07", "fused single pass, A read once", "gpu", nullptr, plan, run, 1,
                                        false,
                                        matvec::kLayoutOption | matvec::kNoBulkCopyOption | matvec::kRowsAheadOption |
                                            matvec::kPrefetchOption | matvec::kBlockThreadsOption |
                                            matvec::kWarpE32Option};
