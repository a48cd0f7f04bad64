// Lesson 03, step 06: warp shuffles instead of shared-memory rounds.
//
// What changed: the tile scan. __shfl_up_sync hands each lane of a warp a register of the lane
// `distance` below it, and waits for all the lanes its mask names, so it needs no shared memory and no
// barrier. So each warp scans its 32 pairs (flag, value) in five shuffle rounds; lane 31 leaves the
// warp's total in shared memory; after one barrier the first warp scans those totals the same way;
// after a second barrier every thread combines its warp's prefix with its own result
// (06_warp_shuffle.cuh). This is how the original study scanned on its Kepler GPU, the first with
// shuffles. The tiles' totals and the propagation are those of step 04.
//
// Why it is faster: two barriers per tile instead of one per round (10 in step 04, 23 in step 05), and
// registers instead of shared-memory traffic; the idle threads at the top of step 05's tree are gone.
// The README's counters (2^24 elements) show the tile scan faster than step 05's, with fewer
// instructions per element.
//
// What it costs: a warp scan is Hillis-Steele again, five rounds for 32 elements, and each thread
// still handles one element: every element pays for the loads, the rounds and the store. Step 07 gives
// each thread several. Tiles are back to 512 elements (step 05's were 1024), so there are twice as
// many tiles' totals, and the propagation takes longer than step 05's in the counters: the whole step
// gains little in the ladder.
//
// Launch: 512 threads per block (or --threads, whole warps), one element per thread.
#include <cstdint>

#include "03_gpu_hillis_steele.cuh"
#include "04_shared_scan_then_propagate.cuh"
#include "06_warp_shuffle.cuh"
#include "course/launch.h"
#include "segmented_scan.h"

namespace {

using segscan::Flagged;
using segscan::TileTotals;

// One tile of blockDim.x elements, one per thread: the block scan of 06_warp_shuffle.cuh gives each
// thread its exclusive prefix, and the thread's own pair completes it.
template <class T, class Op>
__global__ void scan_tiles_with_shuffles(const T* values, const std::uint8_t* flags, T* result, std::size_t n,
                                         TileTotals<T> totals) {
  __shared__ segscan::BlockScanStorage<T> storage;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const Flagged<T> own = i < n ? Flagged<T>{values[i], flags[i]} : Flagged<T>{T{}, 1};  // past the end: a head
  Flagged<T> total;
  const Flagged<T> prefix = segscan::block_exclusive_scan<Op>(own, storage, total);
  if (i < n) result[i] = segscan::segmented<Op>(prefix, own).value;
  if (totals.values == nullptr) return;
  if (own.flag && !prefix.flag) totals.first_head[blockIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) {
    totals.values[blockIdx.x] = total.value;
    totals.flags[blockIdx.x] = total.flag;
    if (!total.flag) totals.first_head[blockIdx.x] = blockDim.x;
  }
}

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts&,
                         const segscan::LaunchPlan& requested) {
  segscan::LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 512);
  p.scratch_bytes = segscan::scan_then_propagate_scratch(n, p.threads, segscan::value_bytes(scan.type));
  return p;
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    using Op = decltype(op);
    const int threads = p.threads;
    auto scan_tiles = [threads](const T* in, const std::uint8_t* in_flags, T* out, std::size_t count,
                                TileTotals<T> totals, cudaStream_t s) {
      const unsigned blocks = static_cast<unsigned>((count + threads - 1) / threads);
      scan_tiles_with_shuffles<T, Op><<<blocks, threads, 0, s>>>(in, in_flags, out, count, totals);
      CUDA_CHECK_LAUNCH();
    };
    segscan::scan_then_propagate<T, Op>(static_cast<const T*>(values), flags, static_cast<T*>(result), n,
                                        static_cast<std::size_t>(threads), scan_tiles,
                                        static_cast<unsigned char*>(scratch), stream);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"06", "warp shuffles, one element per thread", "gpu", nullptr, plan, run,
                                          segscan::kThreadsOption};
