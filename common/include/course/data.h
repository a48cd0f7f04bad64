/// @file data.h
/// @brief Seeded, reproducible input data.
///
/// Values come from a counter-based generator: element i depends only on (seed, i), so the same seed
/// gives the same data on every machine and compiler, and large arrays are filled in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "course/splitmix.h"

namespace course {

/// A number mixed into the seed of every CounterRng: 0, so that a seed gives the same data everywhere,
/// unless a program sets another. `./course grade-class`'s judge sets a fresh one in every run, so that
/// the grading test's cases draw inputs that no submission has seen.
void set_seed_salt(std::uint64_t salt);
/// The salt set_seed_salt() set (0 by default).
std::uint64_t seed_salt();

/// A counter-based random generator: a stateless mix of (seed, index) into 64 random bits.
class CounterRng {
 public:
  /// @param seed any value; different seeds give unrelated streams
  explicit CounterRng(std::uint64_t seed) : key_(mix(seed ^ seed_salt() ^ 0x9E3779B97F4A7C15ull)) {}

  /// 64 random bits for position @p index.
  std::uint64_t bits(std::uint64_t index) const { return mix(key_ + mix(index)); }

  /// A double uniform in the open interval (0, 1) for position @p index (never 0, never 1).
  double open_unit(std::uint64_t index) const {
    // 52 random bits, centred in their cell: (k + 0.5) / 2^52 lies strictly inside (0, 1).
    return (static_cast<double>(bits(index) >> 12) + 0.5) * (1.0 / 4503599627370496.0);
  }

  /// The splitmix64 finaliser: a bijective mix of 64 bits.
  static std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }

 private:
  std::uint64_t key_;
};

/// @p n floats uniform in the open interval (@p low, @p high); neither bound ever occurs.
/// @throws std::invalid_argument unless low < high with at least one float strictly between them
std::vector<float> uniform_floats(std::size_t n, float low, float high, std::uint64_t seed);

/// @p n doubles uniform in the open interval (@p low, @p high).
/// @throws std::invalid_argument unless low < high with at least one double strictly between them
std::vector<double> uniform_doubles(std::size_t n, double low, double high, std::uint64_t seed);

/// @p n integers uniform in the closed range [@p low, @p high].
/// @throws std::invalid_argument unless low <= high
std::vector<std::int64_t> uniform_integers(std::size_t n, std::int64_t low, std::int64_t high,
                                           std::uint64_t seed);

}  // namespace course
