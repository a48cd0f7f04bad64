// Times exercise 05-B (y = A x with 2D blocks) at 16384 x 16384 and prints one course measurement;
// built against your code (exercise05_times_vector_2d_bench) and against the solution.
#include "exercise_support.h"
#include "times_vector_2d.h"

int main(int argc, char** argv) {
  return exercise05::bench_main(
      argc, argv, "y = A x, 2D blocks", false, [](std::size_t, std::size_t) { return std::size_t(0); },
      [](const float* a, const float* x, float* y, std::size_t rows, std::size_t columns, void*, cudaStream_t s) {
        exercise05::times_vector_2d(a, x, y, rows, columns, s);
      });
}
