// Lesson 05, step 09: step 08's groups of blocks, posting their parts of B_i rows ahead.
//
// What changed: in step 08 every row waits for its parts' trip through the L2 cache. Here a block
// posts its part of row n + 3 before it waits for the parts of row n, and asks for those one row
// early, so the trip overlaps the work of the rows in between (09_rows_posted_ahead.cuh). The rows
// wait in shared memory meanwhile; on Hopper, where they start on 16-byte boundaries, they get there
// through the bulk copy engine, one instruction per row and block (09_bulk_copy.cuh). The layouts are
// step 08's: step 07's for rows a block holds, a group of blocks up to 65536 columns (--layout group
// or cluster), step 06's two passes beyond. Rows that a block holds (1025 to 16384 columns) may also go
// to a group of blocks posting ahead, and which is faster depends on the GPU, not on anything its
// properties say: so the plan times both once, on a probe of these rows, and keeps the faster for the
// rest of the process (ahead_rows::measured_layout says when the probe runs and what it costs; the
// launch line says which layout won and that a probe chose it). --rows-ahead 1 to 4 and --stages set
// how far ahead a block posts and how many rows wait in shared memory, and --no-bulk-copy makes every
// thread copy its own values, to measure each idea (the runner's table "step 09's ideas one at a
// time").
//
// Why it is faster: a row no longer waits for the parts' trip, more of A is in flight (rows copied
// two beyond those posted, five ahead of the row applied, where step 08 has one row's loads in
// flight), and a row takes one block barrier instead of two. The README's shapes table times the
// step as a whole against step 08 at 4096 x 65536; the table "step 09's ideas one at a time" takes
// two of the changes apart (rows ahead, bulk copies), not the others. Rows that a block holds run step
// 07's kernels, in the same time, unless the probe finds a group of blocks faster on this GPU.
//
// What it costs: six rows of 32 KB in every block's shared memory, a barrier per row still, a kernel
// for each way of copying and each number of stages, and, for rows a block holds, the probe.
//
// Launch: as step 08's, with the measured choice above where --layout is auto; --no-bulk-copy turns
// the bulk copy engine off, --rows-ahead posts 1 to 4 rows ahead, --stages keeps 3 to 7 rows.
#include "matvec.h"
#include "09_rows_posted_ahead.cuh"

namespace {

using matvec::LaunchPlan;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  matvec::require_layout_fits(requested.layout, matvec::kThisStep, columns);
  return ahead_rows::plan_by_length(rows, columns, device, requested);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"09", "fused, parts posted rows ahead", "gpu", nullptr, plan,
                                        ahead_rows::run_by_plan, 1, false,
                                        matvec::kLayoutOption | matvec::kGroupLayoutsOption |
                                            matvec::kNoBulkCopyOption | matvec::kRowsAheadOption |
                                            matvec::kStagesOption};
