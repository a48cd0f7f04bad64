// Lesson 05, step 10: the single pass for longer rows, every block a slice of every row.
//
// What changed: rows of more than 65536 columns, which no group of 8 blocks holds and steps 08 and 09
// leave to two passes. Every block of the grid holds a slice of every row, a group of rows at a time,
// posts its parts of their B_i, and waits for all the other blocks' parts (10_wide_rows.cuh, a
// cooperative launch). How the slices reach the block is step 09's: they wait in shared memory,
// several groups ahead, the parts are posted three groups ahead, and on Hopper the bulk copy engine
// copies a row's slice where a thread holds 8 or 16 values of it (09_bulk_copy.cuh). A warp adds up
// each of the group's rows on its own, with step 05's shuffles (step 11 does it with fewer). Shorter
// rows go to step 09's layouts, which wait for fewer blocks. --layout wide runs the wide layout on
// any N up to its limit below (the runner's table "steps 10 and 11's wide layout"); --no-bulk-copy,
// --rows-ahead and --stages act as in step 09 on both layouts (the wide layout's "rows" are groups of
// rows).
//
// Why it is faster: at rows of more than 65536 columns A is read once instead of twice (the README's
// shapes table, the wide layout against step 09 at 256 x 1,048,576); shorter rows run step 09's
// kernels, in the same time.
//
// What it costs: every block waits for all the others at every group of rows, so the grid goes at the
// pace of the slowest block, and the grid must fit on the GPU at once. The step falls back to step
// 06's two passes, which read A twice, where the wide layout cannot run: on a GPU without cooperative
// launches, for rows of more than 16 values per thread of the grid (8192 per block: 1,081,344 columns
// on 132 SMs; the shapes table's 64 x 4,194,304), and for grids of more than 256 blocks.
//
// Launch: chosen by N or --layout; --threads is ignored, --blocks sets the grid.
#include "matvec.h"
#include "10_wide_rows.cuh"

namespace {

using matvec::LaunchPlan;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  matvec::require_layout_fits(requested.layout, matvec::kThisStep, columns);
  return wide_rows::plan_by_length<>(rows, columns, device, requested);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"10", "fused, every block a slice of every row", "gpu", nullptr, plan,
                                        wide_rows::run_by_plan<>, 1, false,
                                        matvec::kLayoutOption | matvec::kGroupLayoutsOption |
                                            matvec::kWideLayoutOption | matvec::kNoBulkCopyOption |
                                            matvec::kRowsAheadOption | matvec::kStagesOption};
