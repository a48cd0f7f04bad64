/// @file test_sizes.h
/// @brief The sizes every lesson's tests try: small, odd, just off a power of two, a prime near a
/// million. None is a multiple of a typical tile, so boundary handling is always exercised.
#pragma once

#include <cstddef>
#include <vector>

namespace course {

/// 1, 2, 31, 33, 1000 and 999983 (the largest prime below a million).
inline const std::vector<std::size_t>& awkward_sizes() {
  static const std::vector<std::size_t> sizes{1, 2, 31, 33, 1000, 999983};
  return sizes;
}

/// Seeds the tests draw fresh data with.
inline const std::vector<unsigned long long>& test_seeds() {
  static const std::vector<unsigned long long> seeds{1, 2, 3};
  return seeds;
}

}  // namespace course
