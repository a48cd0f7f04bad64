// Lesson 03, step 05: the work-efficient scan (Blelloch's up-sweep and down-sweep) in shared memory,
// padded against bank conflicts.
//
// What changed: the tile scan. Hillis-Steele (step 04) does log2(tile) operations per element; the
// work-efficient scan does about three: one in each of two sweeps over a balanced tree laid over the
// tile, and one at the end:
//   up-sweep:   combine neighbours pairwise, then pairs of pairs, ...: the root holds the tile's total
//               (tile - 1 operations);
//   down-sweep: replace the root by the identity and walk back down; at each node the left child gets
//               the node's prefix, the right child the node's prefix combined with the left child's old
//               total (tile - 1 operations). Each element then holds its exclusive prefix, and combining
//               it with the element itself gives the inclusive result.
// With pairs (flag, value) and the segmented operator this is a segmented scan as it stands; the
// operator is not commutative, so the order of every combination (earlier, later) matters. Each thread
// handles two elements, so a block of 512 threads scans 1024.
//
// Bank conflicts: shared memory is 32 banks of 4-byte words. At the tree's level with stride s, thread
// t reads word s(2t + 1) - 1: neighbouring threads are 2s words apart, so 2s threads of a warp hit the
// same bank (all 32 for s = 16), and the accesses are served one after another. Padding one word after
// every 32 (index i is stored at i + i / 32) spreads them over the banks. `--no-padding` runs the same
// kernel without it; the README shows the conflicts Nsight Compute counts both ways. Flags are kept as
// 4-byte words in shared memory, so they follow the same pattern as float values.
//
// What it costs: about 2 log2(tile) barriers per tile (23 for 1024), and at the top of the tree few
// threads have work.
//
// Launch: 512 threads per block (or --threads, rounded down to a power of two), two elements each.
#include <cstdint>

#include "03_gpu_hillis_steele.cuh"
#include "04_shared_scan_then_propagate.cuh"
#include "course/launch.h"
#include "segmented_scan.h"

namespace {

using segscan::Flagged;
using segscan::TileTotals;

// Where element i of the tile lives in shared memory.
template <bool kPadded>
__device__ inline unsigned slot(unsigned i) {
  return kPadded ? i + (i >> 5) : i;
}

// One tile of 2 blockDim.x elements: up-sweep, down-sweep, then each element combined with its
// exclusive prefix. The tree needs a power-of-two tile; elements past the end are heads.
template <class T, class Op, bool kPadded>
__global__ void scan_tiles_work_efficient(const T* values, const std::uint8_t* flags, T* result, std::size_t n,
                                          TileTotals<T> totals) {
  extern __shared__ unsigned char shared[];
  const unsigned threads = blockDim.x, size = 2 * threads, t = threadIdx.x;
  T* tile_values = reinterpret_cast<T*>(shared);
  unsigned* tile_flags = reinterpret_cast<unsigned*>(tile_values + slot<kPadded>(size));
  const std::size_t base = blockIdx.x * static_cast<std::size_t>(size);

  // Each thread loads elements t and t + threads: the block reads the tile in two sweeps, consecutive
  // threads at consecutive elements.
  Flagged<T> own[2];
  for (int k = 0; k < 2; ++k) {
    const unsigned e = t + k * threads;
    const std::size_t i = base + e;
    own[k] = i < n ? Flagged<T>{values[i], flags[i]} : Flagged<T>{T{}, 1};  // past the end: a head
    tile_values[slot<kPadded>(e)] = own[k].value;
    tile_flags[slot<kPadded>(e)] = own[k].flag;
  }

  // Up-sweep: at stride s, node s(2t + 2) - 1 takes in its left neighbour s(2t + 1) - 1.
  unsigned stride = 1;
  for (unsigned active = threads; active > 0; active >>= 1, stride <<= 1) {
    __syncthreads();
    if (t < active) {
      const unsigned left = slot<kPadded>(stride * (2 * t + 1) - 1), right = slot<kPadded>(stride * (2 * t + 2) - 1);
      const Flagged<T> combined = segscan::segmented<Op>(
          Flagged<T>{tile_values[left], static_cast<std::uint8_t>(tile_flags[left])},
          Flagged<T>{tile_values[right], static_cast<std::uint8_t>(tile_flags[right])});
      tile_values[right] = combined.value;
      tile_flags[right] = combined.flag;
    }
  }
  __syncthreads();
  const unsigned root = slot<kPadded>(size - 1);
  const Flagged<T> total{tile_values[root], static_cast<std::uint8_t>(tile_flags[root])};
  __syncthreads();  // every thread has read the total before thread 0 replaces it by the identity
  if (t == 0) {
    tile_values[root] = Op::template identity<T>();
    tile_flags[root] = 0;
  }

  // Down-sweep: the left child gets the node's prefix, the right child prefix + the left child's total.
  for (unsigned active = 1; active < size; active <<= 1) {
    stride >>= 1;
    __syncthreads();
    if (t < active) {
      const unsigned left = slot<kPadded>(stride * (2 * t + 1) - 1), right = slot<kPadded>(stride * (2 * t + 2) - 1);
      const Flagged<T> prefix{tile_values[right], static_cast<std::uint8_t>(tile_flags[right])};
      const Flagged<T> left_total{tile_values[left], static_cast<std::uint8_t>(tile_flags[left])};
      const Flagged<T> right_prefix = segscan::segmented<Op>(prefix, left_total);
      tile_values[left] = prefix.value;
      tile_flags[left] = prefix.flag;
      tile_values[right] = right_prefix.value;
      tile_flags[right] = right_prefix.flag;
    }
  }
  __syncthreads();

  // Inclusive = exclusive prefix, then the element. The element whose prefix holds no head but which is
  // a head itself is the tile's first head.
  for (int k = 0; k < 2; ++k) {
    const unsigned e = t + k * threads;
    const std::size_t i = base + e;
    const Flagged<T> prefix{tile_values[slot<kPadded>(e)], static_cast<std::uint8_t>(tile_flags[slot<kPadded>(e)])};
    if (i < n) result[i] = segscan::segmented<Op>(prefix, own[k]).value;
    if (totals.values != nullptr && own[k].flag && !prefix.flag) totals.first_head[blockIdx.x] = e;
  }
  if (totals.values != nullptr && t == 0) {
    totals.values[blockIdx.x] = total.value;
    totals.flags[blockIdx.x] = total.flag;
    if (!total.flag) totals.first_head[blockIdx.x] = size;
  }
}

// Threads per block: a power of two (the tree needs one), 32 to 1024.
int power_of_two_threads(int requested) {
  int threads = 32;
  while (threads * 2 <= course::whole_warps(requested, 512)) threads *= 2;
  return threads;
}

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts&,
                         const segscan::LaunchPlan& requested) {
  segscan::LaunchPlan p;
  p.threads = power_of_two_threads(requested.threads);
  p.padding = requested.padding;
  p.scratch_bytes = segscan::scan_then_propagate_scratch(n, 2 * static_cast<std::size_t>(p.threads),
                                                         segscan::value_bytes(scan.type));
  return p;
}

template <class T, class Op, bool kPadded>
void launch(const T* values, const std::uint8_t* flags, T* result, std::size_t n, int threads, void* scratch,
            cudaStream_t stream) {
  const std::size_t size = 2 * static_cast<std::size_t>(threads);
  auto scan_tiles = [threads, size](const T* in, const std::uint8_t* in_flags, T* out, std::size_t count,
                                    TileTotals<T> totals, cudaStream_t s) {
    const unsigned blocks = static_cast<unsigned>((count + size - 1) / size);
    const std::size_t slots = kPadded ? size + size / 32 : size;
    const std::size_t shared = slots * (sizeof(T) + sizeof(unsigned));
    scan_tiles_work_efficient<T, Op, kPadded><<<blocks, threads, shared, s>>>(in, in_flags, out, count, totals);
    CUDA_CHECK_LAUNCH();
  };
  segscan::scan_then_propagate<T, Op>(values, flags, result, n, size, scan_tiles, static_cast<unsigned char*>(scratch),
                                      stream);
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    using Op = decltype(op);
    const T* in = static_cast<const T*>(values);
    T* out = static_cast<T*>(result);
    if (p.padding)
      launch<T, Op, true>(in, flags, out, n, p.threads, scratch, stream);
    else
      launch<T, Op, false>(in, flags, out, n, p.threads, scratch, stream);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"05", "work-efficient up-sweep/down-sweep, padded", "gpu", nullptr, plan,
                                          run, segscan::kThreadsOption | segscan::kPaddingOption};
