// Times exercise 02-B (min and max in one pass) on the default input and prints one course
// measurement; built against your code and against the solution.
#include <algorithm>

#include "exercise_support.h"
#include "min_max.h"

int main(int argc, char** argv) {
  return exercise02::bench_main<exercise02::MinMax>(
      argc, argv, "min and max in one pass", exercise02::min_max_scratch_bytes, exercise02::min_max,
      [](const exercise02::MinMax& got, const std::vector<float>& values) {
        const auto extremes = std::minmax_element(values.begin(), values.end());
        const float got_pair[2] = {got.min, got.max};
        const float expected_pair[2] = {*extremes.first, *extremes.second};
        return course::compare_exact(got_pair, expected_pair, 2);
      });
}
