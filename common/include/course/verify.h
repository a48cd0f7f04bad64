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

/// The outcome of a comparison, built one element at a time by add() or add_mismatch().
struct Verdict {
  bool pass = true;             ///< every element matched
  std::size_t checked = 0;      ///< elements compared
  std::size_t mismatches = 0;   ///< elements outside the tolerance
  std::size_t worst_index = 0;  ///< flat index of the worst element (largest error over allowance)
  double got = 0.0;             ///< value found at worst_index
  double expected = 0.0;        ///< reference value at worst_index
  double error = 0.0;           ///< |got - expected| at worst_index (infinite for NaN)
  double allowed = 0.0;         ///< the tolerance at worst_index (0 for exact comparisons)
  double share = -1.0;          ///< error over allowance at worst_index (infinite past a zero one); -1: none yet

  /// Weighs element @p index: a mismatch unless |got - expected| <= @p allowed (NaN never is), and the
  /// worst so far when its error over its allowance is the largest yet (the larger error among equals).
  /// Does not count it in `checked`, which the comparison sets.
  void add(std::size_t index, double got_value, double expected_value, double allowance) {
    add(index, got_value, expected_value, allowance, std::fabs(got_value - expected_value));
  }
  /// add() with |got - expected| as the caller computed it, in a wider type than double.
  void add(std::size_t index, double got_value, double expected_value, double allowance, double difference) {
    weigh(index, got_value, expected_value, allowance, difference, !(difference <= allowance));
  }
  /// Weighs element @p index of an exact comparison, known to differ from its reference: always a
  /// mismatch, even where the two are the same number once converted to double (64-bit integers).
  void add_mismatch(std::size_t index, double got_value, double expected_value) {
    weigh(index, got_value, expected_value, 0.0, std::fabs(got_value - expected_value), true);
  }

  /// One line: "PASS (n checked, exact)" or "FAIL: k of n differ, worst at [i]: got .., expected ..".
  /// When @p columns is non-zero the index is shown as [row][column] of a row-major matrix.
  std::string describe(std::size_t columns = 0) const;

 private:
  // Counts a mismatch when @p bad; keeps the element as the worst when its share (error over allowance,
  // infinite for a mismatch with none) is the largest yet, or as large with a larger error.
  void weigh(std::size_t index, double got_value, double expected_value, double allowance, double difference,
             bool bad) {
    if (bad) {
      ++mismatches;
      pass = false;
    }
    const double err = std::isnan(difference) ? INFINITY : difference;
    const double s = bad && !(allowance > 0) ? INFINITY : (allowance > 0 ? err / allowance : 0.0);
    if (s > share || (s == share && err > error)) {
      share = s;
      worst_index = index;
      got = got_value;
      expected = expected_value;
      error = err;
      allowed = allowance;
    }
  }
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
  for (std::size_t i = 0; i < n; ++i)
    if (!(got[i] == expected[i])) v.add_mismatch(i, static_cast<double>(got[i]), static_cast<double>(expected[i]));
  return v;
}

/// Compares @p n rounded results with a (usually higher-precision) reference within @p tol.
/// The worst element is the one with the largest error relative to its allowance.
template <class T, class R>
Verdict compare_close(const T* got, const R* expected, std::size_t n, Tolerance tol) {
  static_assert(std::is_floating_point<T>::value, "compare_close is for floating-point results");
  Verdict v;
  v.checked = n;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = static_cast<double>(expected[i]);
    v.add(i, static_cast<double>(got[i]), e, tol.absolute + tol.relative * std::fabs(e));
  }
  return v;
}

}  // namespace course
