// Lesson 05, step 06: vector loads and register caching, several rows per warp.
//
// What changed: each load moves 16 bytes instead of 4, and each value loaded is used more than once.
//   - A v: a warp takes four rows at a time. Each lane loads a float4 of v once and uses it for all
//     four rows (register caching), then a float4 of each row; the four sums are reduced by shuffles
//     at the end. v is read a quarter as often, and each turn of the loop has five 16-byte loads in
//     flight per lane.
//   - A^T B: each thread takes four neighbouring columns as one float4, and walks its band of rows four
//     rows at a time: four float4 loads of A and four values of B in registers before any arithmetic.
//
// Float4 needs 16-byte alignment: a row starts on a 16-byte boundary only when N is a multiple of 4
// (cudaMalloc aligns the start of A). Otherwise the step runs the same kernels with float in place of
// float4, 4-byte loads but the same reuse, so any M and N work.
//
// Two ideas, which --rows 1 and --scalar-loads switch off one at a time (the README's table of
// step 06's ideas: the 16-byte loads buy nearly all of the gain).
//
// Why it is faster: fewer, wider load instructions and more bytes in flight per thread. The counters
// show the fewer instructions per element in both products; at their size, 4096 x 4096, they show no
// gain in time for A v (the README's counters). What it still costs: A is read twice, once per
// product. Step 07 reads it once.
//
// Where rows are few, A v cuts each group of rows into pieces along the row, as step 05 does.
//
// The kernels (rows_per_warp, columns_per_thread) and their launcher are in
// 06_vector_loads_registers.cuh, because steps 07 to 11 fall back to these two passes for rows too
// long for their single pass.
//
// Launch: 256 threads per block (or --threads, whole warps); bands chosen to give about 8 blocks per SM.
#include "matvec.h"
#include "06_vector_loads_registers.cuh"

namespace {

using matvec::LaunchPlan;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  const int rows_at_a_time = requested.rows_at_a_time == 0 ? vector_loads::kRowsAtATime : requested.rows_at_a_time;
  return vector_loads::plan_two_passes(rows, columns, course::whole_warps(requested.threads, 256), rows_at_a_time,
                                       requested.scalar_loads, device);
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  vector_loads::launch_two_passes(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {
    "06", "float4 loads, register caching, 4 rows per warp", "gpu", nullptr, plan, run, 2, false,
    matvec::kIdeasApartOptions};
