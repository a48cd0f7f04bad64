// Lesson 05, step 10, rows too long for a group of blocks (N > 65536 columns): every block holds a
// slice of every row.
//
// The blocks share each row evenly: block b holds a slice of W columns, b W to b W + W - 1 (W is the
// row's length over the blocks, rounded up to whole 128-byte lines), and thread t of the block holds
// the slice's columns t, t + 512, ... (E = 1 to 16 of them) of R = 16 / E rows at a time, a group.
// Each block adds up its part of each B_i and posts it to global memory, then waits for all the other
// blocks' parts before it applies B_i. So every block waits for all the others at every group, and
// the grid goes at the pace of the block that holds most: hence even slices. A wait for every other
// block ends only if every block runs at once: a cooperative launch. Each column has one owner, which
// writes C directly.
//
// The rest is step 09's (09_rows_posted_ahead.cuh, 09_bulk_copy.cuh), with groups of rows for rows:
// the slices wait in shared memory, copied several groups ahead, so that reading goes on during the
// waits; a block posts its parts three groups before it needs the sums; the bulk copy engine copies a
// row's slice, one run of bytes, where rows start on 16-byte boundaries and a thread holds 8 or 16
// values of a row, and elsewhere every thread copies with cp.async. Only the copy functions below are
// the wide layout's own, since they fill its slots. A warp adds up each of the group's R rows on its
// own, with step 05's five shuffles: R x 5 shuffles a group (step 11 takes fewer).
//
// The cost: every group pays the same fixed work, a wait for all the blocks' parts, three barriers
// and the rows' shuffles, however many columns each thread holds; it weighs most at one column per
// thread.
#pragma once

#include <cuda_pipeline.h>

#include "05_coalesced_warps.cuh"
#include "09_bulk_copy.cuh"
#include "09_rows_posted_ahead.cuh"
#include "matvec_device.cuh"

namespace wide_rows {

// A group of R rows is 16 values per thread. The slices wait in shared memory, not registers, so that
// many groups can be in flight: asynchronous copies (cp.async) fill the stages while the block works
// on older ones.
constexpr int kThreads = 512;
constexpr int kValues = 16;  // E columns of each of R = 16 / E rows, per thread and group
constexpr int kMaxPerThread = 16;
// A block posts its parts of B for group g + ahead before it waits for group g's B: the waits of
// successive groups overlap instead of following one another. Of the stages, ahead + 1 hold posted
// groups and the rest are being filled: by default 3 groups ahead in 6 stages of 32 KB, two in flight
// (--rows-ahead and --stages, as in step 09; the launch's dynamic shared memory gives the stages).
constexpr std::size_t kStageBytes = static_cast<std::size_t>(kValues) * kThreads * sizeof(float);


// Each block posts its part of B_i for every row i as a matvec::PartWord numbered by the group (+ 1),
// and every block adds the same parts in the same order, so every block gets the same B_i, bit for
// bit. A lane reads the parts of up to kPartsPerLane blocks.
constexpr int kPartsPerLane = 8;
constexpr int kMaxBlocks = 32 * kPartsPerLane;

// The bulk copy engine copies a run of bytes per row of a group; the wide layout asks it only for
// long runs, at E = 8 and 16 values per thread (one or two rows per group, runs of up to 16 or 32 KB).
// --no-bulk-copy turns it off (bulk_allowed), to measure what it gives.
constexpr int kBulkMinValues = 8;

// Scratch of the wide layout: parts[i * blocks + block], zeroed before each launch (number 0: not posted).
using matvec::PartWord;

// W, the columns of each block's slice of a row: the row's length over the blocks, rounded up to a
// multiple of 32 floats, a 128-byte line, so that no line of A is split between two blocks (each
// would fetch it).
__host__ __device__ inline std::size_t slice_columns(std::size_t columns, unsigned blocks) {
  return (columns + 32 * blocks - 1) / (32 * blocks) * 32;
}

// E, the values of a row each thread holds: 1, 2, 4, 8, 16, or more where the grid is too small for
// the layout.
inline int values_per_thread(std::size_t columns, int blocks) {
  return matvec::values_per_thread(slice_columns(columns, static_cast<unsigned>(blocks)), kThreads);
}

// The column of this thread's value k: column threadIdx.x + k kThreads of this block's slice, or
// `columns` where that lies past the slice or the row.
__device__ inline std::size_t column_of(int k, std::size_t slice, std::size_t columns) {
  const std::size_t in_slice = threadIdx.x + static_cast<std::size_t>(k) * kThreads;
  const std::size_t j = blockIdx.x * slice + in_slice;
  return in_slice < slice && j < columns ? j : columns;
}

// Value (r, k) of this thread in a stage: only this thread writes and reads its own slots.
__device__ inline float* slot(float* stage, int r, int k, int E) {
  return stage + (static_cast<std::size_t>(r) * E + k) * kThreads + threadIdx.x;
}

// Starts the copies of this thread's columns of rows first_row .. first_row + R - 1 into a stage. The
// thread's columns first_column + k kThreads lie inside its slice and the matrix for k < held; its
// other slots stay zero.
template <int E, int R>
__device__ inline void copy_slices(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                   std::size_t first_column, int held, float* stage) {
  const bool whole_group = first_row + R <= rows;  // every group but perhaps the last
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const float* row = a + (first_row + r) * columns + first_column;
    if (whole_group || first_row + r < rows) {
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (k < held) __pipeline_memcpy_async(slot(stage, r, k, E), row + k * kThreads, sizeof(float));
    } else {
#pragma unroll
      for (int k = 0; k < E; ++k) *slot(stage, r, k, E) = 0.0f;  // a row past the end
    }
  }
  __pipeline_commit();
}

// The same copies, 16 bytes at a time, when every row starts on a 16-byte boundary (A aligned, N a
// multiple of 4). This way is new here: in step 09 a thread's 4 neighbouring columns are its own, but
// here a thread's columns lie kThreads apart, so a 16-byte copy holds 4 threads' values. Part (r, k)
// of a stage is kThreads consecutive columns of row r's slice; a quarter of the block copies it, so a
// thread copies 4 values of some other threads' columns: four copies per thread and group instead of
// sixteen. Whoever reads a stage must first pass a barrier. Pieces past the end of the slice or the
// row are never copied (zero since the start, like the slots above).
template <int E, int R>
__device__ inline void copy_slices_by_16(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                         std::size_t slice, float* stage) {
  constexpr int kPieces = kThreads / 4;  // of 16 bytes per part
  constexpr int kPerThread = R * E * kPieces / kThreads;
#pragma unroll
  for (int n = 0; n < kPerThread; ++n) {
    const int piece = threadIdx.x + n * kThreads;
    const int part = piece / kPieces, r = part / E, k = part % E, first = 4 * (piece % kPieces);
    const std::size_t in_slice = static_cast<std::size_t>(k) * kThreads + first;
    const std::size_t column = blockIdx.x * slice + in_slice;
    float* to = stage + static_cast<std::size_t>(part) * kThreads + first;
    if (first_row + r >= rows)
      *reinterpret_cast<float4*>(to) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // a row past the end
    else if (in_slice < slice && column < columns)
      __pipeline_memcpy_async(to, a + (first_row + r) * columns + column, 4 * sizeof(float));
  }
  __pipeline_commit();
}

// The same copies by the bulk copy engine (rows on 16-byte boundaries, rows first_row .. of A): thread
// 0 copies each row's slice, one run of bytes, into part r of the stage (the slots of its columns,
// side by side) and announces them all to the stage's barrier `landed`. Rows past the end are zero in
// every thread's own slots, as above.
template <int E, int R>
__device__ inline void copy_slices_bulk(const float* a, std::size_t first_row, std::size_t rows, std::size_t columns,
                                        std::size_t slice, float* stage, bulk_copy::Barrier* landed) {
  const std::size_t first = blockIdx.x * slice;  // this block's first column
  const unsigned run_bytes =
      first < columns ? static_cast<unsigned>(matvec::smaller(slice, columns - first) * sizeof(float)) : 0;
  const int present = static_cast<int>(matvec::smaller(R, rows - first_row));
  if (threadIdx.x == 0) {
    bulk_copy::expect(landed, present * run_bytes);
    if (run_bytes > 0)
      for (int r = 0; r < present; ++r)
        bulk_copy::start(stage + static_cast<std::size_t>(r) * E * kThreads, a + (first_row + r) * columns + first,
                         run_bytes, landed);
  }
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (r >= present)
#pragma unroll
      for (int k = 0; k < E; ++k) *slot(stage, r, k, E) = 0.0f;  // a row past the end
}

// The warps' sums of a group's R rows, into warp_sums[r][warp]: each row added up across the warp on
// its own, by step 05's shuffles (matvec::warp_sum, 5 per row), R x 5 shuffles a group. A type with
// one function, a template parameter of the kernel, so that step 11 can give the same kernel other sums.
struct EachRowSums {
  template <int R>
  __device__ static void add_up(float (&x)[R], float (*warp_sums)[32]) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const float sum = matvec::warp_sum(x[r]);  // in every lane
      if (lane == 0) warp_sums[r][warp] = sum;
    }
  }
};

// This block's parts of B for group g (rows g R .. g R + R - 1), posted for the other blocks.
template <int E, int R, class Sums>
__device__ inline void post_parts(float* stage, const float (&v_thread)[E], std::size_t g, std::size_t rows,
                                  PartWord* parts, float (*warp_sums)[32]) {
  float dot[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    dot[r] = 0.0f;
#pragma unroll
    for (int k = 0; k < E; ++k) dot[r] += *slot(stage, r, k, E) * v_thread[k];
  }
  Sums::add_up(dot, warp_sums);
  __syncthreads();
  const std::size_t i = g * R + threadIdx.x;
  if (threadIdx.x < R && i < rows) {
    float part = 0.0f;
    for (int w = 0; w < kThreads / 32; ++w) part += warp_sums[threadIdx.x][w];
    matvec::store_part(&parts[i * gridDim.x + blockIdx.x], matvec::make_part(g + 1, part));
  }
}

// Warp w < R of the block asks for the parts of row g R + w: the loads are issued now, and the words
// are looked at one group later, by which time they have usually arrived.
template <int R>
__device__ inline void ask_parts(PartWord* parts, std::size_t g, std::size_t rows, PartWord (&word)[kPartsPerLane]) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t i = g * R + warp;
  if (warp >= R || i >= rows) return;
#pragma unroll
  for (int q = 0; q < kPartsPerLane; ++q) {
    const unsigned block = lane + 32 * q;
    if (block < gridDim.x)
      word[q] = matvec::load_part(&parts[i * gridDim.x + block]);
  }
}

// B_i for the rows of group g, into b_group: warp w adds up row g R + w's parts once all are posted.
template <int R>
__device__ inline void gather_b(PartWord* parts, std::size_t g, std::size_t rows, PartWord (&word)[kPartsPerLane],
                                float* b_group) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (warp >= R) return;
  if (g * R + warp >= rows) {
    if (lane == 0) b_group[warp] = 0.0f;
    return;
  }
  const PartWord posted = static_cast<PartWord>(g + 1) << 32;
  const std::size_t i = g * R + warp;
  for (unsigned pause = 32;; pause = min(2 * pause, 1024u)) {
    bool all_posted = true;
#pragma unroll
    for (int q = 0; q < kPartsPerLane; ++q)
      if (lane + 32 * q < gridDim.x && (word[q] & ~0xffffffffull) != posted) all_posted = false;
    if (__all_sync(0xffffffffu, all_posted)) break;
    // Polls sparingly, and only for the parts still missing: the posters and the copies of A need the
    // same L2.
    __nanosleep(pause);
#pragma unroll
    for (int q = 0; q < kPartsPerLane; ++q) {
      const unsigned block = lane + 32 * q;
      if (block < gridDim.x && (word[q] & ~0xffffffffull) != posted)
        word[q] = matvec::load_part(&parts[i * gridDim.x + block]);
    }
  }
  float b = 0.0f;
#pragma unroll
  for (int q = 0; q < kPartsPerLane; ++q)
    if (lane + 32 * q < gridDim.x) b += __uint_as_float(static_cast<unsigned>(word[q]));
  b = matvec::warp_sum(b);
  if (lane == 0) b_group[warp] = b;
}

// Sums: how a warp adds up the group's rows (EachRowSums here, step 11's halving sums there).
template <int E, int kStages, class Sums>
__global__ void __launch_bounds__(kThreads, 1)
    fused_wide_rows(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, PartWord* parts,
                    bool bulk_allowed, int ahead) {
  constexpr int R = kValues / E;
  extern __shared__ float stage_memory[];  // kStages x R x E x kThreads
  __shared__ float warp_sums[R][32];
  __shared__ float b_group[2][R];  // by the group's parity: a group's B is written while the last is read
  __shared__ bulk_copy::Barrier stage_landed[kStages];  // with the bulk copy engine: a stage's rows are in
  const std::size_t slice = slice_columns(columns, gridDim.x);
  auto stage = [&](std::size_t g) { return stage_memory + (g % kStages) * kValues * kThreads; };
  float v_thread[E], c_thread[E] = {};
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = column_of(k, slice, columns);
    v_thread[k] = j < columns ? v[j] : 0.0f;
  }
  int columns_held = 0;  // how many of this thread's columns lie inside its slice and the matrix
  while (columns_held < E && column_of(columns_held, slice, columns) < columns) ++columns_held;
  for (int g = 0; g < kStages; ++g)
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int k = 0; k < E; ++k)
        if (k >= columns_held) *slot(stage(g), r, k, E) = 0.0f;  // never copied into: zero once
  const std::size_t groups = (rows + R - 1) / R;
  const bool by_16 = ahead_rows::rows_on_16_bytes(a, columns);
  const bool bulk = bulk_allowed && bulk_copy::available() && by_16 && E >= kBulkMinValues;
  ahead_rows::init_stage_barriers<kStages>(bulk, stage_landed);
  __syncthreads();  // the barriers are set up
  auto copy_group = [&](std::size_t g) {
    if (bulk) {
      if (g < groups) copy_slices_bulk<E, R>(a, g * R, rows, columns, slice, stage(g), &stage_landed[g % kStages]);
    } else if (by_16) {
      copy_slices_by_16<E, R>(a, g * R, rows, columns, slice, stage(g));
    } else {
      copy_slices<E, R>(a, g * R, rows, columns, column_of(0, slice, columns), columns_held, stage(g));
    }
  };
  auto wait_group = [&](std::size_t g) { ahead_rows::wait_stage<kStages>(bulk, stage_landed, g, ahead); };
  for (int g = 0; g < kStages - 1; ++g) copy_group(g);
  for (std::size_t g = 0; g <= static_cast<std::size_t>(ahead) && g < groups; ++g) wait_group(g);  // 0 .. ahead in
  __syncthreads();  // and the other threads' copies too
  for (std::size_t g = 0; g < static_cast<std::size_t>(ahead) && g < groups; ++g) {
    post_parts<E, R, Sums>(stage(g), v_thread, g, rows, parts, warp_sums);
    __syncthreads();  // warp_sums is read before it is written again
  }
  PartWord word[kPartsPerLane] = {};
  ask_parts<R>(parts, 0, rows, word);
  for (std::size_t g = 0; g < groups; ++g) {
    if (g > 0) {
      if (g + ahead < groups) wait_group(g + ahead);
      __syncthreads();  // everyone's copies have arrived, and everyone is done with group g - 1
    }
    copy_group(g + kStages - 1);  // into the stage of g - 1
    if (g + ahead < groups) post_parts<E, R, Sums>(stage(g + ahead), v_thread, g + ahead, rows, parts, warp_sums);
    gather_b<R>(parts, g, rows, word, b_group[g % 2]);  // waits until every block has posted group g
    __syncthreads();
    ask_parts<R>(parts, g + 1, rows, word);  // in flight while this group is applied
    float* held = stage(g);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const float b_r = b_group[g % 2][r];
#pragma unroll
      for (int k = 0; k < E; ++k) c_thread[k] += b_r * *slot(held, r, k, E);
    }
  }
  if (!bulk) __pipeline_wait_prior(0);  // no copy outlives the block (every bulk copy was waited for)
#pragma unroll
  for (int k = 0; k < E; ++k) {
    const std::size_t j = column_of(k, slice, columns);
    if (j < columns) c[j] = c_thread[k];  // each column has one owner: C directly, no partials
  }
}

template <int kStages, class Sums>
const void* kernel_e(int e) {
  switch (e) {
    case 1: return reinterpret_cast<const void*>(fused_wide_rows<1, kStages, Sums>);
    case 2: return reinterpret_cast<const void*>(fused_wide_rows<2, kStages, Sums>);
    case 4: return reinterpret_cast<const void*>(fused_wide_rows<4, kStages, Sums>);
    case 8: return reinterpret_cast<const void*>(fused_wide_rows<8, kStages, Sums>);
    default: return reinterpret_cast<const void*>(fused_wide_rows<16, kStages, Sums>);
  }
}

// The kernel for E values per thread and row, with `stages` stages (3 to 7, as step 09's).
template <class Sums>
const void* kernel_for(int e, int stages) {
  switch (stages) {
    case 3: return kernel_e<3, Sums>(e);
    case 4: return kernel_e<4, Sums>(e);
    case 5: return kernel_e<5, Sums>(e);
    case 6: return kernel_e<6, Sums>(e);
    default: return kernel_e<ahead_rows::kMostStages, Sums>(e);
  }
}

// The scratch of the parts: one word per row and block.
inline std::size_t scratch_bytes(std::size_t rows, int blocks) {
  return rows * static_cast<std::size_t>(blocks) * sizeof(PartWord);
}

// C directly; `scratch` holds scratch_bytes(rows, blocks) and is zeroed here.
// bulk_allowed: false copies every row by thread (--no-bulk-copy), to measure what the engine gives.
// `stages` groups of rows in shared memory (3 to 7), `ahead` of them posted.
template <class Sums>
void launch(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, int blocks,
            bool bulk_allowed, int ahead, int stages, void* scratch, cudaStream_t stream) {
  PartWord* parts = static_cast<PartWord*>(scratch);
  CUDA_CHECK(cudaMemsetAsync(parts, 0, scratch_bytes(rows, blocks), stream));  // nothing posted yet
  const int e = values_per_thread(columns, blocks);
  void* arguments[] = {&a, &v, &c, &rows, &columns, &parts, &bulk_allowed, &ahead};
  CUDA_CHECK(cudaLaunchCooperativeKernel(kernel_for<Sums>(e, stages), dim3(blocks), dim3(kThreads), arguments,
                                         stages * kStageBytes, stream));
}

// --- the plan and the launcher, for the kernels with Sums (step 11 runs them with its own) ---

using matvec::LaunchPlan;

// The wide layout: one block per SM (or --blocks), all resident at once. Falls back to two passes
// when it cannot run, unless it was asked for by name.
template <class Sums>
LaunchPlan wide_plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                      const LaunchPlan& requested) {
  LaunchPlan p;
  p.layout = matvec::RowLayout::kWide;
  p.threads = wide_rows::kThreads;
  p.blocks = requested.blocks > 0 ? requested.blocks : device.multiprocessors;
  const bool by_name = requested.layout == matvec::RowLayout::kWide;
  int e = wide_rows::values_per_thread(columns, p.blocks);
  if (!device.cooperative_launch && by_name)
    throw course::NotSupportedError(device.name + " does not support cooperative launches, which --layout wide needs");
  if (!device.cooperative_launch || (e > wide_rows::kMaxPerThread && !by_name))
    return fused_rows::two_passes(rows, columns, device);
  p.rows_ahead = requested.rows_ahead;
  p.stages = ahead_rows::stages_for(requested, device);
  const std::size_t shared_bytes = p.stages * kStageBytes;
  const void* kernel = wide_rows::kernel_for<Sums>(e, p.stages);
  course::require_shared_memory(kernel, shared_bytes, device, "the wide layout");
  p.blocks = course::cooperative_grid_blocks(kernel, p.threads, shared_bytes, p.blocks, device);
  e = wide_rows::values_per_thread(columns, p.blocks);
  if (e > wide_rows::kMaxPerThread || p.blocks > wide_rows::kMaxBlocks) {
    if (!by_name) return fused_rows::two_passes(rows, columns, device);
    if (p.blocks > wide_rows::kMaxBlocks)
      throw course::UsageError("--layout wide takes at most " + std::to_string(wide_rows::kMaxBlocks) + " blocks, not " +
                               std::to_string(p.blocks));
    throw course::UsageError("--layout wide: a grid of " + std::to_string(p.blocks) + " blocks holds rows of at most " +
                             std::to_string(static_cast<std::size_t>(p.blocks) * p.threads * wide_rows::kMaxPerThread) +
                             " columns, not " + std::to_string(columns));
  }
  p.bulk_copies = !requested.no_bulk_copy;  // the kernel also checks the GPU, the alignment and the run length
  p.scratch_bytes = wide_rows::scratch_bytes(rows, p.blocks);
  return p;
}

// Step 10's plan, by the row's length or --layout: step 09's layouts up to 65536 columns (where a
// group of blocks runs here), the wide layout beyond.
template <class Sums = EachRowSums>
LaunchPlan plan_by_length(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                          const LaunchPlan& requested) {
  using matvec::RowLayout;
  if (requested.layout == RowLayout::kWide) return wide_plan<Sums>(rows, columns, device, requested);
  if (requested.layout != RowLayout::kAuto || columns <= group_rows::kMaxColumns) {
    const LaunchPlan p = ahead_rows::plan_by_length(rows, columns, device, requested);
    if (p.parts == 0 || requested.layout != RowLayout::kAuto) return p;
  }
  return wide_plan<Sums>(rows, columns, device, requested);  // longer rows, or no group of blocks runs here
}

template <class Sums = EachRowSums>
void run_by_plan(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns, const LaunchPlan& p,
                 void* scratch, cudaStream_t stream) {
  if (p.layout == matvec::RowLayout::kWide)  // C directly
    launch<Sums>(a, v, c, rows, columns, p.blocks, p.bulk_copies, p.rows_ahead, p.stages, scratch, stream);
  else
    ahead_rows::run_by_plan(a, v, c, rows, columns, p, scratch, stream);
}

}  // namespace wide_rows
