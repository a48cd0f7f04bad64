// Tests of lesson 05's step 13 (lesson05_13_gpus_all_reduce_test): C from a band of A's rows on each
// GPU and one all-reduce must match the double-precision reference within the lesson's tolerance, on
// one GPU and on every GPU of the machine (the two are the same test on a machine of one GPU; the
// CTest test "lesson05.13_gpus_all_reduce: ... on 2 GPUs" runs the program on two, or is skipped).
#include <catch2/catch.hpp>

#include <vector>

#include "13_gpus_all_reduce.h"
#include "course/gpus.h"
#include "course/test_sizes.h"
#include "course/verify.h"
#include "matvec.h"

namespace {

void require_matches(const matvec::Problem& p, int gpus) {
  const std::vector<double> expected = matvec::reference(p);
  const std::vector<float> got = gpus_rows::run_on_gpus(p, gpus);
  const course::Verdict v = course::compare_close(got.data(), expected.data(), p.columns, matvec::tolerance(p, expected));
  INFO("A " << p.rows << " x " << p.columns << " on " << (gpus == 0 ? course::gpu_count() : gpus) << " GPUs: "
            << v.describe());
  REQUIRE(v.pass);
}

}  // namespace

TEST_CASE("matches the reference on one GPU and on every GPU, at awkward shapes") {
  // Rows that do not divide among the GPUs (bands a row apart), short and long rows (step 11's warp,
  // block, group and wide layouts on each band), one row per GPU where there are as many rows.
  const int every = course::gpu_count();
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{
      {static_cast<std::size_t>(every), 1000}, {7, 1}, {333, 1000}, {1001, 20000}, {37, 70001}, {517, 4099}};
  for (auto [m, n] : shapes)
    for (int gpus : {1, 0}) require_matches(matvec::make_problem(m, n, m + n), gpus);
}

TEST_CASE("matches the reference at the default size on every GPU") {
  require_matches(matvec::make_problem(matvec::kDefaultRows, matvec::kDefaultColumns, 7), 0);
}

TEST_CASE("refuses more GPUs than rows, and more GPUs than the machine has, in one line") {
  const int every = course::gpu_count();
  REQUIRE_THROWS_WITH(gpus_rows::run_on_gpus(matvec::make_problem(3, 10, 1), every + 1),
                      "--gpus " + std::to_string(every + 1) + ": this machine has " + std::to_string(every) +
                          (every == 1 ? " GPU" : " GPUs"));
  if (every > 1)
    REQUIRE_THROWS_WITH(gpus_rows::run_on_gpus(matvec::make_problem(1, 10, 1), 2),
                        "--gpus 2: A has 1 rows, fewer than the GPUs (each needs at least one)");
}
