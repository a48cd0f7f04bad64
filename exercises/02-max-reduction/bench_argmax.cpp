// Times exercise 02-A (argmax) on the default input and prints one course measurement; built against
// your code (exercise02_argmax_bench) and against the solution (solution02_argmax_bench).
#include "argmax.h"
#include "exercise_support.h"

int main(int argc, char** argv) {
  return exercise02::bench_main<exercise02::ArgMax>(
      argc, argv, "argmax", exercise02::argmax_scratch_bytes, exercise02::argmax,
      [](const exercise02::ArgMax& got, const std::vector<float>& values) {
        std::size_t expected = 0;
        for (std::size_t i = 1; i < values.size(); ++i)
          if (values[i] > values[expected]) expected = i;
        const double got_pair[2] = {got.value, static_cast<double>(got.index)};
        const double expected_pair[2] = {values[expected], static_cast<double>(expected)};
        return course::compare_exact(got_pair, expected_pair, 2);
      });
}
