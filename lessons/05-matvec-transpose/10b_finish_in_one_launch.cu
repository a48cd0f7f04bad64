// Lesson 05, step 10b: step 10 with C finished inside the fused kernel, one launch instead of two.
//
// What changed: in steps 07 to 10 every layout but the wide one ends with a second launch, step 04's
// sum_partials, which adds the blocks' partial C's. Here the fused kernel adds them itself: after its
// rows every block writes its partial C, the whole grid meets at one barrier (grid.sync(), so the grid
// is launched cooperatively, every block resident at once: the group layout was already, and the warp
// and block layouts' grids, one or two blocks per SM, fit), and then the same blocks add the partial
// C's, 32 columns at a time, in a fixed order (10b_finish_in_one_launch.cuh). The layouts and their
// choice (step 09's probe included) are step 10's plan; the bodies are steps 07 and 09's, unchanged.
//
// Why it should be faster: the second launch reads only the partial C's, a few megabytes, but the GPU
// drains the fused kernel's grid, starts another and waits for it, every SM idle at the boundary; one
// launch keeps that to one barrier. Measured beside step 09 (the README's table of step 10b), it gains
// little at some shapes and loses at others: a rung tried and kept out of the ladder. The grid
// barrier and the sum by blocks shaped for the rows cost about what the second launch saved.
//
// What it costs: a grid that must fit on the GPU at once in every layout (the warp and block layouts
// had no such limit), a grid barrier, and the sum done by the fused kernel's blocks, whose shape was
// chosen for the rows, not for it (at 997 columns, only 32 of them have columns to add).
//
// Launch: as step 10's; the launch line says where C is finished in the same launch. --layout cluster
// and the two passes finish with sum_partials, as step 10 does (a cluster launch has no grid barrier);
// step 07's measuring variants (--prefetch, --warp-e32) are not options of this step, and would finish
// the same way (10b_finish_in_one_launch.cuh).
#include "matvec.h"
#include "10b_finish_in_one_launch.cuh"

namespace {

matvec::LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                        const matvec::LaunchPlan& requested) {
  matvec::require_layout_fits(requested.layout, matvec::kThisStep, columns);
  return one_launch::plan(rows, columns, device, requested);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"10b", "fused, C finished in the same launch", "gpu", nullptr, plan,
                                        one_launch::run_by_plan, 1, false,
                                        matvec::kLayoutOption | matvec::kGroupLayoutsOption |
                                            matvec::kWideLayoutOption | matvec::kNoBulkCopyOption |
                                            matvec::kRowsAheadOption | matvec::kStagesOption};
