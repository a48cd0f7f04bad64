#include <catch2/catch.hpp>

#include <sstream>
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
