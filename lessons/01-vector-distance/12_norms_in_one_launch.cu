// Lesson 01, step 12: step 11 with the norms of A and B in one short launch.
//
// What changed: only the pass before the product. Steps 08 to 11 compute |a_i|^2 and |b_j|^2 with step
// 08's kernel, launched once for A and once for B, in which a warp walks its row 32 elements (128
// bytes) at a time, one 4-byte load per lane per round, and adds each round before it asks for the
// next: its warps spend most of their time waiting on memory (long_scoreboard in the README's
// counters), a pass bound by latency, not bandwidth. Here one launch covers the rows of A and then of
// B, and each lane issues four 16-byte loads before it adds any of them, into four partial sums
// (12_norms_in_one_launch.cuh): a warp has 2 KB of its row in flight per round where step 08's has
// 128 bytes, so a row of 1024 elements takes 2 rounds instead of 32. The product is step 11's kernel,
// with its choice of tiles (warpgroup_tma::launch_products).
//
// Why it is faster: at small sizes the two norm launches take about as long as the product (the
// README's counters at 1024); one launch with a few round trips per row instead of two with one per
// 128 bytes shortens that part. At large sizes the product is the time (M K N terms against (M + K) N
// squares), and what step 12 gains is at the small ones.
//
// What it costs: nothing in accuracy (the same squares, added in other pieces), a kernel that reads
// two matrices where step 08's reads one, and, like step 11, code for one GPU generation: skipped where
// step 11 is.
#include "12_norms_in_one_launch.cuh"
#include "distance.h"

namespace {

distance::LaunchPlan plan(std::size_t m, std::size_t k, std::size_t, distance::Type,
                          const course::DeviceFacts& device) {
  distance::LaunchPlan p;
  p.scratch_bytes = norms_in_one_launch::prepare(m, k, device, "step 12");
  return p;
}

void run(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
         const distance::LaunchPlan&, void* scratch, cudaStream_t stream) {
  norms_in_one_launch::launch(a, b, c, m, k, n, scratch, stream);
}

}  // namespace

const distance::Step distance::kThisStep = {
    "12", "step 11, norms of A and B in one launch", "gpu", distance::Form::NormExpansionTf32, distance::kDefaultSize,
    nullptr, nullptr, nullptr, plan, run, nullptr, false, 1};
