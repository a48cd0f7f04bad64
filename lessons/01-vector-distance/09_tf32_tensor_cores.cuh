// Lesson 01, step 09: the products a.b on tensor cores in TF32 (the story is in 09_tf32_tensor_cores.cu).
// Step 10 includes this header: it keeps the kernel and changes only how each product is made. Steps 11
// and 12 launch its kernel for rows the TMA cannot read; lesson01_register_tile_shapes uses its cp.async.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "08_norm_expansion.cuh"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/launch.h"

namespace tf32_tensor_cores {

constexpr int kDepth = 32;           // elements of each vector per slice: one 128-byte line of a row
constexpr int kChunks = kDepth / 4;  // 16-byte chunks in a row of a slice

// The tile of C a block computes, and how its warps share it; a warp's part is a grid of mma tiles
// of 16 x 8. The large tile, 128 x 128, has 8 warps 2 x 4, each 64 x 32 (4 x 4 mma tiles); the small
// one, for problems with fewer large tiles than the GPU has SMs, 64 x 64 with 4 warps 2 x 2, each
// 32 x 32 (2 x 4 mma tiles).
template <int kRows, int kWarpsDown, int kWarpsAcross>
struct TileShape {
  static constexpr int kTile = kRows;  // square: kTile rows of A and kTile rows of B
  static constexpr int kWarpsAcrossTile = kWarpsAcross;
  static constexpr int kThreads = 32 * kWarpsDown * kWarpsAcross;
  static constexpr int kWarpRows = kRows / kWarpsDown, kWarpCols = kRows / kWarpsAcross;
  static constexpr int kMmaTilesDown = kWarpRows / 16, kMmaTilesAcross = kWarpCols / 8;
};
using LargeTiles = TileShape<128, 2, 4>;
using SmallTiles = TileShape<64, 2, 2>;

// One slice of the rows of A and B, as they lie in memory: row r, elements x0 .. x0 + 31, in 8 chunks
// of 16 bytes. Chunk c of row r is kept at position c ^ (r % 8) of the row, so that the 8 rows one
// ldmatrix reads at a chunk lie in 8 different groups of banks.
template <class Shape>
struct Slice {
  alignas(128) float a[Shape::kTile][kDepth];
  alignas(128) float b[Shape::kTile][kDepth];
};

// Whether this code was compiled for a GPU with TF32 tensor cores, cp.async and ldmatrix (compute
// capability 8.0 or newer). A build for older GPUs (CMAKE_CUDA_ARCHITECTURES=75) compiles the
// instructions below to nothing, and require_tf32 refuses to run that code.
constexpr int kMinimumArchitecture = 80;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define LESSON01_NO_TENSOR_CORES 1
#endif

__device__ inline int swizzled(int row, int chunk) { return (chunk ^ (row % 8)) * 4; }

__device__ inline unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// An asynchronous copy of `bytes` (4 or 16) from global to shared memory; with `valid` false it fills
// the destination with zeros instead (a source size of 0), so rows and elements past the matrix add 0.
template <int kBytes>
__device__ inline void copy_async(void* to, const float* from, bool valid) {
  static_assert(kBytes == 4 || kBytes == 16, "cp.async copies 4, 8 or 16 bytes");
#ifndef LESSON01_NO_TENSOR_CORES
  const int source_bytes = valid ? kBytes : 0;
  if constexpr (kBytes == 16)  // .cg: past L1, as each line is read once per block
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(to)), "l"(from),
                 "r"(source_bytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(shared_address(to)), "l"(from),
                 "r"(source_bytes));
#endif
}
__device__ inline void commit_copies() {
#ifndef LESSON01_NO_TENSOR_CORES
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int kPending>
__device__ inline void wait_copies() {
#ifndef LESSON01_NO_TENSOR_CORES
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}

// Starts the copies of the slice at element x0 of rows row0.. of A and col0.. of B into `s`. With
// kVector (n a multiple of 4, rows 16-byte aligned) each chunk is one 16-byte copy, else 4 of 4 bytes.
template <class Shape, bool kVector>
__device__ inline void start_slice(Slice<Shape>& s, const float* a, const float* b, std::size_t m, std::size_t k,
                                   std::size_t n, std::size_t row0, std::size_t col0, std::size_t x0) {
  constexpr int kCopies = Shape::kTile * kChunks / Shape::kThreads;  // chunks per thread, per matrix
#pragma unroll
  for (int q = 0; q < kCopies; ++q) {
    const int index = threadIdx.x + q * Shape::kThreads;
    const int row = index / kChunks, chunk = index % kChunks;
    const std::size_t x = x0 + chunk * 4, i = row0 + row, j = col0 + row;
    float* to_a = &s.a[row][swizzled(row, chunk)];
    float* to_b = &s.b[row][swizzled(row, chunk)];
    if constexpr (kVector) {
      copy_async<16>(to_a, i < m && x < n ? a + i * n + x : a, i < m && x < n);
      copy_async<16>(to_b, j < k && x < n ? b + j * n + x : b, j < k && x < n);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e) {
        copy_async<4>(to_a + e, i < m && x + e < n ? a + i * n + x + e : a, i < m && x + e < n);
        copy_async<4>(to_b + e, j < k && x + e < n ? b + j * n + x + e : b, j < k && x + e < n);
      }
    }
  }
}

// ldmatrix reads four 8 x 8 matrices of 16-bit values, 8 rows of 16 bytes each: lane l gives the
// address of row l % 8 of matrix l / 8, and receives, of each matrix, the 4 bytes at row l / 4,
// bytes 4 (l % 4) .. + 3. Read as floats, each matrix is 8 rows x 4 floats, and lane l gets element
// [l / 4][l % 4]: the layout the TF32 mma wants for its fragments.
__device__ inline void load_matrices(const float* row_address, std::uint32_t out[4]) {
#ifdef LESSON01_NO_TENSOR_CORES
  out[0] = out[1] = out[2] = out[3] = 0;
#else
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
               : "r"(shared_address(row_address)));
#endif
}

// The fragments of A for the warp's tiles of 16 rows at depth x8 .. x8 + 7 of the slice. Of a 16 x 8
// tile, lane l holds [g][t], [g + 8][t], [g][t + 4] and [g + 8][t + 4], g = l / 4, t = l % 4: four
// 8 x 4 matrices, rows 0-7 and 8-15 at chunks x8 / 4 and x8 / 4 + 1.
template <class Shape>
__device__ inline void load_a_fragments(const Slice<Shape>& s, int warp_row0, int x8,
                                        std::uint32_t a[Shape::kMmaTilesDown][4]) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int t = 0; t < Shape::kMmaTilesDown; ++t) {
    const int row = warp_row0 + t * 16 + lane % 8 + (lane / 8 % 2) * 8;
    load_matrices(&s.a[row][swizzled(row, x8 / 4 + lane / 16)], a[t]);
  }
}

// The fragments of B for the warp's tiles of 8 columns: of an 8 x 8 tile (depth x column), lane l
// holds [t][g] and [t + 4][g], which in B's rows (a column of C is a row of B) are b[g][t] and
// b[g][t + 4]. One ldmatrix reads two tiles.
template <class Shape>
__device__ inline void load_b_fragments(const Slice<Shape>& s, int warp_col0, int x8,
                                        std::uint32_t b[Shape::kMmaTilesAcross][2]) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int t = 0; t < Shape::kMmaTilesAcross; t += 2) {
    const int row = warp_col0 + t * 8 + lane % 8 + (lane / 16) * 8;
    std::uint32_t four[4];
    load_matrices(&s.b[row][swizzled(row, x8 / 4 + lane / 8 % 2)], four);
    b[t][0] = four[0], b[t][1] = four[1], b[t + 1][0] = four[2], b[t + 1][1] = four[3];
  }
}

// A float rounded to TF32 (10 bits of mantissa instead of 23, to nearest, ties away from zero), kept
// in a 32-bit register as the mma instruction reads it.
__device__ inline std::uint32_t to_tf32(float x) {
#ifdef LESSON01_NO_TENSOR_CORES
  return __float_as_uint(x);
#else
  std::uint32_t rounded;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(rounded) : "f"(x));
  return rounded;
#endif
}

// d += a b for one 16 x 8 tile of C and 8 elements of depth, on the tensor cores: a is 16 x 8 (4
// registers a lane), b 8 x 8 (2), d 16 x 8 in float32 (4): lane l holds [g][2t], [g][2t + 1],
// [g + 8][2t], [g + 8][2t + 1].
__device__ inline void mma_tf32(float d[4], const std::uint32_t a[4], const std::uint32_t b[2]) {
#ifndef LESSON01_NO_TENSOR_CORES
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#endif
}

// The warp's sums of products: lane l's share of its mma tiles of 16 x 8.
template <class Shape>
using Dots = float[Shape::kMmaTilesDown][Shape::kMmaTilesAcross][4];

// How this step makes a.b for a warp's part: every input rounded to TF32, one mma per tile and depth of
// 8, added straight into the sums. Step 10 replaces this with three products. Two blocks fit an SM
// (the launch bounds hold a thread to 128 registers, without spills), each with two slices of 32 KB
// in turns.
struct OneProduct {
  static constexpr int kStages = 2, kBlocksPerSm = 2;
  template <class Shape>
  struct Sums {
    Dots<Shape> dots = {};
  };
  template <class Shape>
  __device__ static void add(Sums<Shape>& sums, const std::uint32_t a[Shape::kMmaTilesDown][4],
                             const std::uint32_t b[Shape::kMmaTilesAcross][2]) {
    std::uint32_t a32[Shape::kMmaTilesDown][4], b32[Shape::kMmaTilesAcross][2];
#pragma unroll
    for (int t = 0; t < Shape::kMmaTilesDown; ++t)
#pragma unroll
      for (int e = 0; e < 4; ++e) a32[t][e] = to_tf32(__uint_as_float(a[t][e]));
#pragma unroll
    for (int t = 0; t < Shape::kMmaTilesAcross; ++t)
#pragma unroll
      for (int e = 0; e < 2; ++e) b32[t][e] = to_tf32(__uint_as_float(b[t][e]));
#pragma unroll
    for (int r = 0; r < Shape::kMmaTilesDown; ++r)
#pragma unroll
      for (int c = 0; c < Shape::kMmaTilesAcross; ++c) mma_tf32(sums.dots[r][c], a32[r], b32[c]);
  }
  template <class Shape>
  __device__ static void end_slice(Sums<Shape>&) {}
};

// The kernel: block b computes the tile of C at row band b / tiles_across, column band
// b % tiles_across. Product::kStages slices take turns: while the warps multiply one, the copies of
// the next ones are in flight. Each round waits for the oldest slice, then one barrier says that it has landed
// for everyone and that nobody reads the slice the new copies will overwrite.
template <class Product, class Shape, bool kVectorLoads, bool kVectorStores>
__global__ void __launch_bounds__(Shape::kThreads, Product::kBlocksPerSm)
    distances(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
              std::size_t tiles_across, const float* norms_a, const float* norms_b) {
  constexpr int kMmaTilesDown = Shape::kMmaTilesDown, kMmaTilesAcross = Shape::kMmaTilesAcross;
  extern __shared__ __align__(128) unsigned char shared_bytes[];  // one array for every shape
  Slice<Shape>* slices = reinterpret_cast<Slice<Shape>*>(shared_bytes);  // Product::kStages of them
  const std::size_t row0 = blockIdx.x / tiles_across * Shape::kTile, col0 = blockIdx.x % tiles_across * Shape::kTile;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row0 = warp / Shape::kWarpsAcrossTile * Shape::kWarpRows;
  const int warp_col0 = warp % Shape::kWarpsAcrossTile * Shape::kWarpCols;
  const std::size_t slices_total = (n + kDepth - 1) / kDepth;

#pragma unroll
  for (int stage = 0; stage < Product::kStages - 1; ++stage) {
    if (static_cast<std::size_t>(stage) < slices_total)
      start_slice<Shape, kVectorLoads>(slices[stage], a, b, m, k, n, row0, col0, stage * std::size_t{kDepth});
    commit_copies();  // one group per slice, empty or not, so that the counting below holds
  }

  typename Product::template Sums<Shape> sums;
  for (std::size_t slice = 0; slice < slices_total; ++slice) {
    wait_copies<Product::kStages - 2>();  // this thread's copies of `slice` have landed...
    __syncthreads();             // ...and everyone's; and the slice before it is no longer read
    const std::size_t next = slice + Product::kStages - 1;
    if (next < slices_total)
      start_slice<Shape, kVectorLoads>(slices[next % Product::kStages], a, b, m, k, n, row0, col0, next * kDepth);
    commit_copies();
    const Slice<Shape>& s = slices[slice % Product::kStages];
#pragma unroll
    for (int x8 = 0; x8 < kDepth; x8 += 8) {
      std::uint32_t a_frag[kMmaTilesDown][4], b_frag[kMmaTilesAcross][2];
      load_a_fragments(s, warp_row0, x8, a_frag);
      load_b_fragments(s, warp_col0, x8, b_frag);
      Product::template add<Shape>(sums, a_frag, b_frag);
    }
    Product::template end_slice<Shape>(sums);
  }

  // The norms added, and C written: lane l holds columns 2 (l % 4) and 2 (l % 4) + 1 of rows l / 4 and
  // l / 4 + 8 of each tile.
#pragma unroll
  for (int r = 0; r < kMmaTilesDown; ++r)
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      const std::size_t i = row0 + warp_row0 + r * 16 + lane / 4 + half * 8;
      if (i >= m) continue;
      const float norm_a = norms_a[i];
#pragma unroll
      for (int t = 0; t < kMmaTilesAcross; ++t) {
        const std::size_t j = col0 + warp_col0 + t * 8 + lane % 4 * 2;
        const float* dot = &sums.dots[r][t][half * 2];
        if constexpr (kVectorStores) {  // k even and C 8-byte aligned: both columns or neither
          if (j < k)
            *reinterpret_cast<float2*>(c + i * k + j) = {norm_expansion::combine(norm_a, norms_b[j], dot[0]),
                                                         norm_expansion::combine(norm_a, norms_b[j + 1], dot[1])};
        } else {
          if (j < k) c[i * k + j] = norm_expansion::combine(norm_a, norms_b[j], dot[0]);
          if (j + 1 < k) c[i * k + j + 1] = norm_expansion::combine(norm_a, norms_b[j + 1], dot[1]);
        }
      }
    }
}

// Tiles of `Shape` for an m x k result; grid_blocks throws course::UsageError beyond what one grid
// can hold.
template <class Shape>
std::size_t tiles_across(std::size_t k) {
  return (k + Shape::kTile - 1) / Shape::kTile;
}
template <class Shape>
std::size_t tiles(std::size_t m, std::size_t k) {
  return (m + Shape::kTile - 1) / Shape::kTile * tiles_across<Shape>(k);
}
inline unsigned grid_blocks(std::size_t m, std::size_t k) {
  const std::size_t blocks = tiles<SmallTiles>(m, k);  // the most blocks either shape launches
  if (blocks > 2147483647u) throw course::UsageError("M x K needs more than 2^31 - 1 tiles of 64 x 64");
  return static_cast<unsigned>(blocks);
}

// The SMs of the current GPU, asked once (the plan asks first, outside the timed runs).
inline int multiprocessors() {
  static const int count = [] {
    int device = 0, sms = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return sms;
  }();
  return count;
}

// Whether the GPU has TF32 tensor cores (compute capability 8.0 or newer) and this build has code for
// them: a build for compute capability 7.5 runs on newer GPUs by JIT, but its kernel here is empty.
inline bool tf32_available(int compute_major) {
  if (compute_major * 10 < kMinimumArchitecture) return false;
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, distances<OneProduct, LargeTiles, false, false>));
  return attributes.ptxVersion >= kMinimumArchitecture;
}

// Throws course::NotSupportedError where tf32_available() is false.
inline void require_tf32(int compute_major) {
  if (compute_major * 10 < kMinimumArchitecture)
    throw course::NotSupportedError("TF32 tensor cores need compute capability 8.0 or newer");
  if (!tf32_available(compute_major))
    throw course::NotSupportedError("this build's GPU code is for compute capability below 8.0, which has no TF32 "
                                    "tensor cores: build with CMAKE_CUDA_ARCHITECTURES=80 or newer");
}

// Device scratch for the row norms of A and B (float32).
inline std::size_t scratch_bytes(std::size_t m, std::size_t k) { return norm_expansion::scratch_bytes<float>(m, k); }

// The dynamic shared memory of the kernel with `Product` on tiles of `Shape`: its slices.
template <class Product, class Shape>
constexpr int shared_bytes() {
  return Product::kStages * sizeof(Slice<Shape>);  // may pass the default 48 KB
}

// Raises the shared-memory limit of every kernel launch<Product> may pick on tiles of `Shape`
// (course::require_shared_memory: a GPU that cannot give that much skips the step, naming `what`).
template <class Product, class Shape>
void allow_shared_memory(const course::DeviceFacts& device, const char* what) {
  for (const void* kernel : {reinterpret_cast<const void*>(distances<Product, Shape, false, false>),
                             reinterpret_cast<const void*>(distances<Product, Shape, false, true>),
                             reinterpret_cast<const void*>(distances<Product, Shape, true, false>),
                             reinterpret_cast<const void*>(distances<Product, Shape, true, true>)})
    course::require_shared_memory(kernel, shared_bytes<Product, Shape>(), device, what);
}

// Everything launch<Product> needs done once, outside the timed runs: the GPU and this build can run
// TF32 (else NotSupportedError), M x K fits in one grid (else UsageError), the SM count is known, and
// every kernel it may pick may have its shared memory. Returns the scratch bytes for M x K.
template <class Product>
std::size_t prepare(std::size_t m, std::size_t k, const course::DeviceFacts& device, const char* what) {
  require_tf32(device.compute_major);
  grid_blocks(m, k);
  multiprocessors();
  allow_shared_memory<Product, LargeTiles>(device, what);
  allow_shared_memory<Product, SmallTiles>(device, what);
  return scratch_bytes(m, k);
}

// Enqueues the kernel on tiles of `Shape`.
template <class Product, class Shape>
void launch_tiles(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                  const float* norms_a, const float* norms_b, cudaStream_t stream) {
  const bool vector_loads = register_tiles::aligned_rows(a, n) && register_tiles::aligned_rows(b, n);
  const bool vector_stores = k % 2 == 0 && reinterpret_cast<std::uintptr_t>(c) % 8 == 0;
  const unsigned blocks = static_cast<unsigned>(tiles<Shape>(m, k));
  register_tiles::with_vector_flags(vector_loads, vector_stores, [&](auto loads, auto stores) {
    distances<Product, Shape, decltype(loads)::value, decltype(stores)::value>
        <<<blocks, Shape::kThreads, shared_bytes<Product, Shape>(), stream>>>(a, b, c, m, k, n, tiles_across<Shape>(k),
                                                                              norms_a, norms_b);
  });
  CUDA_CHECK_LAUNCH();
}

// Enqueues the kernel with `Product` making the products, the row norms already enqueued into norms_a
// and norms_b: on large tiles, or on small ones where the large tiles would be fewer than the GPU's
// SMs. prepare<Product> has run.
template <class Product>
void launch_products(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                     const float* norms_a, const float* norms_b, cudaStream_t stream) {
  grid_blocks(m, k);  // throws if M x K is beyond one grid
  if (tiles<LargeTiles>(m, k) < static_cast<std::size_t>(multiprocessors()))
    launch_tiles<Product, SmallTiles>(a, b, c, m, k, n, norms_a, norms_b, stream);
  else
    launch_tiles<Product, LargeTiles>(a, b, c, m, k, n, norms_a, norms_b, stream);
}

// Enqueues the row norms, then the products (launch_products). `scratch` holds scratch_bytes(m, k) bytes.
template <class Product>
void launch(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n, void* scratch,
            cudaStream_t stream) {
  const norm_expansion::Norms<float> norms = norm_expansion::launch_norms(a, b, m, k, n, scratch, stream);
  launch_products<Product>(a, b, c, m, k, n, norms.a, norms.b, stream);
}

}  // namespace tf32_tensor_cores

#undef LESSON01_NO_TENSOR_CORES
