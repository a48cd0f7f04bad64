// Lesson 01, step 10: step 09's kernel with each product made of three TF32 products (the story is
// in 10_tf32x3_split_products.cu).
#pragma once

#include <cstdint>

#include "09_tf32_tensor_cores.cuh"

namespace tf32x3_split_products {

using tf32_tensor_cores::Dots;
using tf32_tensor_cores::mma_tf32;
using tf32_tensor_cores::to_tf32;

// x = big + small: big is x rounded to TF32, small what that rounding left out, rounded to TF32 in its
// turn. x - big is exact in float32 (both share x's exponent range), so big + small carries about 22 of
// x's 24 bits.
__device__ inline void split(std::uint32_t x, std::uint32_t& big, std::uint32_t& small) {
  const float value = __uint_as_float(x);
  big = to_tf32(value);
  small = to_tf32(value - __uint_as_float(big));
}

// a.b = (a_big + a_small).(b_big + b_small), less the product of the two small parts (about 2^-22 of
// a.b): three mma per tile and depth of 8, the small ones first, into `sums`.
template <class Shape>
__device__ inline void add_three_products(Dots<Shape>& sums, const std::uint32_t a[Shape::kMmaTilesDown][4],
                                          const std::uint32_t b[Shape::kMmaTilesAcross][2]) {
  std::uint32_t b_big[Shape::kMmaTilesAcross][2], b_small[Shape::kMmaTilesAcross][2];
#pragma unroll
  for (int t = 0; t < Shape::kMmaTilesAcross; ++t)
#pragma unroll
    for (int e = 0; e < 2; ++e) split(b[t][e], b_big[t][e], b_small[t][e]);
#pragma unroll
  for (int r = 0; r < Shape::kMmaTilesDown; ++r) {
    std::uint32_t a_big[4], a_small[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) split(a[r][e], a_big[e], a_small[e]);
#pragma unroll
    for (int c = 0; c < Shape::kMmaTilesAcross; ++c) {
      mma_tf32(sums[r][c], a_small, b_big[c]);
      mma_tf32(sums[r][c], a_big, b_small[c]);
      mma_tf32(sums[r][c], a_big, b_big[c]);
    }
  }
}

// This step's Product. The tensor cores add a product into a large running sum less exactly than an
// FADD rounds (the accuracy report shows it against ThreeProductsIntoDots below), so the products of
// a slice go into sums of their own, small beside the running dots, and join them with one FADD per
// slice, rounded to nearest. With the slice's sums beside the dots a thread of the large tile needs
// 235 registers, so one block fits an SM, with four slices in turns.
struct ThreeProducts {
  static constexpr int kStages = 4, kBlocksPerSm = 1;
  template <class Shape>
  struct Sums {
    Dots<Shape> dots = {};
    Dots<Shape> slice = {};
  };
  template <class Shape>
  __device__ static void add(Sums<Shape>& sums, const std::uint32_t a[Shape::kMmaTilesDown][4],
                             const std::uint32_t b[Shape::kMmaTilesAcross][2]) {
    add_three_products<Shape>(sums.slice, a, b);
  }
  template <class Shape>
  __device__ static void end_slice(Sums<Shape>& sums) {
#pragma unroll
    for (int r = 0; r < Shape::kMmaTilesDown; ++r)
#pragma unroll
      for (int c = 0; c < Shape::kMmaTilesAcross; ++c)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          sums.dots[r][c][e] += sums.slice[r][c][e];
          sums.slice[r][c][e] = 0.0f;
        }
  }
};

// The same three products added straight into the dots, as step 09 adds its one: the accuracy report's
// column "10 without slice sums", which shows what the slice's sums are for.
struct ThreeProductsIntoDots {
  static constexpr int kStages = ThreeProducts::kStages, kBlocksPerSm = ThreeProducts::kBlocksPerSm;
  template <class Shape>
  using Sums = tf32_tensor_cores::OneProduct::Sums<Shape>;
  template <class Shape>
  __device__ static void add(Sums<Shape>& sums, const std::uint32_t a[Shape::kMmaTilesDown][4],
                             const std::uint32_t b[Shape::kMmaTilesAcross][2]) {
    add_three_products<Shape>(sums.dots, a, b);
  }
  template <class Shape>
  __device__ static void end_slice(Sums<Shape>&) {}
};

}  // namespace tf32x3_split_products
