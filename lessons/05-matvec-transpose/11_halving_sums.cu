// Lesson 05, step 11: step 10, with the group's rows added up across a warp in fewer shuffles.
//
// What changed: one function. At the end of each group of R = 16 / E rows, step 10 adds up each row
// across the warp on its own, five shuffles a row, 5 R in all. Here a lane sends half of the rows it
// still holds to a partner lane and keeps the other half at each step, so that after the five steps
// of a warp's sum every lane holds one row's sum: R - 1 + 5 - log2 R shuffles, 16 instead of 80 at
// R = 16 (11_halving_sums.cuh). Everything else is step 10's: its layouts, its plan, its kernel,
// which takes the sums as a template parameter.
//
// Why it should be faster: the sums are fixed work that every group pays, however many columns each
// thread holds; where a thread holds one column of each of 16 rows (slices of 512 columns or fewer,
// as at 4096 x 65536 on 132 SMs with --layout wide), the shuffles are a large share of it. Where a
// thread holds 16 columns of one row (R = 1, as at 256 x 1,048,576), there is nothing to halve and
// the two steps run the same shuffles. The runner's table "steps 10 and 11's wide layout" times both
// at the same shapes in the same run; the README says when its figures come.
//
// What it costs: an index that differs from lane to lane (which row a lane ends with), and code
// that is harder to read than five shuffles a row.
//
// Launch: as step 10's.
#include "matvec.h"
#include "11_halving_sums.cuh"

namespace {

using matvec::LaunchPlan;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  matvec::require_layout_fits(requested.layout, matvec::kThisStep, columns);
  return halving_sums::plan_by_length(rows, columns, device, requested);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"11", "fused, wide rows, halving shuffle sums", "gpu", nullptr, plan,
                                        halving_sums::run_by_plan, 1, false,
                                        matvec::kLayoutOption | matvec::kGroupLayoutsOption |
                                            matvec::kWideLayoutOption | matvec::kNoBulkCopyOption |
                                            matvec::kRowsAheadOption | matvec::kStagesOption};
