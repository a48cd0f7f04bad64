// Lesson 01, step 11: the products a.b on Hopper's warpgroup MMA, fed by the tensor memory
// accelerator (the story is in 11_tf32_warpgroup_tma.cu).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "08_norm_expansion.cuh"
#include "09_tf32_tensor_cores.cuh"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"

namespace warpgroup_tma {

// The instructions below exist only in code built for compute capability 9.0 with its
// architecture-specific features ("sm_90a"); any other build compiles them to nothing, and
// built_for_warpgroups() says so before anything runs.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define LESSON01_WARPGROUPS 1
#endif

constexpr int kTileCols = 128;  // rows of B per block (columns of C)
constexpr int kDepth = 32;      // elements per slice: one 128-byte line of a row

// A block of warpgroups of 128 threads, each on 64 rows of the tile, in kPipelines pipelines of kGroups
// warpgroups. A pipeline has kStagesPerPipeline stages of its own and takes every kPipelines-th slice
// of the depth (its first thread starts the copies); its warpgroups share each slice, each on its own
// 64 rows. Large problems: one pipeline of 4 warpgroups on 256 x 128 tiles (48 KB a stage). Where those
// would leave more than half the SMs idle: 64 x 128 tiles, the depth split between two pipelines of
// one warpgroup, whose sums are added at the end (twice the tensor-core work in flight per tile).
template <int kPipelines, int kGroups, int kStagesPerPipeline>
struct Tiles {
  static constexpr int kPipelineCount = kPipelines, kGroupsPerPipeline = kGroups, kStages = kStagesPerPipeline;
  static constexpr int kThreads = 128 * kPipelines * kGroups;
  static constexpr int kTileRows = 64 * kGroups;             // rows of A per block (of C, too)
  static constexpr int kBytesA = kTileRows * kDepth * 4;      // the slice of A
  static constexpr int kBytesB = kTileCols * kDepth * 4;      // 16 KB: the slice of B
  static constexpr int kStageBytes = kBytesA + kBytesB;
  static constexpr int kPipelineBytes = kStages * kStageBytes;
  static constexpr int kSharedBytes = kPipelines * kPipelineBytes + 1024;  // + room to align the stages to 1024 bytes
  static_assert(kPipelines == 1 || (kPipelines - 1) * 64 * 128 * kGroups * 4 <= kPipelines * kPipelineBytes,
                "the stages hold the partial sums of every pipeline but the first");
};
using LargeTiles = Tiles<1, 4, 4>;
using SmallTiles = Tiles<2, 1, 4>;

__device__ inline unsigned shared_address(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// A wgmma reads its operands from shared memory through a 64-bit descriptor (PTX ISA, "Matrix
// Descriptor Format" under the warpgroup-level matrix instructions); addresses and offsets are in
// units of 16 bytes, so each is shifted right by 4:
//   bits  0-13  where the operand starts in shared memory;
//   bits 16-29  the leading-dimension byte offset: unused by a swizzled operand whose rows hold the
//               depth (K-major), as ours do, and set to 1 by convention;
//   bits 32-45  the stride-dimension byte offset: from one group of 8 rows to the next, 8 rows of 128
//               bytes, 1024;
//   bits 62-63  the swizzle the TMA wrote, 1 for 128 bytes: 16-byte chunk c of row r lies at chunk
//               c ^ (r % 8) of the row, as step 09 placed it by hand.
// A slice is 32 floats deep, one 128-byte row; one wgmma takes 8 of them, 32 bytes. The kernel moves
// the start 32 bytes along the row for each of the 4 wgmma: the hardware applies the swizzle to the
// address it computes, whose row bits come from the 1024-byte aligned start of the stage, so an
// operand may start inside a swizzled row (the base-offset field, bits 49-51, stays 0 because the
// stages are aligned to 1024 bytes).
__device__ inline std::uint64_t descriptor(unsigned address) {
  return static_cast<std::uint64_t>((address & 0x3FFFF) >> 4) | (1ull << 16) |
         (static_cast<std::uint64_t>(1024 >> 4) << 32) | (1ull << 62);
}

// mbarriers in shared memory (PTX ISA, "mbarrier"): each counts the arrivals it still expects and, for
// the copies, the bytes still to land. When both reach zero the barrier completes its current phase
// and starts the next with the same count; the phases alternate in parity, 0, 1, 0, 1, and a wait
// names the parity of the phase it waits for. The kernel's stage s is used by slices s, s + kStages,
// s + 2 kStages, ...: slice i is the (i / kStages)-th use of its stage, so it waits for phase parity
// i / kStages % 2 of the stage's barriers.
__device__ inline void barrier_init(std::uint64_t* bar, int arrivals) {
#ifdef LESSON01_WARPGROUPS
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(shared_address(bar)), "r"(arrivals));
#endif
}
__device__ inline void barrier_expect_bytes(std::uint64_t* bar, int bytes) {
#ifdef LESSON01_WARPGROUPS
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(shared_address(bar)), "r"(bytes)
               : "memory");
#endif
}
__device__ inline void barrier_arrive(std::uint64_t* bar) {
#ifdef LESSON01_WARPGROUPS
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(bar)) : "memory");
#endif
}
// Waits until the barrier's phase of parity `parity` has completed.
__device__ inline void barrier_wait(std::uint64_t* bar, int parity) {
#ifdef LESSON01_WARPGROUPS
  asm volatile(
      "{\n.reg .pred done;\nWAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_%=;\n}\n" ::"r"(shared_address(bar)),
      "r"(parity)
      : "memory");
#endif
}

// One instruction asks the TMA for a box of 32 elements x `rows` rows of a matrix, starting at
// element x of row `row`; the bytes land swizzled, and count against `bar`. Rows and elements past the
// matrix arrive as zeros.
__device__ inline void copy_box(void* to, const CUtensorMap* map, int x, int row, std::uint64_t* bar) {
#ifdef LESSON01_WARPGROUPS
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          shared_address(to)),
      "l"(map), "r"(x), "r"(row), "r"(shared_address(bar))
      : "memory");
#endif
}

// d += A B^T for a 64 x 128 block of C and 8 elements of depth: one warpgroup-wide instruction. Each
// thread holds 64 of the block's sums: d[4 j + e] is row 16 w + lane / 4 + 8 (e / 2), column
// 8 j + 2 (lane % 4) + e % 2, for warp w of the warpgroup. After the two descriptors come scale-d, a
// predicate (p, set true here: add to d; false would overwrite it, for a first product into
// accumulators not set to zero), and imm-scale-a and imm-scale-b (1: A and B as they are; -1 would
// negate one). The instruction is asynchronous: it returns before its products are done (PTX ISA,
// "wgmma.mma_async").
__device__ inline void multiply_add(float (&d)[64], std::uint64_t a, std::uint64_t b) {
#ifdef LESSON01_WARPGROUPS
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
      "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, "
      "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b));
#endif
}
// wgmma.fence: before a wgmma reads or writes accumulators that other instructions of the warpgroup
// wrote or read (the zeroing of d, the last slice's wgmma), those accesses must be ordered before it.
// commit_group gathers the wgmma started since the last commit into a group, and wait_group 0 waits
// until every group is done, so that d may be read and the stage's slices reused.
__device__ inline void fence_accumulators() {
#ifdef LESSON01_WARPGROUPS
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ inline void commit_products() {
#ifdef LESSON01_WARPGROUPS
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
__device__ inline void wait_products() {
#ifdef LESSON01_WARPGROUPS
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
}

// The kernel: block b computes the Shape::kTileRows x kTileCols tile of C at row band b / tiles_across and
// column band b % tiles_across. The first thread of each pipeline keeps its stages in flight: it waits
// until a stage is empty, tells the stage's "full" barrier how many bytes to expect, and asks the TMA
// for the slices of A and B. Each warpgroup waits for a stage to be full, starts its 4 wgmma (8
// elements of depth each), waits for them, and marks the stage empty (one arrival per warp). Where the
// depth is split, the pipelines' sums meet in shared memory. Then the norms are added and C written,
// two neighbouring columns at a time where kPairs.
template <class Shape, bool kPairs>
__global__ void __launch_bounds__(Shape::kThreads)
    distances(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, float* c,
              std::size_t m, std::size_t k, std::size_t n, std::size_t tiles_across, const float* norms_a,
              const float* norms_b) {
  constexpr int kPipelines = Shape::kPipelineCount, kGroups = Shape::kGroupsPerPipeline, kStages = Shape::kStages;
  constexpr int kTileRows = Shape::kTileRows, kBytesA = Shape::kBytesA, kStageBytes = Shape::kStageBytes;
  constexpr int kPipelineThreads = 128 * kGroups;
  extern __shared__ unsigned char shared_raw[];
  unsigned char* shared =
      reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(shared_raw) + 1023) & ~std::uintptr_t(1023));
  __shared__ std::uint64_t full_all[kPipelines][kStages], empty_all[kPipelines][kStages];
  const int pipeline = threadIdx.x / kPipelineThreads;
  const bool producer = threadIdx.x % kPipelineThreads == 0;
  unsigned char* stages = shared + pipeline * Shape::kPipelineBytes;
  std::uint64_t* full = full_all[pipeline];
  std::uint64_t* empty = empty_all[pipeline];
  const std::size_t row0 = blockIdx.x / tiles_across * kTileRows, col0 = blockIdx.x % tiles_across * kTileCols;
  const int all_slices = static_cast<int>((n + kDepth - 1) / kDepth);
  // This pipeline's slices: pipeline, pipeline + kPipelines, ...
  const int slices = (all_slices - pipeline + kPipelines - 1) / kPipelines;
  if (producer) {
    for (int s = 0; s < kStages; ++s) {
      barrier_init(&full[s], 1);
      barrier_init(&empty[s], kPipelineThreads / 32);
    }
#ifdef LESSON01_WARPGROUPS
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
  }
  __syncthreads();
  auto start_slice = [&](int i) {  // the pipeline's i-th slice
    const int s = i % kStages, x = (pipeline + i * kPipelines) * kDepth;
    unsigned char* stage = stages + s * kStageBytes;
    barrier_expect_bytes(&full[s], kStageBytes);
    copy_box(stage, &map_a, x, static_cast<int>(row0), &full[s]);
    copy_box(stage + kBytesA, &map_b, x, static_cast<int>(col0), &full[s]);
  };
  if (producer)
    for (int i = 0; i < kStages && i < slices; ++i) start_slice(i);

  const int group = threadIdx.x % kPipelineThreads / 128;  // rows 64 group .. 64 group + 63 of the tile
  float d[64] = {};
  for (int i = 0; i < slices; ++i) {
    const int s = i % kStages;
    barrier_wait(&full[s], i / kStages % 2);
    unsigned char* stage = stages + s * kStageBytes;
    const unsigned a = shared_address(stage) + group * 64 * 128, b = shared_address(stage + kBytesA);
    fence_accumulators();
#pragma unroll
    for (int x = 0; x < kDepth / 8; ++x) multiply_add(d, descriptor(a + x * 32), descriptor(b + x * 32));
    commit_products();
    wait_products();
    if (threadIdx.x % 32 == 0) barrier_arrive(&empty[s]);
    if (producer && i + kStages < slices) {  // this stage again, once every warp is done with it
      barrier_wait(&empty[s], i / kStages % 2);
      start_slice(i + kStages);
    }
  }
  if constexpr (kPipelines > 1) {  // every pipeline but the first leaves its sums; the first adds them
    float* partial = reinterpret_cast<float*>(shared);
    const int t = threadIdx.x % kPipelineThreads;
    __syncthreads();  // every pipeline done with its stages, which the partial sums overwrite
    if (pipeline > 0)
#pragma unroll
      for (int e = 0; e < 64; ++e) partial[((pipeline - 1) * 64 + e) * kPipelineThreads + t] = d[e];
    __syncthreads();
    if (pipeline > 0) return;
#pragma unroll
    for (int p = 0; p < kPipelines - 1; ++p)
#pragma unroll
      for (int e = 0; e < 64; ++e) d[e] += partial[(p * 64 + e) * kPipelineThreads + t];
  }

  const int warp = threadIdx.x % 128 / 32, lane = threadIdx.x % 32;
#pragma unroll
  for (int half = 0; half < 2; ++half) {
    const std::size_t i = row0 + group * 64 + warp * 16 + lane / 4 + 8 * half;
    if (i >= m) continue;
    const float norm_a = norms_a[i];
#pragma unroll
    for (int jb = 0; jb < kTileCols / 8; ++jb) {
      const std::size_t j = col0 + 8 * jb + 2 * (lane % 4);
      const float* dot = d + 4 * jb + 2 * half;
      if (kPairs && j + 1 < k) {
        *reinterpret_cast<float2*>(c + i * k + j) = {norm_expansion::combine(norm_a, norms_b[j], dot[0]),
                                                      norm_expansion::combine(norm_a, norms_b[j + 1], dot[1])};
      } else {
        if (j < k) c[i * k + j] = norm_expansion::combine(norm_a, norms_b[j], dot[0]);
        if (j + 1 < k) c[i * k + j + 1] = norm_expansion::combine(norm_a, norms_b[j + 1], dot[1]);
      }
    }
  }
}

// 1 where this build's device code has the warpgroup instructions (built for sm_90a), else 0.
__global__ void probe_build(int* built) {
#ifdef LESSON01_WARPGROUPS
  *built = 1;
#else
  *built = 0;
#endif
}

// Whether this build has code for this GPU with the warpgroup instructions in it; asks the GPU once.
inline bool built_for_warpgroups() {
  static const bool built = [] {
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, probe_build) != cudaSuccess) {  // no code for this GPU at all
      (void)cudaGetLastError();
      return false;
    }
    int* flag = nullptr;
    CUDA_CHECK(cudaMalloc(&flag, sizeof(int)));
    probe_build<<<1, 1>>>(flag);
    CUDA_CHECK_LAUNCH();
    int host = 0;
    CUDA_CHECK(cudaMemcpy(&host, flag, sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(flag));
    return host == 1;
  }();
  return built;
}

// The driver's function that describes a matrix to the TMA, found at run time, so that the
// programs need no link to the driver library.
inline PFN_cuTensorMapEncodeTiled_v12000 encode_function() {
  static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || function == nullptr)
      throw course::NotSupportedError("this driver cannot describe matrices to the tensor memory accelerator");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  return encode;
}

// What wgmma is given. wgmma reads a float in shared memory as TF32 by ignoring its last 13 bits: a
// truncation, whose errors all lean toward zero. Rounded: the matrix is described to the TMA as TF32
// data, and the copy engine rounds each float to the nearest TF32 as it writes it, as step 09's
// cvt.rna and cuBLAS do (the step). Truncated: described as float32 and copied as it is, for the
// accuracy report's comparison.
enum class Inputs { Rounded, Truncated };

// A matrix of `rows` rows of n floats as the TMA sees it: boxes of 32 elements x `box_rows` rows,
// swizzled by 128 bytes, zeros past the edges.
inline CUtensorMap describe(const float* matrix, std::size_t rows, std::size_t n, int box_rows, Inputs inputs) {
  CUtensorMap map{};
  const cuuint64_t dims[2] = {n, rows};
  const cuuint64_t strides[1] = {n * sizeof(float)};
  const cuuint32_t box[2] = {kDepth, static_cast<cuuint32_t>(box_rows)};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUtensorMapDataType type =
      inputs == Inputs::Rounded ? CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  const CUresult result =
      encode_function()(&map, type, 2, const_cast<float*>(matrix), dims, strides, box, element_strides,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw course::CudaError("cuTensorMapEncodeTiled failed with driver error " + std::to_string(static_cast<int>(result)));
  return map;
}

// The TMA reads rows that start on 16-byte boundaries: n a multiple of 4 and A, B 16-byte aligned.
inline bool tma_rows(const float* a, const float* b, std::size_t n) {
  return n % 4 == 0 && reinterpret_cast<std::uintptr_t>(a) % 16 == 0 && reinterpret_cast<std::uintptr_t>(b) % 16 == 0;
}

inline std::size_t tiles_across(std::size_t k) { return (k + kTileCols - 1) / kTileCols; }
template <class Shape>
inline std::size_t tiles(std::size_t m, std::size_t k) {
  return (m + Shape::kTileRows - 1) / Shape::kTileRows * tiles_across(k);
}

// Everything launch() needs done once, outside the timed runs: a GPU of compute capability 9.0 and a
// build with the instructions for it (else NotSupportedError), M x K in one grid (else UsageError),
// the kernels' shared memory, the driver's encoder, and step 09's preparation for the rows its kernel
// takes. Returns the scratch bytes for M x K (the row norms).
inline std::size_t prepare(std::size_t m, std::size_t k, const course::DeviceFacts& device, const char* what) {
  if (device.compute_major != 9)
    throw course::NotSupportedError("wgmma and the tensor memory accelerator are instructions of compute capability "
                                    "9.0 (Hopper) only");
  if (!built_for_warpgroups())
    throw course::NotSupportedError("this build's GPU code is not for sm_90a, which has wgmma: build with "
                                    "CMAKE_CUDA_ARCHITECTURES=90");
  if (tiles<SmallTiles>(m, k) > 2147483647u) throw course::UsageError("M x K needs more than 2^31 - 1 tiles of 64 x 128");
  const auto allow = [&](auto shape) {
    using Shape = decltype(shape);
    for (const void* kernel : {reinterpret_cast<const void*>(distances<Shape, false>),
                               reinterpret_cast<const void*>(distances<Shape, true>)})
      course::require_shared_memory(kernel, Shape::kSharedBytes, device, what);
  };
  allow(LargeTiles{});
  allow(SmallTiles{});
  encode_function();
  return tf32_tensor_cores::prepare<tf32_tensor_cores::OneProduct>(m, k, device, what);
}

// Enqueues the kernel on tiles of `Shape`.
template <class Shape>
void launch_tiles(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                  const float* norms_a, const float* norms_b, Inputs inputs, cudaStream_t stream) {
  const CUtensorMap map_a = describe(a, m, n, Shape::kTileRows, inputs), map_b = describe(b, k, n, kTileCols, inputs);
  const unsigned blocks = static_cast<unsigned>(tiles<Shape>(m, k));
  const auto launch_with = [&](auto pairs) {
    distances<Shape, decltype(pairs)::value><<<blocks, Shape::kThreads, Shape::kSharedBytes, stream>>>(
        map_a, map_b, c, m, k, n, tiles_across(k), norms_a, norms_b);
  };
  if (k % 2 == 0 && reinterpret_cast<std::uintptr_t>(c) % 8 == 0)  // float2 stores: two columns at a time
    launch_with(std::true_type{});
  else
    launch_with(std::false_type{});
  CUDA_CHECK_LAUNCH();
}

// Enqueues the kernel, the row norms already enqueued into norms_a and norms_b: on large tiles where
// they give at least every other SM one, else on small ones. Rows the TMA cannot read go to step 09's
// kernel. prepare() has run.
inline void launch_products(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                            const float* norms_a, const float* norms_b, Inputs inputs, cudaStream_t stream) {
  if (!tma_rows(a, b, n)) {
    tf32_tensor_cores::launch_products<tf32_tensor_cores::OneProduct>(a, b, c, m, k, n, norms_a, norms_b, stream);
    return;
  }
  const std::size_t half_the_sms = static_cast<std::size_t>(tf32_tensor_cores::multiprocessors()) / 2;
  if (tiles<LargeTiles>(m, k) >= half_the_sms)
    launch_tiles<LargeTiles>(a, b, c, m, k, n, norms_a, norms_b, inputs, stream);
  else
    launch_tiles<SmallTiles>(a, b, c, m, k, n, norms_a, norms_b, inputs, stream);
}

// Enqueues the row norms (step 08's kernel, once for A and once for B), then the products
// (launch_products). `scratch` holds tf32_tensor_cores::scratch_bytes(m, k) bytes.
inline void launch(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                   void* scratch, cudaStream_t stream, Inputs inputs = Inputs::Rounded) {
  const norm_expansion::Norms<float> norms = norm_expansion::launch_norms(a, b, m, k, n, scratch, stream);
  launch_products(a, b, c, m, k, n, norms.a, norms.b, inputs, stream);
}

}  // namespace warpgroup_tma

#undef LESSON01_WARPGROUPS
