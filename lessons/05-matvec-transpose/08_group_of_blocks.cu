// Lesson 05, step 08: the single pass for rows longer than a block holds, shared by a group of blocks.
//
// What changed: rows of 16385 to 65536 columns, which step 07 leaves to two passes. B_i needs the
// whole row, and no block holds it, so a group of up to 8 blocks shares each row: every block posts
// its part of B_i to global memory, waits for the other blocks' parts, and adds them up
// (08_group_of_blocks.cuh). A cooperative launch puts the whole grid on the GPU at once, so that a
// wait ends; --layout cluster launches the same groups as thread-block clusters instead (compute
// capability 9.0 and newer). Shorter rows go to step 07's warp and block layouts
// (07_fused_single_pass.cuh), which wait less; longer rows to step 06's two passes (steps 10 and 11
// take them). --layout picks a layout by hand, on any N it can hold (the runner's tables "steps 07 and
// 08's layouts one at a time" and "groups of blocks, launched cooperatively and as clusters").
//
// Why it is faster: at rows of 16385 to 65536 columns A is read once instead of twice (the README's
// shapes table, step 08 against step 07 at 4096 x 65536); shorter rows, the ladder's 16384 x 16384
// among them, run step 07's kernels, in the same time.
//
// What it costs: blocks that wait for each other at every row, for a trip through the L2 cache that
// nothing else overlaps but the next row's loads; a grid that must fit on the GPU at once (or a GPU
// with clusters); and a kernel per group size.
//
// Launch: chosen by N (the layouts above) or --layout; --threads is ignored, --blocks sets the grid
// (rounded up to whole groups).
#include "matvec.h"
#include "08_group_of_blocks.cuh"

namespace {

using matvec::LaunchPlan;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  matvec::require_layout_fits(requested.layout, matvec::kThisStep, columns);
  return group_rows::plan_by_length(rows, columns, group_rows::plain_kernel(columns), device, requested);
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  group_rows::run_by_plan(a, v, c, rows, columns, p, group_rows::plain_kernel(columns), scratch, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"08", "fused, long rows shared by a group of blocks", "gpu", nullptr, plan,
                                        run, 1, false, matvec::kLayoutOption | matvec::kGroupLayoutsOption};
