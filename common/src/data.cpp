#include "course/data.h"

#include <cmath>
#include <stdexcept>

namespace course {

namespace {
// Fills out[i] = make(i) for every i, in parallel when OpenMP is available (element i depends on i
// alone, so the split between threads cannot change the data).
template <class T, class Make>
std::vector<T> fill(std::size_t n, Make make) {
  std::vector<T> out(n);
  const long long count = static_cast<long long>(n);
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = make(static_cast<std::uint64_t>(i));
  return out;
}
}  // namespace

std::vector<float> uniform_floats(std::size_t n, float low, float high, std::uint64_t seed) {
  if (!(low < high)) throw std::invalid_argument("uniform_floats needs low < high");
  CounterRng rng(seed);
  const float inside_low = std::nextafter(low, high);
  const float inside_high = std::nextafter(high, low);
  return fill<float>(n, [&](std::uint64_t i) {
    double u = rng.open_unit(i);
    float x = static_cast<float>(low + (static_cast<double>(high) - low) * u);
    // Rounding to float can land on a bound; the interval is open, so step back inside.
    return x <= low ? inside_low : (x >= high ? inside_high : x);
  });
}

std::vector<double> uniform_doubles(std::size_t n, double low, double high, std::uint64_t seed) {
  if (!(low < high)) throw std::invalid_argument("uniform_doubles needs low < high");
  CounterRng rng(seed);
  const double inside_low = std::nextafter(low, high);
  const double inside_high = std::nextafter(high, low);
  return fill<double>(n, [&](std::uint64_t i) {
    double x = low + (high - low) * rng.open_unit(i);
    return x <= low ? inside_low : (x >= high ? inside_high : x);
  });
}

std::vector<std::int64_t> uniform_integers(std::size_t n, std::int64_t low, std::int64_t high,
                                           std::uint64_t seed) {
  if (low > high) throw std::invalid_argument("uniform_integers needs low <= high");
  CounterRng rng(seed);
  // The span as unsigned 64-bit; 0 stands for the full 2^64 range.
  const std::uint64_t span = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + 1;
  return fill<std::int64_t>(n, [&](std::uint64_t i) {
    std::uint64_t r = rng.bits(i);
    // Multiply-shift maps 64 random bits onto [0, span) with a bias below 2^-64 * span: negligible.
    std::uint64_t offset = span == 0 ? r : static_cast<std::uint64_t>((static_cast<unsigned __int128>(r) * span) >> 64);
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(low) + offset);
  });
}

}  // namespace course
