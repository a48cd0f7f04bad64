// Lesson 05, step 08: the single pass for rows longer than a block holds, shared by several blocks.
//
// What changed: rows of more than 16384 columns, which step 07 leaves to two passes. B_i needs the
// whole row, and no block holds it, so blocks share rows and wait for each other's parts of B_i:
//
//   16384 < N <= 65536   a group of up to 8 blocks per row, in shared memory; the blocks post their
//                        parts of B_i to global memory and wait only for each other, one block
//                        barrier per row. 08_fused_group_rows.cuh (a cooperative launch; --layout
//                        cluster launches the same groups as clusters, compute capability 9.0+)
//   N > 65536            every block a slice of every row, in shared memory; the blocks exchange their
//                        parts of B_i through global memory, a wait for the whole grid per group of
//                        rows. 08_fused_wide_rows.cuh (a cooperative launch)
//
// Shorter rows go to step 07's warp and block layouts (07_fused_single_pass.cuh), which wait less.
// --layout picks any layout by hand, on any N it can hold (the runner's table "step 08's layouts
// for long rows"). On Hopper, rows that start on 16-byte boundaries reach shared memory through the
// bulk copy engine (08_bulk_copy.cuh), one instruction per row and block (in the wide layout only
// where a thread holds 8 or 16 values of each row); --no-bulk-copy makes every thread copy its own
// values instead (the runner's table "step 08 with and without the bulk copy engine"). A group's
// blocks post their parts of 3 rows ahead of the row they wait for; --rows-ahead 1 posts only the
// next one's (the runner's table "step 08's group layout posting 1 or 3 rows ahead"). The bulk copy
// engine and the cluster launch are Hopper's extras: a first reading can leave them out.
//
// Why it is faster: at rows of more than 16384 columns A is read once instead of twice (the README's
// shapes table, step 08 against step 07 at 4096 x 65536 and 256 x 1,048,576); shorter rows, the
// ladder's 16384 x 16384 among them, run step 07's kernels, in the same time.
//
// What it costs: blocks that wait for each other, a grid that must fit on the GPU at once (or a GPU
// with clusters), a post and a barrier per row, and two ways to copy rows. The step falls back to
// step 06's two passes, which read A twice, where the wide layout cannot run: on a GPU without
// cooperative launches, for rows of more than 16 values per thread of the grid (8192 per block:
// 1,081,344 columns on 132 SMs; the shapes table's 64 x 4,194,304), and for grids of more than 256
// blocks.
//
// Launch: chosen by N (the layouts above) or --layout; --threads is ignored, --blocks sets the grid
// (rounded up to whole groups), --no-bulk-copy turns the bulk copy engine off, --rows-ahead 1 posts
// one row ahead in a group of blocks.
#include "matvec.h"
#include "07_fused_single_pass.cuh"
#include "08_fused_group_rows.cuh"
#include "08_fused_wide_rows.cuh"

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
  const RowLayout short_rows = fused_rows::short_row_layout(columns);  // a warp or a block, where one holds them
  if (short_rows != RowLayout::kAuto) return short_rows;
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
  if (!device.cooperative_launch || (e > wide_rows::kMaxPerThread && !by_name)) return fused_rows::two_passes(rows, columns, device);
  course::require_shared_memory(wide_rows::kernel_for(e), wide_rows::kSharedBytes, device, "step 08 (wide rows)");
  p.blocks = course::cooperative_grid_blocks(wide_rows::kernel_for(e), p.threads, wide_rows::kSharedBytes, p.blocks,
                                             device);
  e = wide_rows::values_per_thread(columns, p.blocks);
  if (e > wide_rows::kMaxPerThread || p.blocks > wide_rows::kMaxBlocks) {
    if (!by_name) return fused_rows::two_passes(rows, columns, device);
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
  const RowLayout layout =
      requested.layout != RowLayout::kAuto ? requested.layout : layout_by_length(columns, device);
  switch (layout) {
    case RowLayout::kWarp:
    case RowLayout::kBlock: return fused_rows::warp_or_block_plan(columns, layout, device, requested);
    case RowLayout::kGroup:
    case RowLayout::kCluster: return group_plan(rows, columns, layout, device, requested);
    default: return wide_plan(rows, columns, device, requested);
  }
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  if (p.parts > 0) {  // the wide layout could not run
    vector_loads::launch_two_passes(a, v, c, rows, columns, p, scratch, stream);
    return;
  }
  switch (p.layout) {
    case RowLayout::kWarp:
    case RowLayout::kBlock: fused_rows::launch_warp_or_block(a, v, c, rows, columns, p, scratch, stream); break;
    case RowLayout::kGroup:
    case RowLayout::kCluster:
      group_rows::launch(a, v, c, rows, columns, p.blocks, group_launch(p.layout), p.bulk_copies, p.rows_ahead,
                         scratch, stream);
      break;
    default:  // C directly
      wide_rows::launch(a, v, c, rows, columns, p.blocks, p.bulk_copies, scratch, stream);
      break;
  }
}

}  // namespace

const matvec::Step matvec::kThisStep = {"08", "fused, long rows shared by blocks", "gpu", nullptr, plan, run, 1, false,
                                        matvec::kLayoutOption | matvec::kLongRowLayoutsOption |
                                            matvec::kNoBulkCopyOption | matvec::kRowsAheadOption};
