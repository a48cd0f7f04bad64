// Lesson 05, step 11: step 10's wide layout, with a group's rows added up across a warp by halving.
//
// At the end of each group a lane holds one value of each of the group's R = 16 / E rows, and the
// warp needs each row's sum. Step 10 adds up each row on its own: five shuffles a row (offsets 16, 8,
// 4, 2, 1), 5 R in all, 80 at R = 16, most of each shuffle's lanes carrying a sum some other lane
// also computes. Here the shuffles halve the rows instead. At the first step a lane pairs with the
// lane 16 away: the lower one keeps rows 0 .. R/2 - 1, the upper one rows R/2 .. R - 1, each sends
// its partner the half it does not keep, and adds what it receives to the half it keeps. Every step
// halves the rows a lane holds and the distance to its partner, so after log2 R steps each lane holds
// a part of one row, shared with the 32 / R lanes that hold the same row, which the usual shuffles
// finish (5 - log2 R steps). So every one of the log2(32) = 5 steps moves values: R/2 + R/4 + ... + 1
// = R - 1 shuffles in the halving steps, then one a step, R - 1 + 5 - log2 R in all, 16 instead of 80
// at R = 16 and the same 5 at R = 1. Afterwards lane l holds the warp's sum of row l / (32 / R) (for
// R = 4: lanes 0-7 row 0, lanes 8-15 row 1, ...).
#pragma once

#include "10_wide_rows.cuh"

namespace halving_sums {

using matvec::LaunchPlan;

// One halving step of warp_sums_of_rows, on the first N of a lane's R values, then the next step:
// the lane keeps half of the N rows and sends the other half to its partner `16 N / R` lanes away,
// which keeps the opposite half. A template per step, so that every index is known at compile time
// and x stays in registers (a loop over the steps left x in local memory at R = 16).
template <int N, int R>
__device__ inline void keep_half_of_rows(float (&x)[R], int lane, int& row) {
  if constexpr (N > 1) {
    constexpr int offset = 16 * N / R;
    const bool upper = lane & offset;  // keeps rows N/2 .. N-1 of the current N
#pragma unroll
    for (int i = 0; i < N / 2; ++i) {
      const float send = upper ? x[i] : x[i + N / 2];
      const float keep = upper ? x[i + N / 2] : x[i];
      x[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
    }
    if (upper) row += N / 2;
    keep_half_of_rows<N / 2>(x, lane, row);
  }
}

// Sums each of a lane's R values over the warp, with R - 1 + 5 - log2(R) shuffles rather than 5 R:
// log2(R) halving steps, then the usual shuffles among the lanes that hold the same row. Afterwards
// x[0] holds the warp's sum of row lane / (32 / R); the function returns that row.
template <int R>
__device__ inline int warp_sums_of_rows(float (&x)[R]) {
  const int lane = threadIdx.x % 32;
  int row = 0;
  keep_half_of_rows<R>(x, lane, row);
#pragma unroll
  for (int offset = 16 / R; offset > 0; offset /= 2) x[0] += __shfl_xor_sync(0xffffffffu, x[0], offset);
  return row;
}

// Step 10's EachRowSums, with the halving: one lane of each row's 32 / R writes the warp's sum.
struct HalvingSums {
  template <int R>
  __device__ static void add_up(float (&x)[R], float (*warp_sums)[32]) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int r = warp_sums_of_rows(x);  // this lane now holds the warp's sum of row r
    if (lane % (32 / R) == 0) warp_sums[r][warp] = x[0];
  }
};

// Step 10's plan and launcher with these sums (steps 13 and 14 run them on each GPU's band of rows).
inline LaunchPlan plan_by_length(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                                 const LaunchPlan& requested) {
  return wide_rows::plan_by_length<HalvingSums>(rows, columns, device, requested);
}

inline void run_by_plan(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                        const LaunchPlan& p, void* scratch, cudaStream_t stream) {
  wide_rows::run_by_plan<HalvingSums>(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace halving_sums
