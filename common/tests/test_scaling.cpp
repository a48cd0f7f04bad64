#include <catch2/catch.hpp>

#include <functional>
#include <sstream>
#include <string>
#include <vector>
#include <stdexcept>

#include "course/scaling.h"

TEST_CASE("scaling: the time lost on K GPUs is split into fixed, together and the collective, which add up to it") {
  // T1 = 1.0 ms; on 2 GPUs: a band alone 0.55, both bands at once 0.58, the whole run 0.60.
  const course::ScalingLoss loss = course::split_scaling_loss(1.0, 2, {0.60, 0.55, 0.58, 0.011});
  CHECK(loss.lost_ms == Approx(0.10));
  CHECK(loss.fixed_ms == Approx(0.05));
  CHECK(loss.together_ms == Approx(0.03));
  CHECK(loss.collective_ms == Approx(0.02));
  CHECK(loss.fixed_ms + loss.together_ms + loss.collective_ms == Approx(loss.lost_ms));
  // Four GPUs share T1 four ways: a part alone that takes exactly T1 / 4 costs nothing fixed.
  const course::ScalingLoss four = course::split_scaling_loss(1.0, 4, {0.30, 0.25, 0.27, 0.01});
  CHECK(four.fixed_ms == Approx(0.0).margin(1e-12));
  CHECK(four.together_ms == Approx(0.02));
  CHECK(four.collective_ms == Approx(0.03));
}

TEST_CASE("scaling: the table prints a row per GPU count with the split, and its footnote names the parts") {
  course::ScalingTable table("band", "all-reduce");
  table.add_one_gpu(0.3085, true);
  table.add(2, {0.1713, 0.1600, 0.1650, 0.0113}, true);
  std::ostringstream out;
  table.print(out);
  const std::string text = out.str();
  CHECK(text.find("all-reduce alone ms") != std::string::npos);
  CHECK(text.find("1.80x") != std::string::npos);   // 0.3085 / 0.1713
  CHECK(text.find("90.0%") != std::string::npos);
  CHECK(text.find("0.0171") != std::string::npos);  // lost: 0.1713 - 0.15425
  CHECK(text.find("0.00575") != std::string::npos); // fixed: 0.16 - 0.15425
  CHECK(text.find("0.00500") != std::string::npos); // together: 0.165 - 0.16
  CHECK(text.find("0.0063") != std::string::npos);  // all-reduce in the run: 0.1713 - 0.165
  CHECK(text.find("GPU 0's band alone") != std::string::npos);
}

TEST_CASE("scaling: a row of several GPUs before the one-GPU row is refused") {
  course::ScalingTable table("share", "all-reduce");
  CHECK_THROWS_AS(table.add(2, {0.1, 0.1, 0.1, 0.01}, true), std::logic_error);
}

namespace {

// A machine of k GPUs that needs none: each timed work records its name and takes a time set by k.
struct FakeMachine {
  std::size_t k;
  std::string* log;
  double work_ms = 0;
  void run() { log->append("run "), work_ms = 1.0 / static_cast<double>(k) + 0.1; }
  void run_parts() { log->append("parts "), work_ms = 1.0 / static_cast<double>(k) + 0.05; }
  void all_reduce() { log->append("reduce "), work_ms = 0.01; }
  course::TimingStats time(const std::function<void()>& work, const course::TimingOptions&) {
    work();
    course::TimingStats t;
    t.median_ms = work_ms;
    return t;
  }
};

}  // namespace

TEST_CASE("scaling: add_scaling_rows measures 1, 2, 4, ... GPUs, the parts, the collective and a lone part apart") {
  std::string log;
  course::ScalingTable table("band", "all-reduce");
  std::vector<std::size_t> lone_of;
  const bool pass = course::add_scaling_rows(
      table, {0, 1, 2, 3, 4}, course::TimingOptions{},
      [&](const std::vector<int>& devices) {
        log += std::to_string(devices.size()) + ": ";
        return FakeMachine{devices.size(), &log};
      },
      [&](FakeMachine& m) { return m.k != 4; },
      [&](std::size_t k) {
        lone_of.push_back(k);
        return 1.0 / static_cast<double>(k) + 0.02;
      });
  CHECK_FALSE(pass);  // the row of 4 failed its check
  CHECK(log == "1: run 2: run parts reduce 4: run parts reduce ");  // 5 GPUs: rows of 1, 2 and 4
  CHECK(lone_of == std::vector<std::size_t>{2, 4});
  std::ostringstream out;
  table.print(out);
  CHECK(out.str().find("FAIL") != std::string::npos);
  CHECK(out.str().find("0.0500") != std::string::npos);  // the all-reduce in the run of 2: 0.6 - 0.55
}
