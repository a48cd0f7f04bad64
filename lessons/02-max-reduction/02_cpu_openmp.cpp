// Lesson 02, step 02: CPU, every core and vector instructions, with OpenMP.
//
// What changed: one line. `#pragma omp parallel for simd reduction(max : best)` splits the array
// among the CPU's cores; each core keeps its own running maximum, in several vector lanes at once
// (simd), and OpenMP combines the cores' maxima at the end. Nothing is shared while the loop runs.
//
// Why it is faster: step 01 is one chain of comparisons, each waiting for the last. Here every core
// runs its own chains, each over several lanes, so the loop is limited by how fast the cores can read
// memory rather than by one comparison's latency. The table "step 02 on every core and on one
// thread" measures the two ideas apart: on one thread (--cpu-threads 1) the vector lanes alone, and
// every core on top of them.
//
// It is the fair CPU baseline: the ladder shows every GPU step's speed-up over it as well as over
// step 01.
#include <cmath>

#include "max_reduction.h"

namespace {

float max_all_cores(const float* values, std::size_t n) {
  float best = -INFINITY;
  const long long count = static_cast<long long>(n);
#pragma omp parallel for simd reduction(max : best) schedule(static)
  for (long long i = 0; i < count; ++i) best = values[i] > best ? values[i] : best;
  return best;
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "02", "CPU, all cores and SIMD (OpenMP)", "cpu", max_all_cores, nullptr, nullptr, true};
