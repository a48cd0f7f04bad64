// Lesson 05, step 07: a fused single pass that reads A once.
//
// What changed: both products in one kernel. Whoever loads a piece of row i keeps it on the chip
// until B_i = row_i . v is known, then adds B_i times that piece to its share of C. A is read from
// memory once; v, B and the running shares of C stay on the chip. B_i needs the whole row, so who
// holds a row depends on its length N. Each layout is a header of its own:
//
//   N <= 1024            a warp per row, in registers; shuffles give B_i to every lane, no barrier.
//                        07_fused_warp_rows.cuh, the plain form (rows of up to 512 columns);
//                        07_fused_warp_rows_ways.cuh, rows of 513 to 1024 columns and the ways
//                        below, which a first reading can skip
//   1024 < N <= 16384    a block per group of rows, in registers; one block barrier per 16 values
//                        per thread. 07_fused_block_rows.cuh
//
// The warp layout waits less, so rows go to it where it can hold them; --layout warp or block picks
// one by hand, on any N it can hold (the runner's table "steps 07 and 08's layouts one at a time").
// A warp keeps its next row's loads in flight while it works on a row; a block does not, as its SM
// has other warps' loads to run meanwhile, which holds best for two blocks of 512 per SM (--prefetch
// on|off switches either, and the README's table says what each is worth); rows of at most 8192
// columns go to blocks of 512 threads, two per SM (--block-threads 1024 takes one block of 1024);
// and a warp reads rows of 513 to 1024 columns by whole lines, with v and C in shared memory
// (--warp-e32 first-element or registers goes back to reading from each row's first element, with v
// and C in shared memory or in registers): the runner's table "step 07's warp and block layouts,
// ideas one at a time".
//
// Why it is faster: A is read once instead of twice (the ladder's step 07 against step 06).
//
// What it costs: two layouts instead of one kernel, and a second small kernel (sum_partials) that adds
// the blocks' partial C (in the warp layout each block first adds its warps' shares in shared memory).
// Rows longer than a block holds (more than 16384 columns) go to step 06's two passes, which read A
// twice; steps 08 to 11 share such rows among blocks instead.
//
// The plan and the launcher are in 07_fused_single_pass.cuh, because steps 08 to 11 run them for the
// rows a block holds.
//
// Launch: chosen by N (the layouts above) or --layout; --threads is ignored, --blocks sets the grid,
// --prefetch, --block-threads and --warp-e32 as above.
#include "matvec.h"
#include "07_fused_single_pass.cuh"

namespace {

using matvec::LaunchPlan;
using matvec::RowLayout;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  matvec::require_layout_fits(requested.layout, matvec::kThisStep, columns);
  matvec::require_layout_options_apply(requested, columns);
  const RowLayout layout =
      requested.layout != RowLayout::kAuto ? requested.layout : fused_rows::short_row_layout(columns);
  if (layout == RowLayout::kAuto) return fused_rows::two_passes(rows, columns, device);  // rows for steps 08 to 11
  return fused_rows::warp_or_block_plan(columns, layout, device, requested);
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  if (p.parts > 0)  // rows longer than a block holds
    vector_loads::launch_two_passes(a, v, c, rows, columns, p, scratch, stream);
  else
    fused_rows::launch_warp_or_block(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"07", "fused single pass, A read once", "gpu", nullptr, plan, run, 1,
                                        false,
                                        matvec::kLayoutOption | matvec::kPrefetchOption | matvec::kBlockThreadsOption |
                                            matvec::kWarpE32Option};
