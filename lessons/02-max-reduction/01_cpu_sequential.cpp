// Lesson 02, step 01: CPU, sequential.
//
// The baseline every GPU step is measured against: one thread walks the array once and keeps the
// largest value seen. It reads each float exactly once, as every later step does, so the table's
// GB/s compare like with like. The loop carries a dependency through `best`: each comparison waits
// for the result of the one before, and that chain, not one core's memory bandwidth, sets its pace
// (step 02's vector lanes shorten the chain on one core alone).
#include <cmath>

#include "max_reduction.h"

namespace {

float max_sequential(const float* values, std::size_t n) {
  float best = -INFINITY;
  for (std::size_t i = 0; i < n; ++i)
    if (values[i] > best) best = values[i];
  return best;
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "01", "CPU sequential", "cpu", max_sequential, nullptr, nullptr};
