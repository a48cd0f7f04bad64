// Lesson 03, step 07: several elements per thread, in registers.
//
// What changed: each thread takes a run of consecutive elements (16 by default; the study used 8, 16
// and 32 on its three GPUs, and `--items 8|16|32` tries each) instead of one. It loads them with 16-byte
// accesses, scans them sequentially in its registers, and only the runs' totals go through step 06's
// block scan of warp shuffles; the block's prefix for each run is then applied to the run's elements
// before its first head (07_registers_per_thread.cuh). Tiles grow to 256 x 16 = 4096 elements; their
// totals and the propagation are step 04's.
//
// Why it is faster: the parallel part, shuffles and barriers, is paid once per run instead of once
// per element, and the sequential part is one operation per element on values already in registers.
// The original study's first optimization was this one. The README's counters show the instructions
// per element falling several times over. The 16-byte loads (five for a run of 16 floats: four of
// values, one of flags) are only the simplest way to bring a run into registers: their width was
// measured to add nothing. Two switches take the accesses apart (the README's table of step 07's
// accesses, where staged 4-byte accesses are faster for floats, and far faster for doubles: a run of
// 16 doubles is 128 bytes, so each 16-byte load of a warp touches 32 cache lines). `--scalar-loads`
// reads and writes each run one element at a time: the lanes of a warp then touch addresses 64 bytes
// apart, 4 bytes of each sector, so the accesses are narrow and uncoalesced at once. `--staged-loads`
// keeps them 4 bytes wide but coalesced: the warp reads 32 neighbouring elements per instruction into
// shared memory and each thread picks its run up from there, and stores the same way back
// (07_registers_per_thread.cuh). Staged against step 06 is what several elements per thread are worth
// with coalesced 4-byte accesses; 16 bytes against staged is what the width adds. `--items` changes
// the run length.
//
// What it costs: registers, kItems values and a word of flags per thread, which limits how many
// threads an SM holds (the README's counters: more registers per thread and a lower achieved
// occupancy than step 06's); and still several launches (the tiles, their totals, the propagation),
// the propagation rewriting what lies before each tile's first head. Step 08 does it all in one
// kernel, with no propagation.
//
// Launch: 256 threads per block (or --threads, whole warps, up to what the kernel's registers allow
// and, with --staged-loads, what the warps' stages leave room for in shared memory), --items elements
// each.
#include <algorithm>
#include <cstdint>

#include "03_gpu_hillis_steele.cuh"
#include "04_shared_scan_then_propagate.cuh"
#include "06_warp_shuffle.cuh"
#include "07_registers_per_thread.cuh"
#include "course/check.h"
#include "course/errors.h"
#include "course/launch.h"
#include "segmented_scan.h"

namespace {

using segscan::Flagged;
using segscan::ThreadItems;
using segscan::TileTotals;

constexpr int kDefaultItems = 16;

// One tile of blockDim.x runs of kItems elements: each thread scans its run in registers, the block
// scans only the runs' totals, and each run then takes its prefix. `warp_first` is where the warp's 32
// runs begin, which the staged accesses move together.
template <class T, class Op, int kItems, bool kStaged>
__global__ void scan_tiles_in_registers(const T* values, const std::uint8_t* flags, T* result, std::size_t n,
                                        TileTotals<T> totals, bool aligned) {
  __shared__ segscan::BlockScanStorage<T> storage;
  const std::size_t first = (blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x) * kItems;
  const std::size_t warp_first = first - static_cast<std::size_t>(threadIdx.x % 32) * kItems;
  ThreadItems<T, kItems> items;
  if constexpr (kStaged)
    segscan::load_items_staged(values, flags, warp_first, n, segscan::warp_stage<T, kItems>(), items);
  else
    segscan::load_items(values, flags, first, n, aligned, items);
  const Flagged<T> run_total = segscan::scan_items<Op>(items);
  Flagged<T> tile_total;
  const Flagged<T> prefix = segscan::block_exclusive_scan<Op>(run_total, storage, tile_total);
  segscan::add_prefix<Op>(prefix, items);
  if constexpr (kStaged)
    segscan::store_items_staged(items, result, warp_first, n, segscan::warp_stage<T, kItems>());
  else
    segscan::store_items(items, result, first, n, aligned);
  if (totals.values == nullptr) return;
  if (run_total.flag && !prefix.flag)
    totals.first_head[blockIdx.x] = threadIdx.x * kItems + segscan::first_head_in(items);
  if (threadIdx.x == 0) {
    totals.values[blockIdx.x] = tile_total.value;
    totals.flags[blockIdx.x] = tile_total.flag;
    if (!tile_total.flag) totals.first_head[blockIdx.x] = blockDim.x * kItems;
  }
}

// The tile kernel for a run length, and the bytes of one warp's stage at that length (--staged-loads).
struct TileKernel {
  const void* kernel;
  std::size_t stage_bytes;
};

template <class T, class Op, int kItems, bool kStaged>
TileKernel tile_kernel() {
  return {reinterpret_cast<const void*>(scan_tiles_in_registers<T, Op, kItems, kStaged>),
          sizeof(segscan::WarpStage<T, kItems>)};
}

template <class T, class Op, bool kStaged>
TileKernel kernel_for(int items) {
  switch (items) {
    case 8: return tile_kernel<T, Op, 8, kStaged>();
    case 16: return tile_kernel<T, Op, 16, kStaged>();
    default: return tile_kernel<T, Op, 32, kStaged>();
  }
}

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts& device,
                         const segscan::LaunchPlan& requested) {
  segscan::LaunchPlan p;
  p.items = requested.items > 0 ? requested.items : kDefaultItems;
  p.scalar_loads = requested.scalar_loads;
  p.staged_loads = requested.staged_loads;
  // As many threads as asked, if the kernel's registers allow that many in a block, and with
  // --staged-loads if their warps' stages fit in the shared memory a block may have.
  const TileKernel tiles = segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    using Op = decltype(op);
    return p.staged_loads ? kernel_for<T, Op, true>(p.items) : kernel_for<T, Op, false>(p.items);
  });
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, tiles.kernel));
  p.threads = std::min(course::whole_warps(requested.threads, 256), attributes.maxThreadsPerBlock / 32 * 32);
  if (p.staged_loads)
    segscan::fit_warp_stages(tiles.kernel, attributes.sharedSizeBytes, tiles.stage_bytes, device, p,
                             "step 07 with --staged-loads");
  p.scratch_bytes = segscan::scan_then_propagate_scratch(n, static_cast<std::size_t>(p.threads) * p.items,
                                                         segscan::value_bytes(scan.type));
  return p;
}

template <class T, class Op, int kItems>
void launch(const T* values, const std::uint8_t* flags, T* result, std::size_t n, const segscan::LaunchPlan& p,
            void* scratch, cudaStream_t stream) {
  const int threads = p.threads;
  const bool wide = !p.scalar_loads, staged = p.staged_loads;
  const std::size_t tile = static_cast<std::size_t>(threads) * kItems, shared_bytes = p.shared_bytes;
  auto scan_tiles = [=](const T* in, const std::uint8_t* in_flags, T* out, std::size_t count, TileTotals<T> totals,
                        cudaStream_t s) {
    // Wide accesses need 16-byte aligned arrays (device allocations are; so is every level of totals).
    // --scalar-loads turns them off, to show what they are worth.
    const bool aligned = wide && reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(in_flags) % 16 == 0 &&
                         reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
    const unsigned blocks = static_cast<unsigned>((count + tile - 1) / tile);
    if (staged)
      scan_tiles_in_registers<T, Op, kItems, true><<<blocks, threads, shared_bytes, s>>>(in, in_flags, out, count,
                                                                                         totals, false);
    else
      scan_tiles_in_registers<T, Op, kItems, false><<<blocks, threads, 0, s>>>(in, in_flags, out, count, totals,
                                                                                aligned);
    CUDA_CHECK_LAUNCH();
  };
  segscan::scan_then_propagate<T, Op>(values, flags, result, n, tile, scan_tiles, static_cast<unsigned char*>(scratch),
                                      stream);
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    using Op = decltype(op);
    const T* in = static_cast<const T*>(values);
    T* out = static_cast<T*>(result);
    switch (p.items) {
      case 8: launch<T, Op, 8>(in, flags, out, n, p, scratch, stream); break;
      case 16: launch<T, Op, 16>(in, flags, out, n, p, scratch, stream); break;
      default: launch<T, Op, 32>(in, flags, out, n, p, scratch, stream); break;
    }
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"07", "several elements per thread, in registers", "gpu", nullptr, plan, run,
                                          segscan::kThreadsOption | segscan::kItemsOption |
                                              segscan::kScalarLoadsOption | segscan::kStagedLoadsOption};
