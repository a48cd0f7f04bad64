// Tests of lesson 02's step 11 (lesson02_11_gpus_all_reduce_test): the largest of the GPUs' maxima,
// after one all-reduce, must be the array's largest exactly, on one GPU and on every GPU of the machine
// (the same test on a machine of one GPU; the CTest test "lesson02.11_gpus_all_reduce: ... on 2 GPUs"
// runs the program on two, or is skipped).
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "11_gpus_all_reduce.h"
#include "course/data.h"
#include "course/gpus.h"

TEST_CASE("finds the largest exactly on one GPU and on every GPU, wherever it lies") {
  // Sizes that do not divide among the GPUs (shares an element apart), one element per GPU, and the
  // largest placed in the first, the last and a middle share.
  const int every = course::gpu_count();
  for (std::size_t n : {static_cast<std::size_t>(every), std::size_t{7}, std::size_t{1000003}, std::size_t{40960000}})
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<float> values = course::uniform_floats(n, -1.0f, 1.0f, n + at);
      values[at] = 2.0f;
      for (int gpus : {1, 0}) {
        INFO(n << " floats, the largest at " << at << ", on " << (gpus == 0 ? every : gpus) << " GPUs");
        REQUIRE(gpus_max::run_on_gpus(values, gpus) == 2.0f);
      }
    }
}

TEST_CASE("refuses more GPUs than elements, and more GPUs than the machine has, in one line") {
  const int every = course::gpu_count();
  REQUIRE_THROWS_WITH(gpus_max::run_on_gpus(std::vector<float>(3, 1.0f), every + 1),
                      "--gpus " + std::to_string(every + 1) + ": this machine has " + std::to_string(every) +
                          (every == 1 ? " GPU" : " GPUs"));
  if (every > 1)
    REQUIRE_THROWS_WITH(gpus_max::run_on_gpus(std::vector<float>(1, 1.0f), 2),
                        "--gpus 2: the array has 1 elements, fewer than the GPUs (each needs at least one)");
}
