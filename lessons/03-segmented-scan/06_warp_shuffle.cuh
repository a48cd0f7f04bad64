// Lesson 03, step 06's building blocks, used by steps 07 and 08 (and 09, through step 08's header):
// scans of pairs (flag, value) across a warp with shuffles, and across a block with one warp scan per
// warp and one over the warps' totals.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "03_gpu_hillis_steele.cuh"

namespace segscan {

constexpr unsigned kFullWarp = 0xFFFFFFFFu;

/// The pair of lane (this lane - distance); lanes below `distance` get their own pair back.
template <class T>
__device__ inline Flagged<T> shuffle_up(const Flagged<T>& x, unsigned distance) {
  return {__shfl_up_sync(kFullWarp, x.value, distance),
          static_cast<std::uint8_t>(__shfl_up_sync(kFullWarp, static_cast<unsigned>(x.flag), distance))};
}

/// The inclusive segmented scan of the 32 lanes' pairs, in lane order: five shuffle rounds of
/// Hillis-Steele, with no shared memory and no barrier (each __shfl_*_sync waits for the lanes its mask
/// names).
template <class Op, class T>
__device__ inline Flagged<T> warp_inclusive_scan(Flagged<T> x) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned distance = 1; distance < 32; distance *= 2) {
    const Flagged<T> left = shuffle_up(x, distance);
    if (lane >= distance) x = segmented<Op>(left, x);
  }
  return x;
}

/// The identity pair: no head, the operator's identity. segmented(identity, x) = x.
template <class Op, class T>
__device__ inline Flagged<T> identity_pair() {
  return {Op::template identity<T>(), 0};
}

/// Shared memory for block_exclusive_scan(): one pair per warp.
template <class T>
struct BlockScanStorage {
  Flagged<T> warp_totals[32];
};

/// The exclusive segmented scan of the block's pairs in thread order: each warp scans its own, the
/// first warp scans the warps' totals, and each thread combines its warp's prefix with its own within
/// the warp. Returns the thread's exclusive prefix (the identity pair for thread 0) and sets
/// `block_total` in every thread. Two barriers; blockDim.x must be a multiple of 32.
template <class Op, class T>
__device__ inline Flagged<T> block_exclusive_scan(const Flagged<T>& x, BlockScanStorage<T>& storage,
                                                  Flagged<T>& block_total) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const Flagged<T> inclusive = warp_inclusive_scan<Op>(x);
  if (lane == 31) storage.warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    const Flagged<T> total = lane < warps ? storage.warp_totals[lane] : identity_pair<Op, T>();
    storage.warp_totals[lane] = warp_inclusive_scan<Op>(total);
  }
  __syncthreads();
  Flagged<T> within_warp = shuffle_up(inclusive, 1);
  if (lane == 0) within_warp = identity_pair<Op, T>();
  block_total = storage.warp_totals[warps - 1];
  const Flagged<T> warp_prefix = warp > 0 ? storage.warp_totals[warp - 1] : identity_pair<Op, T>();
  return segmented<Op>(warp_prefix, within_warp);
}

}  // namespace segscan
