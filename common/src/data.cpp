#include "course/data.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace course {

namespace {
std::uint64_t salt = 0;
}  // namespace

void set_seed_salt(std::uint64_t value) { salt = value; }
std::uint64_t seed_salt() { return salt; }

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

namespace {
// n values uniform in the open interval (low, high), drawn in double precision and rounded to T.
template <class T>
std::vector<T> uniform_open(std::size_t n, T low, T high, std::uint64_t seed, const char* who) {
  if (!(low < high)) throw std::invalid_argument(std::string(who) + " needs low < high");
  CounterRng rng(seed);
  const T inside_low = std::nextafter(low, high);
  const T inside_high = std::nextafter(high, low);
  // Adjacent bounds leave nothing to return: stepping inside would land on the other bound.
  if (!(inside_low < high))
    throw std::invalid_argument(std::string(who) + " needs a value strictly between low and high");
  return fill<T>(n, [&](std::uint64_t i) {
    T x = static_cast<T>(low + (static_cast<double>(high) - low) * rng.open_unit(i));
    // Rounding can land on a bound; the interval is open, so step back inside.
    return x <= low ? inside_low : (x >= high ? inside_high : x);
  });
}
}  // namespace

std::vector<float> uniform_floats(std::size_t n, float low, float high, std::uint64_t seed) {
  return uniform_open<float>(n, low, high, seed, "uniform_floats");
}

std::vector<double> uniform_doubles(std::size_t n, double low, double high, std::uint64_t seed) {
  return uniform_open<double>(n, low, high, seed, "uniform_doubles");
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
