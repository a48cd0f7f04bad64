// Lesson @NN@, step 01: the CPU, one element after another.
//
// The baseline every GPU step is measured against: one thread walks x once and writes y once, the
// least traffic the problem allows, so the table's GB/s compare like with like.
#include "@FILE@.h"

namespace {

void scale_and_shift(const float* x, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = 2.0f * x[i] + 1.0f;
}

}  // namespace

const @FILE@::Step @FILE@::kThisStep = {"01", "CPU sequential", "cpu", scale_and_shift, nullptr, nullptr};
