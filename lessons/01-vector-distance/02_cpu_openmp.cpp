// Lesson 01, step 02: CPU, every core, with OpenMP.
//
// What changed: one line. The M x K distances are independent, so `#pragma omp parallel for` hands
// the rows of C to the CPU's cores; each core runs step 01's loops over its share. Nothing is shared
// but the inputs, which are only read, so there is nothing to synchronize.
//
// What to expect: at best a speed-up by the number of threads the CPU runs at once. Each core still
// streams B once per row of A; the lesson's README shows the speed-up its 16-thread run gets.
//
// It runs at 2048 by default (4096 is 8 times the work, several seconds a run) and is compared with
// the other steps by rate.
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "distance.h"

namespace {

template <class T>
void distances(const T* a, const T* b, T* c, std::size_t m, std::size_t k, std::size_t n) {
  const long long rows = static_cast<long long>(m);
#pragma omp parallel for schedule(static)
  for (long long ii = 0; ii < rows; ++ii) {
    const std::size_t i = static_cast<std::size_t>(ii);
    for (std::size_t j = 0; j < k; ++j) {
      T sum = 0;
      for (std::size_t x = 0; x < n; ++x) {
        const T d = a[i * n + x] - b[j * n + x];
        sum += d * d;
      }
      c[i * k + j] = sum;
    }
  }
}

int threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

}  // namespace

const distance::Step distance::kThisStep = {
    "02", "CPU, all cores (OpenMP)", "cpu", distance::Form::Direct, 2048,
    distances<float>, distances<std::int32_t>, threads, nullptr, nullptr, nullptr};
