// Tests of the runner's charts: a ladder's bars and a lesson's roofline.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "course/charts.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

TEST_CASE("the SVG chart has a bar for each step that passed") {
  auto fast = timed("02", "gpu", 2.0);
  fast.ceiling = 3000;
  fast.ceiling_name = "copy bandwidth";
  auto rows = course::make_ladder({timed("01", "cpu", 8.0), fast, timed("03", "gpu", 0.0, "SKIP"),
                                   timed("04", "gpu", 1.0, "FAIL")});
  std::ostringstream svg;
  course::write_ladder_svg(svg, "Lesson <02>", rows);
  const std::string text = svg.str();
  REQUIRE_THAT(text, StartsWith("<svg") && Contains("</svg>") && Contains("Lesson &lt;02&gt;"));
  REQUIRE_THAT(text, Contains("01  step 01") && Contains("02  step 02") && Contains("copy bandwidth"));
  REQUIRE_THAT(text, !Contains("step 03") && !Contains("step 04"));
  REQUIRE(count_of(text, "<rect") == 3);  // the background and two bars
}

TEST_CASE("a ladder chart leaves out an infinite ceiling and rate instead of drawing endless decades") {
  auto endless = timed("02", "gpu", 2.0);
  endless.ceiling = INFINITY;
  auto instant = timed("03", "gpu", 0.0);  // a rate that divides by a zero time
  instant.time.median_ms = 1e-320;
  std::ostringstream svg;
  course::write_ladder_svg(svg, "Lesson 02", course::make_ladder({timed("01", "cpu", 8.0), endless, instant}));
  const std::string text = svg.str();
  REQUIRE_THAT(text, Contains("01  step 01") && Contains("02  step 02") && EndsWith("</svg>\n"));
  REQUIRE(count_of(text, "<line") < 20);  // a few decades' lines, not an endless scale
}

TEST_CASE("a roofline draws a point per passing step under the memory and compute roofs") {
  auto point = [](const std::string& step, double ms, double bytes, double ops, const std::string& verdict) {
    course::Measurement m;
    m.step = step;
    m.title = "step " + step;
    m.kind = "gpu";
    m.time.median_ms = ms;
    m.bytes = bytes;
    m.operations = ops;
    m.operation = "comparison";
    m.compute_ceiling = 30000;
    m.verdict = verdict;
    return m;
  };
  const auto ladder = course::make_ladder({point("03", 1.0, 4e8, 1e8, "PASS"), point("04", 0.1, 4e8, 1e8, "PASS"),
                                           point("05", 0.1, 4e8, 1e8, "FAIL"), point("06", 0.1, 4e8, 0, "PASS")});
  REQUIRE(ladder[0].m.operational_intensity() == Approx(0.25));
  REQUIRE(ladder[1].m.operation_rate() == Approx(1000));  // 1e8 comparisons in 0.1 ms
  std::ostringstream svg;
  course::write_roofline_svg(svg, "roofline", ladder, 3000, "copy bandwidth");
  const std::string text = svg.str();
  std::size_t circles = 0;
  for (auto at = text.find("<circle"); at != std::string::npos; at = text.find("<circle", at + 1)) ++circles;
  REQUIRE(circles == 2);  // the wrong answer and the step without an operation count are left out
  REQUIRE_THAT(text, StartsWith("<svg") && EndsWith("</svg>\n") && Contains("sloped roof: copy bandwidth 3000 GB/s") &&
                         Contains("flat roof: 30000 G comparisons/s") && Contains("comparisons per byte"));
}

TEST_CASE("a ladder chart shows speed when the steps count different work at one size") {
  course::Measurement two_pass = timed("05", "gpu", 0.8), one_pass = timed("07", "gpu", 0.4);
  one_pass.bytes = two_pass.bytes / 2;  // reads its data once: a lower rate, yet the faster step
  std::ostringstream speed;
  course::write_ladder_svg(speed, "ladder", course::make_ladder({two_pass, one_pass}));
  REQUIRE_THAT(speed.str(), Contains("times faster than the slowest step") && Contains("0.400 ms"));
  // The faster step has the longer bar.
  const std::string text = speed.str();
  auto bar = [&](std::size_t which) {
    std::size_t at = 0;
    for (std::size_t i = 0; i <= which; ++i) at = text.find("<rect x=\"380\"", at + 1);
    const auto w = text.find("width=\"", at) + 7;
    return std::stod(text.substr(w, text.find('"', w) - w));
  };
  REQUIRE(bar(1) > bar(0));
  std::ostringstream rate;
  course::write_ladder_svg(rate, "ladder", course::make_ladder({timed("05", "gpu", 0.8), timed("06", "gpu", 0.4)}));
  REQUIRE_THAT(rate.str(), Contains("GB/s on a logarithmic scale") && !Contains("times faster"));
}
