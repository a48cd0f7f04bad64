// Tests of a lesson's ladder: the speed-ups over the previous step and the CPU, and its printed table.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "course/ladder.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

TEST_CASE("ladder speed-ups use the previous timed step and the first CPU step") {
  std::vector<course::Measurement> steps{timed("01", "cpu", 100.0), timed("02", "cpu", 50.0),
                                         timed("03", "gpu", 10.0), timed("04", "gpu", 2.0)};
  auto rows = course::make_ladder(steps);
  REQUIRE(rows.size() == 4);
  REQUIRE(rows[0].speedup_previous == 0);  // nothing before it
  REQUIRE(rows[0].speedup_cpu == Approx(1.0));
  REQUIRE(rows[1].speedup_previous == Approx(2.0));
  REQUIRE(rows[1].speedup_cpu == Approx(2.0));  // over the first CPU step, not the latest
  REQUIRE(rows[2].speedup_previous == Approx(5.0));
  REQUIRE(rows[2].speedup_cpu == Approx(10.0));
  REQUIRE(rows[3].speedup_previous == Approx(5.0));
  REQUIRE(rows[3].speedup_cpu == Approx(50.0));
  REQUIRE(rows[3].m.title == "step 04");
}

TEST_CASE("skipped and failed steps are not used as baselines") {
  std::vector<course::Measurement> steps{timed("01", "cpu", 100.0), timed("02", "gpu", 10.0),
                                         timed("03", "gpu", 0.0, "SKIP"), timed("04", "gpu", 1.0, "FAIL"),
                                         timed("05", "gpu", 2.0)};
  auto rows = course::make_ladder(steps);
  REQUIRE(rows[2].speedup_previous == 0);  // skipped: no time
  REQUIRE(rows[2].speedup_cpu == 0);
  REQUIRE(rows[3].speedup_previous == 0);  // failed: no speed-up claimed
  REQUIRE(rows[3].speedup_cpu == 0);
  REQUIRE(rows[4].speedup_previous == Approx(5.0));  // over step 02, the last one that passed
  REQUIRE(rows[4].speedup_cpu == Approx(50.0));
}

TEST_CASE("a failed CPU step is not the CPU baseline") {
  std::vector<course::Measurement> steps{timed("01", "cpu", 1.0, "FAIL"), timed("02", "cpu", 100.0),
                                         timed("03", "gpu", 4.0)};
  auto rows = course::make_ladder(steps);
  REQUIRE(rows[0].speedup_cpu == 0);
  REQUIRE(rows[1].speedup_cpu == Approx(1.0));
  REQUIRE(rows[1].speedup_previous == 0);
  REQUIRE(rows[2].speedup_cpu == Approx(25.0));
}

TEST_CASE("a ladder without a CPU step has no CPU speed-ups") {
  auto rows = course::make_ladder({timed("01", "gpu", 4.0), timed("02", "library", 1.0)});
  REQUIRE(rows[0].speedup_cpu == 0);
  REQUIRE(rows[1].speedup_cpu == 0);
  REQUIRE(rows[1].speedup_previous == Approx(4.0));
  REQUIRE(course::make_ladder({}).empty());
}

TEST_CASE("speed-ups compare rates when a step ran a smaller problem") {
  auto cpu = timed("01", "cpu", 100.0);  // 4 GB in 100 ms: 40 GB/s
  auto small = timed("02", "gpu", 1.0);  // a tenth of the bytes in 1 ms: 400 GB/s
  small.bytes = 4e8;
  cpu.size = "n=1000";
  small.size = "n=100";
  auto rows = course::make_ladder({cpu, small});
  REQUIRE(rows[1].speedup_previous == Approx(10.0));
  REQUIRE(rows[1].speedup_cpu == Approx(10.0));
}

TEST_CASE("speed-ups compare times when the steps count no work") {
  auto a = timed("01", "cpu", 30.0);
  auto b = timed("02", "gpu", 10.0);
  a.bytes = b.bytes = 0;
  auto rows = course::make_ladder({a, b});
  REQUIRE(rows[1].speedup_previous == Approx(3.0));
  REQUIRE(rows[1].speedup_cpu == Approx(3.0));
}

TEST_CASE("a printed ladder shows every step its speed-ups and why steps failed") {
  auto failed = timed("03", "gpu", 1.0, "FAIL");
  failed.detail = "FAIL: 3 of 9 differ";
  auto skipped = timed("04", "gpu", 0.0, "SKIP");
  skipped.detail = "needs compute capability 9.0";
  auto rows = course::make_ladder({timed("01", "cpu", 8.0), timed("02", "gpu", 2.0), failed, skipped});
  std::ostringstream text;
  course::print_ladder(text, "Lesson 02", rows);
  const std::string out = text.str();
  REQUIRE_THAT(out, StartsWith("Lesson 02\n"));
  REQUIRE_THAT(out, Contains("step 01") && Contains("step 02") && Contains("step 03") && Contains("step 04"));
  REQUIRE_THAT(out, Contains("4.00x"));
  REQUIRE_THAT(out, Contains("step 03: FAIL: 3 of 9 differ") && Contains("SKIP: needs compute capability 9.0"));
}

TEST_CASE("a ladder shows a size column only when the steps ran different sizes") {
  auto a = timed("01", "cpu", 8.0), b = timed("02", "gpu", 2.0);
  a.size = b.size = "n=2048";
  b.ceiling = 100;
  std::ostringstream same, different;
  course::print_ladder(same, "same", course::make_ladder({a, b}));
  REQUIRE_THAT(same.str(), !Contains("size  time ms") && Contains("; size n=2048"));
  b.size = "n=256";
  course::print_ladder(different, "different", course::make_ladder({a, b}));
  REQUIRE_THAT(different.str(), Contains("size    time ms") && Contains("n=256") && Contains("n=2048") &&
                                    !Contains("; size"));
}

TEST_CASE("steps of the same size compare by time even when they count different bytes") {
  auto two_passes = timed("05", "gpu", 2.0);  // reads the matrix twice: 4 GB counted
  auto one_pass = timed("06", "gpu", 1.0);    // reads it once: 2 GB counted, same GB/s
  one_pass.bytes = 2e9;
  auto rows = course::make_ladder({two_passes, one_pass});
  REQUIRE(rows[1].speedup_previous == Approx(2.0));
}

TEST_CASE("a second, faster CPU step adds speed-ups over all cores, and a column for them") {
  course::Measurement seq = timed("01", "cpu", 100.0), omp = timed("02", "cpu", 10.0), gpu = timed("03", "gpu", 1.0);
  const auto rows = course::make_ladder({seq, omp, gpu});
  REQUIRE(rows[2].speedup_cpu == Approx(100.0));
  REQUIRE(rows[2].speedup_all_cores == Approx(10.0));
  REQUIRE(rows[1].speedup_all_cores == Approx(1.0));
  REQUIRE(rows[0].speedup_all_cores == Approx(0.1));
  std::ostringstream out;
  course::print_ladder(out, "ladder", rows);
  REQUIRE_THAT(out.str(), Contains("vs 1 core") && Contains("vs all cores") && Contains("10.0x"));
  const auto alone = course::make_ladder({seq, gpu});
  REQUIRE(alone[1].speedup_all_cores == 0);  // one CPU step: no second column
  std::ostringstream single;
  course::print_ladder(single, "ladder", alone);
  REQUIRE_THAT(single.str(), Contains("vs CPU") && !Contains("vs all cores"));
}
