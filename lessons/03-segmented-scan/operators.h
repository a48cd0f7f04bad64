// Lesson 03, segmented scan: the four operators of the problem, for the CPU and the GPU alike.
//
// Each is a function object that combines an earlier value a with a later value b, and knows its
// identity e (op(e, x) = op(x, e) = x), which the scans that pad a tile or start a look-back need.
// All four are associative, which is all a parallel scan asks of an operator; with floating-point
// sums and products the association changes the rounding, which is why those results are checked
// within a tolerance (segmented_scan.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__)
#define SEGSCAN_HOST_DEVICE __host__ __device__
#else
#define SEGSCAN_HOST_DEVICE
#endif

namespace segscan {

/// The smallest value of T: -infinity for floating point, the most negative integer otherwise.
template <class T>
SEGSCAN_HOST_DEVICE constexpr T lowest_value() {
  if constexpr (std::is_floating_point<T>::value) return -static_cast<T>(INFINITY);
  else if constexpr (std::is_signed<T>::value) return sizeof(T) == 4 ? T(INT32_MIN) : T(INT64_MIN);
  else return T(0);
}

/// The largest value of T: +infinity for floating point, the largest integer otherwise.
template <class T>
SEGSCAN_HOST_DEVICE constexpr T highest_value() {
  if constexpr (std::is_floating_point<T>::value) return static_cast<T>(INFINITY);
  else if constexpr (std::is_signed<T>::value) return sizeof(T) == 4 ? T(INT32_MAX) : T(INT64_MAX);
  else return T(~T(0));
}

/// a + b (unsigned integers wrap around modulo 2^bits, as C++ defines).
struct Sum {
  template <class T>
  SEGSCAN_HOST_DEVICE T operator()(T a, T b) const { return a + b; }
  template <class T>
  SEGSCAN_HOST_DEVICE static constexpr T identity() { return T(0); }
};

/// The larger of a and b.
struct Max {
  template <class T>
  SEGSCAN_HOST_DEVICE T operator()(T a, T b) const { return a < b ? b : a; }
  template <class T>
  SEGSCAN_HOST_DEVICE static constexpr T identity() { return lowest_value<T>(); }
};

/// The smaller of a and b.
struct Min {
  template <class T>
  SEGSCAN_HOST_DEVICE T operator()(T a, T b) const { return b < a ? b : a; }
  template <class T>
  SEGSCAN_HOST_DEVICE static constexpr T identity() { return highest_value<T>(); }
};

/// a * b (unsigned integers wrap around modulo 2^bits).
struct Product {
  template <class T>
  SEGSCAN_HOST_DEVICE T operator()(T a, T b) const { return a * b; }
  template <class T>
  SEGSCAN_HOST_DEVICE static constexpr T identity() { return T(1); }
};

}  // namespace segscan
