/// @file verify.h
/// @brief Comparing a result with its reference: exactly for integers (and for results that involve no
/// rounding, such as a maximum), within a stated tolerance for rounded floating-point results.
///
/// Every comparison reports the worst element, so a FAIL says where and by how much. NaN never passes,
/// which is why outputs are poisoned with NaN (0xFF bytes) before each run.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>

namespace course {

/// The outcome of a comparison.
struct Verdict {
  bool pass = true;             ///< every element matched
  std::size_t checked = 0;      ///< elements compared
  std::size_t mismatches = 0;   ///< elements outside the tolerance
  std::size_t worst_index = 0;  ///< flat index of the worst element (largest error over allowance)
  double got = 0.0;             ///< value found at worst_index
  double expected = 0.0;        ///< reference value at worst_index
  double error = 0.0;           ///< |got - expected| at worst_index (infinite for NaN)
  double allowed = 0.0;         ///< the tolerance at worst_index (0 for exact comparisons)

  /// One line: "PASS (n checked, exact)" or "FAIL: k of n differ, worst at [i]: got .., expected ..".
  /// When @p columns is non-zero the index is shown as [row][column] of a row-major matrix.
  std::string describe(std::size_t columns = 0) const;
};

/// Allowed difference |got - expected| <= absolute + relative * |expected|.
struct Tolerance {
  double absolute = 0.0;  ///< floor that covers values near zero
  double relative = 0.0;  ///< share of the reference's magnitude
};

/// Compares @p n values exactly. Integers must be equal; floating-point values must compare equal
/// (so NaN always fails). Use it for integer results and for exact float operations (max, min).
template <class T>
Verdict compare_exact(const T* got, const T* expected, std::size_t n) {
  Verdict v;
  v.checked = n;
  bool have_worst = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] == expected[i]) continue;
    ++v.mismatches;
    double g = static_cast<double>(got[i]);
    double e = static_cast<double>(expected[i]);
    double err = std::isnan(g) ? INFINITY : std::fabs(g - e);
    if (!have_worst || err > v.error) {
      have_worst = true;
      v.worst_index = i;
      v.got = g;
      v.expected = e;
      v.error = err;
    }
  }
  v.pass = v.mismatches == 0;
  return v;
}

/// Compares @p n rounded results with a (usually higher-precision) reference within @p tol.
/// The worst element is the one with the largest error relative to its allowance.
template <class T, class R>
Verdict compare_close(const T* got, const R* expected, std::size_t n, Tolerance tol) {
  static_assert(std::is_floating_point<T>::value, "compare_close is for floating-point results");
  Verdict v;
  v.checked = n;
  double worst_ratio = -1.0;
  for (std::size_t i = 0; i < n; ++i) {
    double g = static_cast<double>(got[i]);
    double e = static_cast<double>(expected[i]);
    double allowed = tol.absolute + tol.relative * std::fabs(e);
    double err = std::fabs(g - e);
    bool bad = !(err <= allowed);  // also true for NaN
    double ratio = std::isnan(err) ? INFINITY : (allowed > 0 ? err / allowed : (err > 0 ? INFINITY : 0));
    if (bad) ++v.mismatches;
    if (ratio > worst_ratio) {
      worst_ratio = ratio;
      v.worst_index = i;
      v.got = g;
      v.expected = e;
      v.error = std::isnan(err) ? INFINITY : err;
      v.allowed = allowed;
    }
  }
  v.pass = v.mismatches == 0;
  return v;
}

}  // namespace course
