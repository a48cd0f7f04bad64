// Times exercise 05-A (y = A^T x) at 16384 x 16384 and prints one course measurement; built against
// your code (exercise05_transpose_times_vector_bench) and against the solution.
#include "exercise_support.h"
#include "transpose_times_vector.h"

int main(int argc, char** argv) {
  return exercise05::bench_main(argc, argv, "y = A^T x, coalesced", true,
                                exercise05::transpose_times_vector_scratch_bytes, exercise05::transpose_times_vector);
}
