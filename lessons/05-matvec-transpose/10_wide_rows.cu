// Lesson 05, step 10: the single pass for rows of any length, every block a slice of every row.
//
// What changed: rows of more than 65536 columns, which no group of 8 blocks holds and steps 08 and 09
// leave to two passes. Every block of the grid holds a slice of every row, a group of rows at a time,
// posts its parts of their B_i, and waits for all the other blocks' parts (10_wide_rows.cuh, a
// cooperative launch). The slices wait in shared memory, several groups ahead, and the parts are
// posted three groups ahead, as in step 09; on Hopper the bulk copy engine copies a row's slice where
// a thread holds 8 or 16 values of it (09_bulk_copy.cuh). Shorter rows go to step 09's layouts, which
// wait for fewer blocks. --layout wide runs the wide layout on any N (the runner's table "step 10's
// wide layout"); --no-bulk-copy and --rows-ahead act as in step 09.
//
// Why it is faster: at rows of more than 65536 columns A is read once instead of twice (the README's
// shapes table, step 10 against step 09 at 256 x 1,048,576); shorter rows run step 09's kernels, in
// the same time.
//
// What it costs: every block waits for all the others at every group of rows, so the grid goes at the
// pace of the slowest block, and the grid must fit on the GPU at once. The step falls back to step
// 06's two passes, which read A twice, where the wide layout cannot run: on a GPU without cooperative
// launches, for rows of more than 16 values per thread of the grid (8192 per block: 1,081,344 columns
// on 132 SMs; the shapes table's 64 x 4,194,304), and for grids of more than 256 blocks.
//
// Launch: chosen by N or --layout; --threads is ignored, --blocks sets the grid.
#include "matvec.h"
#include "09_rows_posted_ahead.cuh"
#include "10_wide_rows.cuh"

namespace {

using matvec::LaunchPlan;
using matvec::RowLayout;

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
  if (!device.cooperative_launch || (e > wide_rows::kMaxPerThread && !by_name))
    return fused_rows::two_passes(rows, columns, device);
  course::require_shared_memory(wide_rows::kernel_for(e), wide_rows::kSharedBytes, device, "step 10 (wide rows)");
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
  matvec::require_step_has_layout(requested.layout, matvec::kThisStep);
  matvec::require_layout_holds(requested.layout, columns);  // an --input file's rows may be too long
  if (requested.layout == RowLayout::kWide) return wide_plan(rows, columns, device, requested);
  if (requested.layout != RowLayout::kAuto || columns <= group_rows::kMaxColumns) {
    const LaunchPlan p = ahead_rows::plan_by_length(rows, columns, device, requested);
    if (p.parts == 0 || requested.layout != RowLayout::kAuto) return p;
  }
  return wide_plan(rows, columns, device, requested);  // longer rows, or no group of blocks runs here
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  if (p.layout == RowLayout::kWide)
    wide_rows::launch(a, v, c, rows, columns, p.blocks, p.bulk_copies, scratch, stream);  // C directly
  else
    ahead_rows::run_by_plan(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"10", "fused, every block a slice of every row", "gpu", nullptr, plan, run, 1,
                                        false,
                                        matvec::kLayoutOption | matvec::kGroupLayoutsOption |
                                            matvec::kWideLayoutOption | matvec::kNoBulkCopyOption |
                                            matvec::kRowsAheadOption};
