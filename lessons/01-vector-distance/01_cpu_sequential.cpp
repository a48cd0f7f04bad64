// Lesson 01, step 01: CPU, sequential.
//
// The definition, written as three loops: for every row i of A and every row j of B, walk the N
// elements of both vectors and add up the squared differences. Both vectors are read in memory order.
// Nothing is reused between pairs: every element of B is read once for each row of A, M times in all,
// and one core does all M x K x N terms one after another, each sum waiting for the previous addition.
//
// It is the yardstick for every other step. At the ladder's 4096 x 4096 x 4096 it would take about a
// minute, so it runs at 1024 by default, and the tables compare it with the other steps by rate (terms
// per second).
#include <cstdint>

#include "distance.h"

namespace {

template <class T>
void distances(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n) {
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      T sum = 0;
      for (std::size_t x = 0; x < n; ++x) {
        const T d = a[i * n + x] - b[j * n + x];
        sum += d * d;
      }
      c[i * k + j] = sum;
    }
}

}  // namespace

const distance::Step distance::kThisStep = {
    "01", "CPU sequential", "cpu", distance::Form::Direct, 1024,
    distances<float>, distances<std::int32_t>, nullptr, nullptr, nullptr, nullptr};
