// Lesson 05, step 09: step 08's groups of blocks with the parts' trip through the L2 cache hidden.
//
// In step 08 a block posts its part of B_i and at once waits for the other blocks' parts of the same
// row: every row pays the trip through the L2 cache, and the blocks of a group run at slightly
// different speeds, so each row also waits for the slowest. Here a block posts its part of row n + 3
// before it waits for row n's, so a part has two rows of the block's work to reach the L2 cache
// before the other blocks ask for it, and the waits overlap that work instead of following it.
// That needs rows on the chip well ahead of the one being applied: they wait in shared memory, in
// stages, copied two rows ahead of those posted (--stages sets how many). For each row n:
//
//   1. every thread multiplies its 16 values of row n + 3 by v's, and warp 0 posts the block's part;
//   2. warp 1 adds up the S parts of row n, which it asked for one row earlier, so that their loads
//      were in flight during a row's work;
//   3. every thread applies B_n to its 16 values of row n.
//
// Where rows start on 16-byte boundaries (N a multiple of 4) and the GPU has a bulk copy engine
// (compute capability 9.0, 09_bulk_copy.cuh), one thread asks it for the block's 32 KB of a row, and
// each stage's mbarrier says when they have landed; otherwise every thread copies its own 16 values
// with cp.async (16 bytes a copy where rows start on 16-byte boundaries, else 4) and waits for its
// own copies. A bulk copy into a stage starts after the block's barrier of the row, when every thread
// is done with the row the stage held; a thread's own copies start before it, as soon as that thread
// is done. The groups, their launch (cooperative, or clusters) and the partial C's are step 08's.
//
// How many rows a block posts ahead is the kernel's argument (--rows-ahead), how many stages it keeps
// a template parameter, one kernel per number (--stages; the stage of row n is n modulo the number,
// which a constant makes cheap): one stage applied, `ahead` posted, the rest in flight. The step's choice
// is 3 rows ahead in 6 stages, two rows in flight; more stages put more of A in flight per SM, as far
// as shared memory allows.
//
// The cost: 192 KB of shared memory per block for the stages, the rows read from shared memory
// twice, two ways to copy them, and a kernel for each way.
#pragma once

#include <cuda_pipeline.h>

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "course/buffers.h"
#include "course/timing.h"

#include "08_group_of_blocks.cuh"
#include "09_bulk_copy.cuh"

namespace ahead_rows {

using group_rows::chunk_column;
using group_rows::kChunks;
using group_rows::kColumnsPerBlock;
using group_rows::kThreads;
using group_rows::kWarps;
using matvec::LaunchPlan;
using matvec::PartWord;

// A block posts row n + ahead's part before it waits for row n's: 3 rows ahead (--rows-ahead 1
// posts only the next row's, to measure what the other two are worth). A stage holds a block's run of
// a row: one applied, `ahead` posted, and the rest in flight, two by default (ahead + 3 stages).
constexpr int kDefaultAhead = 3;
constexpr int kDefaultInFlight = 2;
constexpr int kFewestStages = 3, kMostStages = 7;  // the kernels built: 7 x 32 KB is what a block may have
static_assert(kMostStages == matvec::kMaxStages);
constexpr std::size_t kStageFloats = kColumnsPerBlock;
constexpr std::size_t shared_bytes(int stages) { return stages * kStageFloats * sizeof(float); }
constexpr int default_stages(int ahead) { return ahead + 1 + kDefaultInFlight; }  // 6 x 32 KB at 3 ahead

// cp.async's wait takes the number of copy groups it may leave in flight as an immediate: one case per
// number the stages allow.
__device__ inline void wait_own_copies_but(int newest) {
  switch (newest) {
    case 0: __pipeline_wait_prior(0); break;
    case 1: __pipeline_wait_prior(1); break;
    case 2: __pipeline_wait_prior(2); break;
    case 3: __pipeline_wait_prior(3); break;
    case 4: __pipeline_wait_prior(4); break;
    default: __pipeline_wait_prior(5); break;
  }
}

// Whether every row of A starts on a 16-byte boundary (A aligned, N a multiple of 4): the rows can be
// copied 16 bytes at a time, or by the bulk copy engine. Steps 09 and 10 share this and the two below.
__device__ inline bool rows_on_16_bytes(const float* a, std::size_t columns) {
  return columns % 4 == 0 && reinterpret_cast<std::uintptr_t>(a) % 16 == 0;
}

// With the bulk copy engine, one thread sets up each stage's barrier (the block meets at a
// __syncthreads() before anyone uses them).
template <int kStages>
__device__ inline void init_stage_barriers(bool bulk, bulk_copy::Barrier* landed) {
  if (bulk && threadIdx.x == 0)
    for (int q = 0; q < kStages; ++q) bulk_copy::init(&landed[q]);
}

// Waits until the n-th row (step 10: group of rows) to pass through the stages is in its stage: the
// bulk copy's phase n / kStages of the stage's barrier, or this thread's copies of every row but the
// kStages - 2 - ahead newest started (rows n + 1 on, whenever this is called; in the first rows it
// waits for more than it needs). The block barrier after it covers the other threads' copies.
template <int kStages>
__device__ inline void wait_stage(bool bulk, bulk_copy::Barrier* landed, std::size_t n, int ahead) {
  if (bulk)
    bulk_copy::wait(&landed[n % kStages], n / kStages);
  else
    wait_own_copies_but(kStages - 2 - ahead);
}

// Slot of this thread's chunk k in a stage: chunk k of threads 0, 1, ... side by side.
__device__ inline float4* chunk_slot(float* stage, int k) {
  return reinterpret_cast<float4*>(stage) + k * kThreads + threadIdx.x;
}

// Without the bulk copy engine: starts the copies of this thread's chunks of `row` into `stage`, 16
// bytes a copy where rows start on 16-byte boundaries, else 4. Slots past the row's end are never
// copied into (zero since the start).
__device__ inline void copy_row_by_thread(const float* row, std::size_t columns, unsigned rank, bool by_16,
                                          float* stage) {
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const std::size_t j = chunk_column(k, rank);
    float* to = reinterpret_cast<float*>(chunk_slot(stage, k));
    if (by_16) {
      if (j < columns) __pipeline_memcpy_async(to, row + j, 16);  // columns % 4 == 0: whole chunks
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (j + e < columns) __pipeline_memcpy_async(to + e, row + j + e, 4);
    }
  }
  __pipeline_commit();  // one group per row, empty past the last row: the count stays simple
}

// This thread's 16 values of a row times its 16 values of v.
__device__ inline float dot_row(float* stage, const float4 (&v_chunks)[kChunks]) {
  float dot = 0.0f;
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const float4 x = *chunk_slot(stage, k);
    dot += x.x * v_chunks[k].x + x.y * v_chunks[k].y + x.z * v_chunks[k].z + x.w * v_chunks[k].w;
  }
  return dot;
}

// What one block of a group does with its rows, one function per task; the kernel's body below puts
// them in order. kBulk: the bulk copy engine copies the rows. Row n is the block's n-th row, row
// group + n * groups of A.
template <int S, bool kBulk, int kStages>
struct GroupBlock {
  int ahead;              // rows posted ahead; of the kStages stages, one applied, `ahead` posted, the rest in flight
  const float* a;
  std::size_t columns;
  PartWord* parts;        // parts[i * S + rank]: block rank's part of B_i
  unsigned rank;          // this block's place in its group
  std::size_t group, groups, count;  // the group, how many, and how many rows this group takes
  std::size_t first;      // this block's run of each row: from column `first`,
  unsigned run_bytes;     // `run_bytes` long (a multiple of 16 if by_16)
  bool by_16;             // rows start on 16-byte boundaries: 16-byte copies
  float* stage_memory;    // kStages rows in shared memory, this block's run of each
  bulk_copy::Barrier* stage_landed;  // with the bulk copy engine: a stage's row is in
  float (*warp_sums)[kWarps];        // the warps' sums, by the parity of the row posted
  float* b_shared;                   // B_i, by the parity of the row applied
  unsigned lane, warp;
  PartWord word = 0;                 // warp 1: lane q's view of block q's part of the row it gathers

  __device__ float* stage(std::size_t n) const { return stage_memory + (n % kStages) * kStageFloats; }
  __device__ std::size_t row_index(std::size_t n) const { return group + n * groups; }

  // Starts the copy of row n into its stage (nothing past the last row).
  __device__ void copy(std::size_t n) {
    if constexpr (kBulk) {
      if (n < count && threadIdx.x == 0) {
        bulk_copy::expect(&stage_landed[n % kStages], run_bytes);
        bulk_copy::start(stage(n), a + row_index(n) * columns + first, run_bytes, &stage_landed[n % kStages]);
      }
    } else if (n < count) {
      copy_row_by_thread(a + row_index(n) * columns, columns, rank, by_16, stage(n));
    } else {
      __pipeline_commit();
    }
  }

  // Waits until row n is in its stage.
  __device__ void wait_row(std::size_t n) { wait_stage<kStages>(kBulk, stage_landed, n, ahead); }

  // Step 1, before the barrier: this warp's sum of row n.
  __device__ void sum_warp(std::size_t n, const float4 (&v_chunks)[kChunks]) {
    const float dot = matvec::warp_sum(dot_row(stage(n), v_chunks));
    if (lane == 0) warp_sums[n % 2][warp] = dot;
  }

  // Step 1, after the barrier (warp 0): the block's part of row n, posted.
  __device__ void post(std::size_t n) {
    const float part = matvec::warp_sum(lane < kWarps ? warp_sums[n % 2][lane] : 0.0f);
    if (lane == 0) matvec::store_part(&parts[row_index(n) * S + rank], matvec::make_part(1, part));
  }

  // Step 2 (warp 1): lane q < S asks for block q's part of row n; the answer is looked at one row
  // later, so that the trip through the L2 cache overlaps a row's work instead of adding to it.
  __device__ void ask(std::size_t n) {
    if (lane < S) word = matvec::load_part(parts + row_index(n) * S + lane);
  }

  // Step 2 (warp 1): B of row n, once every block's part has come (rare misses ask again).
  __device__ void gather(std::size_t n) {
    const float b = group_rows::gather_parts<S>(parts + row_index(n) * S, word);
    if (lane == 0) b_shared[n % 2] = b;
  }
};

// The kernel's body, once per way of copying (kBulk: the bulk copy engine) and number of stages,
// posting `ahead` rows ahead.
template <int S, bool kBulk, int kStages>
__device__ inline void group_rows_body(const float* a, const float* v, float* partial, std::size_t rows,
                                       std::size_t columns, PartWord* parts, int ahead) {
  using Block = GroupBlock<S, kBulk, kStages>;
  extern __shared__ float4 stage_memory[];  // kStages rows, this block's 8192 columns of each
  __shared__ float warp_sums[2][kWarps];
  __shared__ float b_shared[2];
  __shared__ bulk_copy::Barrier stage_landed[kStages];
  const unsigned rank = blockIdx.x % S;
  const std::size_t group = blockIdx.x / S, groups = gridDim.x / S;
  const std::size_t first = static_cast<std::size_t>(rank) * kColumnsPerBlock;
  Block block{ahead,
              a,
              columns,
              parts,
              rank,
              group,
              groups,
              group < rows ? (rows - group + groups - 1) / groups : 0,
              first,
              static_cast<unsigned>(matvec::smaller(columns - first, kColumnsPerBlock) * sizeof(float)),
              rows_on_16_bytes(a, columns),
              reinterpret_cast<float*>(stage_memory),
              stage_landed,
              warp_sums,
              b_shared,
              threadIdx.x % 32,
              threadIdx.x / 32};
  const std::size_t count = block.count;
  const unsigned warp = block.warp;
  float4 v_chunks[kChunks], c_chunks[kChunks];
#pragma unroll
  for (int k = 0; k < kChunks; ++k) {
    const std::size_t j = chunk_column(k, rank);
    float* x = reinterpret_cast<float*>(&v_chunks[k]);
    for (int e = 0; e < 4; ++e) x[e] = j + e < columns ? v[j + e] : 0.0f;
    c_chunks[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int n = 0; n < kStages; ++n)
      for (int e = 0; e < 4; ++e)
        if (j + e >= columns) reinterpret_cast<float*>(chunk_slot(block.stage(n), k))[e] = 0.0f;  // never copied into
  }
  init_stage_barriers<kStages>(kBulk, stage_landed);
  __syncthreads();  // the barriers are set up and the slots past the row's end are zero
  for (int n = 0; n < kStages - 1; ++n) block.copy(n);
  for (std::size_t n = 0; n < static_cast<std::size_t>(ahead) && n < count; ++n) {  // the first rows posted
    block.wait_row(n);
    block.sum_warp(n, v_chunks);
    __syncthreads();
    if (warp == 0) block.post(n);
    __syncthreads();  // warp_sums is read before it is written again
  }
  if (warp == 1 && count > 0) block.ask(0);
  for (std::size_t n = 0; n < count; ++n) {
    if (n + ahead < count) block.wait_row(n + ahead);
    if constexpr (!kBulk) block.copy(n + kStages - 1);  // this thread's own slots of row n - 1, which it has applied
    if (n + ahead < count) block.sum_warp(n + ahead, v_chunks);
    if (warp == 1) block.gather(n);
    // warp_sums[(n + ahead) % 2] and b_shared[n % 2] are written; both are written again two rows
    // later, after the next barrier, which no thread passes before it is done with them here.
    __syncthreads();
    if constexpr (kBulk) block.copy(n + kStages - 1);  // into the stage of row n - 1, which every thread has applied
    if (warp == 0 && n + ahead < count) block.post(n + ahead);
    if (warp == 1 && n + 1 < count) block.ask(n + 1);
    const float b = b_shared[n % 2];  // step 3: B_i applied to this thread's 16 values
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const float4 x = *chunk_slot(block.stage(n), k);
      c_chunks[k].x += b * x.x;
      c_chunks[k].y += b * x.y;
      c_chunks[k].z += b * x.z;
      c_chunks[k].w += b * x.w;
    }
  }
  if constexpr (!kBulk) __pipeline_wait_prior(0);  // no copy outlives the block (every bulk copy was waited for)
  group_rows::store_chunks(partial + group * columns, columns, rank, c_chunks);
}

// Groups of S neighbouring blocks of the grid (block b is block b % S of group b / S; a cluster
// launch of size S makes the same groups clusters). parts[i * S + rank]: block rank's part of B_i.
// A kernel per way of copying, chosen by the plan: with both bodies in one kernel, choosing at run
// time, the cp.async body ran slower than in a kernel of its own (no table of the README times this).
// The bulk kernel still checks that it can (compiled for compute capability 9.0, rows on 16-byte
// boundaries).
template <int S, bool kBulk, int kStages>
__device__ inline void group_rows_ahead(const float* a, const float* v, float* partial, std::size_t rows,
                                        std::size_t columns, PartWord* parts, int ahead) {
  if (kBulk && bulk_copy::available() && rows_on_16_bytes(a, columns))
    group_rows_body<S, true, kStages>(a, v, partial, rows, columns, parts, ahead);
  else
    group_rows_body<S, false, kStages>(a, v, partial, rows, columns, parts, ahead);
}

template <int S, bool kBulk, int kStages>
__global__ void __launch_bounds__(kThreads, 1)
    fused_group_rows_ahead(const float* a, const float* v, float* partial, std::size_t rows, std::size_t columns,
                     PartWord* parts, int ahead) {
  group_rows_ahead<S, kBulk, kStages>(a, v, partial, rows, columns, parts, ahead);
}

// This step's kernels as a family, one per group size, way of copying and number of stages (step 10b
// picks its own family's kernels with the same functions).
template <int S, bool kBulk, int kStages>
struct AheadKernel {
  static const void* function() { return reinterpret_cast<const void*>(fused_group_rows_ahead<S, kBulk, kStages>); }
};

// The family's kernel for groups of `size` blocks.
template <template <int, bool, int> class Family, bool kBulk, int kStages>
const void* kernel_of_size(int size) {
  switch (size) {
    case 1: return Family<1, kBulk, kStages>::function();
    case 2: return Family<2, kBulk, kStages>::function();
    case 3: return Family<3, kBulk, kStages>::function();
    case 4: return Family<4, kBulk, kStages>::function();
    case 5: return Family<5, kBulk, kStages>::function();
    case 6: return Family<6, kBulk, kStages>::function();
    case 7: return Family<7, kBulk, kStages>::function();
    default: return Family<8, kBulk, kStages>::function();
  }
}

template <template <int, bool, int> class Family, bool kBulk>
const void* kernel_of_stages(int size, int stages) {
  switch (stages) {
    case 3: return kernel_of_size<Family, kBulk, 3>(size);
    case 4: return kernel_of_size<Family, kBulk, 4>(size);
    case 5: return kernel_of_size<Family, kBulk, 5>(size);
    case 6: return kernel_of_size<Family, kBulk, 6>(size);
    default: return kernel_of_size<Family, kBulk, kMostStages>(size);
  }
}

// The kernel for rows of `columns` elements, copied by the bulk copy engine or by thread, posting
// `ahead` rows ahead (its seventh argument) through `stages` stages (kFewestStages to kMostStages).
template <template <int, bool, int> class Family = AheadKernel>
inline group_rows::Kernel kernel_for(std::size_t columns, bool bulk_copies, int ahead, int stages) {
  const int size = group_rows::group_blocks(columns);
  return {bulk_copies ? kernel_of_stages<Family, true>(size, stages) : kernel_of_stages<Family, false>(size, stages),
          shared_bytes(stages), ahead};
}

// Whether to copy rows of `columns` elements with the bulk copy engine on this device.
inline bool use_bulk_copies(std::size_t columns, const course::DeviceFacts& device) {
  return device.compute_major >= 9 && columns % 4 == 0;
}

// The kernel a plan runs.
inline group_rows::Kernel kernel_of(std::size_t columns, const LaunchPlan& p) {
  return kernel_for(columns, p.bulk_copies, p.rows_ahead, p.stages);
}

// The stages a block keeps (--stages, or the step's choice), at least one applied, `ahead` posted and
// one in flight. Steps 09 to 11 share the rule.
// By default ahead + 3, or as many as a block's shared memory holds, where that is fewer.
inline int stages_for(const LaunchPlan& requested, const course::DeviceFacts& device) {
  matvec::require_stages_hold(requested);
  if (requested.stages > 0) return requested.stages;
  const int fit = static_cast<int>((device.shared_memory_per_block_optin - 1024) / shared_bytes(1));
  return std::max(requested.rows_ahead + 2, std::min(default_stages(requested.rows_ahead), fit));
}

inline void run_by_plan(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                        const LaunchPlan& p, void* scratch, cudaStream_t stream) {
  group_rows::run_by_plan(a, v, c, rows, columns, p, kernel_of(columns, p), scratch, stream);
}

// Rows that a block holds (1025 to 16384 columns) can also go to a group of blocks posting ahead. Which
// is faster depends on the GPU: how many bytes of A its memory needs in flight per SM to stream at
// full speed, against what each layout keeps in flight (a block's registers, loaded row by row; a
// group's stages, copied rows ahead). No device property gives that, so the plan measures it.
//
// When: while the step is planned, before any of its own runs, once per process for each GPU, row
// length and group kernel (the answer is kept; later plans reuse it). What it costs: a probe matrix of
// these rows, four times the L2 cache (or the matrix itself if smaller, so the probe is never cached),
// allocated and filled, then each layout run 9 times on it, 2 warm-up and 7 timed, interleaved and
// with the L2 cache evicted before each: 18 reads of the probe, and the faster median wins. Matrices
// under twice the L2 cache go to the block layout untimed: there the choice hardly matters, and the
// probe would cost more than it saves. `choice` says which of the two happened (LayoutChoice).
inline matvec::RowLayout measured_layout(std::size_t rows, std::size_t columns, const group_rows::Kernel& kernel,
                                         const course::DeviceFacts& device, const LaunchPlan& requested,
                                         matvec::LayoutChoice& choice) {
  using matvec::LayoutChoice;
  using matvec::RowLayout;
  const RowLayout group = group_rows::runnable_layout(columns, kernel, device);
  const std::size_t row_bytes = columns * sizeof(float);
  choice = LayoutChoice::kByLength;
  if (group == RowLayout::kAuto) return RowLayout::kBlock;  // no group of blocks runs here
  choice = static_cast<double>(rows) * row_bytes >= 2.0 * device.l2_bytes ? LayoutChoice::kProbed
                                                                          : LayoutChoice::kUnprobed;
  if (choice == LayoutChoice::kUnprobed) return RowLayout::kBlock;
  // (device, columns, the group kernel's copies, rows ahead and stages): the faster layout
  static std::map<std::tuple<int, std::size_t, bool, int, int>, RowLayout> kept;
  const auto key = std::make_tuple(device.id, columns, requested.bulk_copies, requested.rows_ahead, requested.stages);
  if (const auto found = kept.find(key); found != kept.end()) return found->second;
  const std::size_t probe_rows = matvec::smaller(rows, (4 * device.l2_bytes + row_bytes - 1) / row_bytes);
  LaunchPlan ways[2] = {fused_rows::warp_or_block_plan(columns, RowLayout::kBlock, device, requested),
                        group_rows::group_plan(probe_rows, columns, group, kernel, device, requested)};
  ways[1].bulk_copies = requested.bulk_copies;
  ways[1].rows_ahead = requested.rows_ahead;
  ways[1].stages = requested.stages;
  course::DeviceBuffer<float> a(probe_rows * columns, "probe matrix"), v(columns, "probe vector"),
      c(columns, "probe result");
  course::DeviceBuffer<unsigned char> scratch(std::max(ways[0].scratch_bytes, ways[1].scratch_bytes), "probe scratch");
  CUDA_CHECK(cudaMemset(a.data(), 0x3F, a.bytes()));  // every element 0.747: no zeros, no overflow
  CUDA_CHECK(cudaMemset(v.data(), 0x3F, v.bytes()));
  course::Stream stream;
  std::vector<std::function<void(cudaStream_t)>> runs;
  for (const LaunchPlan& way : ways)
    runs.push_back([&, way](cudaStream_t s) {
      group_rows::run_by_plan(a.data(), v.data(), c.data(), probe_rows, columns, way, kernel_of(columns, way),
                              scratch.data(), s);
    });
  course::TimingOptions timing;
  timing.warmup = 2;
  timing.reps = 7;
  const std::vector<course::TimingStats> times = course::time_gpu_interleaved(runs, timing, stream.get());
  const RowLayout faster = times[1].median_ms < times[0].median_ms ? group : RowLayout::kBlock;
  kept[key] = faster;
  return faster;
}

// Steps 09 to 11's plan for the rows of step 08's: step 08's plan with this step's kernel, the bulk
// copy engine where it can copy the rows (unless --no-bulk-copy), --rows-ahead and --stages; rows that
// a block holds go to the block layout or to a group of blocks, whichever measured_layout() finds faster
// on this GPU.
inline LaunchPlan plan_by_length(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                                 const LaunchPlan& requested) {
  LaunchPlan kernel_choice = requested;
  kernel_choice.bulk_copies = use_bulk_copies(columns, device) && !requested.no_bulk_copy;
  kernel_choice.stages = stages_for(requested, device);
  const group_rows::Kernel kernel = kernel_of(columns, kernel_choice);
  LaunchPlan asked = requested;
  matvec::LayoutChoice choice = matvec::LayoutChoice::kByLength;
  if (requested.layout == matvec::RowLayout::kAuto && fused_rows::short_row_layout(columns) == matvec::RowLayout::kBlock)
    asked.layout = measured_layout(rows, columns, kernel, device, kernel_choice, choice);
  LaunchPlan p = group_rows::plan_by_length(rows, columns, kernel, device, asked);
  p.layout_choice = choice;
  if (p.layout == matvec::RowLayout::kGroup || p.layout == matvec::RowLayout::kCluster) {
    p.bulk_copies = kernel_choice.bulk_copies;
    p.rows_ahead = kernel_choice.rows_ahead;
    p.stages = kernel_choice.stages;
  }
  return p;
}

}  // namespace ahead_rows
