// Lesson 05, step 05: coalesced access. A warp per row for A v, with shuffle reductions; columns in
// parallel for A^T B.
//
// What changed: who reads what. For A v, a whole warp takes one row: lane l reads columns l, l + 32,
// l + 64, ..., so each load of the warp is 32 neighbouring floats, one 128-byte segment, and the
// 32 partial sums are added by five __shfl_xor_sync exchanges (warp_sum), without shared memory.
// For A^T B each thread takes one column over a band of rows, as in step 04 but without the
// shared-memory tile: B_i is the same address for all threads of a warp at each step, so a warp's load
// of it is one sector (the counters' sectors per load are the mean of 4 for A and 1 for B_i). The
// two kernels (warp_per_row, column_per_thread) and warp_sum are in 05_coalesced_warps.cuh, because
// steps 06 to 11 reuse warp_sum, and step 06 the cutting of rows into pieces (below).
//
// Why it is faster: every load of A is now coalesced, in both products. The counters show it in A v:
// 4 sectors per load (bound), the fewest a warp's 32 floats can take, against step 04's many, and the
// kernel's time falls with them (A^T B was coalesced in step 04 already). There is
// a warp per row for A v (at most 65535 blocks of them; beyond, each warp takes several rows), and
// (N / 256) x bands blocks for A^T B, about 8 per SM (where N / 256 alone is that many, one band, whose
// sums are C itself, with no partial sums to add). Where there are at most 16 rows per SM (2112 on
// 132 SMs), each row is cut into pieces, a warp per piece, about 32 warps per SM in all, and a small
// kernel adds each row's pieces (warp_per_piece, add_row_pieces): the ladder's 16384 rows need none,
// but 256 rows of a million columns would otherwise keep two warps per SM busy. --whole-rows keeps a
// warp per whole row there, to measure what the pieces are worth (the README's table "step 05 with
// rows in pieces and whole").
//
// What it still costs: A is read twice, and each thread issues one 4-byte load at a time.
//
// Launch: 256 threads per block (or --threads, whole warps); bands chosen to give about 8 blocks per SM;
// --whole-rows as above.
#include "matvec.h"
#include "05_coalesced_warps.cuh"

namespace {

using matvec::LaunchPlan;

LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device, const LaunchPlan& requested) {
  LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.parts = matvec::parts_to_fill(rows, columns, p.threads, device);
  p.row_pieces = requested.whole_rows ? 1 : matvec::row_pieces(rows, columns, device);
  p.scratch_bytes = matvec::coalesced_scratch_bytes(rows, columns, p.parts, p.row_pieces);
  return p;
}

void run(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
         void* scratch, cudaStream_t stream) {
  matvec::launch_coalesced_two_pass(a, v, c, rows, columns, p.threads, p.parts, p.row_pieces, scratch,
                                    stream);
}

}  // namespace

const matvec::Step matvec::kThisStep = {
    "05", "coalesced: warp per row, columns in parallel", "gpu", nullptr, plan, run, 2, false, matvec::kWholeRowsOption};
