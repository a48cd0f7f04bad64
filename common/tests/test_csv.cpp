// Tests of the CSV forms: a measurement's row and back, its header, a ladder's file.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "course/csv.h"
#include "course/errors.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

TEST_CASE("a measurement survives a CSV round trip with commas and quotes") {
  auto m = timed("07", "gpu", 0.0712);
  m.lesson = "0,2";
  m.title = "single pass, \"grid\" sync";
  m.kind = "\"";
  m.device = "NVIDIA H100 80GB HBM3";
  m.size = "n=40960000, m=3";
  m.time.min_ms = 0.07;
  m.time.max_ms = 0.09;
  m.time.reps = 20;
  m.operations = 123456;
  m.ceiling = 3000;
  m.ceiling_name = "copy bandwidth, \"measured\"";
  m.verdict = "FAIL";
  m.detail = "FAIL: 1 of 1 differ; worst at [0]: got nan, expected 0.99";
  const std::string row = course::to_csv(m);
  REQUIRE(row.find('\n') == std::string::npos);
  auto back = course::from_csv(row);
  REQUIRE(back.lesson == m.lesson);
  REQUIRE(back.step == m.step);
  REQUIRE(back.title == m.title);
  REQUIRE(back.kind == m.kind);
  REQUIRE(back.size == m.size);
  REQUIRE(back.device == m.device);
  REQUIRE(back.time.median_ms == Approx(0.0712));
  REQUIRE(back.time.min_ms == Approx(0.07));
  REQUIRE(back.time.max_ms == Approx(0.09));
  REQUIRE(back.time.reps == 20);
  REQUIRE(back.bytes == Approx(4e9));
  REQUIRE(back.operations == Approx(123456));
  REQUIRE(back.rate_unit == "GB/s");
  REQUIRE(back.ceiling == Approx(3000));
  REQUIRE(back.ceiling_name == m.ceiling_name);
  REQUIRE(back.verdict == "FAIL");
  REQUIRE(back.detail == m.detail);
  REQUIRE(back.rate() == Approx(m.rate()).epsilon(1e-5));
}

TEST_CASE("a measurement with empty text fields survives a CSV round trip") {
  course::Measurement m;
  auto back = course::from_csv(course::to_csv(m));
  REQUIRE(back.title.empty());
  REQUIRE(back.detail.empty());
  REQUIRE(back.time.median_ms == 0);
  REQUIRE(back.time.reps == 0);
}

TEST_CASE("a newline inside a CSV field never splits the row") {
  auto m = timed("01", "cpu", 1.0);
  m.detail = "first line\nsecond line";
  const std::string row = course::to_csv(m);
  REQUIRE(row.find('\n') == std::string::npos);
  REQUIRE_THAT(course::from_csv(row).detail, Contains("first line") && Contains("second line"));
}

TEST_CASE("from_csv rejects a row with the wrong number of fields") {
  REQUIRE_THROWS_WITH(course::from_csv("02,05,warp shuffle"), Contains("fields") && Contains("has 3"));
  REQUIRE_THROWS_AS(course::from_csv(""), course::UsageError);
  const std::string row = course::to_csv(timed("01", "cpu", 1.0));
  REQUIRE_THROWS_AS(course::from_csv(row + ",extra"), course::UsageError);
  REQUIRE_THROWS_AS(course::from_csv(row.substr(0, row.rfind(','))), course::UsageError);
}

TEST_CASE("from_csv rejects text where a number belongs") {
  REQUIRE_THROWS_WITH(course::from_csv(course::csv_header()), Contains("not a number") && Contains("median_ms"));
}

TEST_CASE("the CSV header names as many columns as a row has") {
  auto header = course::csv_header();
  auto row = course::to_csv(timed("01", "cpu", 1.0));
  REQUIRE_THAT(header, StartsWith("lesson,step,title"));
  REQUIRE(std::count(header.begin(), header.end(), ',') == std::count(row.begin(), row.end(), ','));
}

TEST_CASE("a ladder CSV has a header and one measurement row plus three speed-ups per step") {
  auto second = timed("02", "gpu", 2.0);
  second.title = "tiled, \"fast\"";
  auto rows = course::make_ladder({timed("01", "cpu", 8.0), second, timed("03", "gpu", 0.0, "SKIP")});
  std::ostringstream csv;
  course::write_ladder_csv(csv, rows);
  auto lines = lines_of(csv.str());
  REQUIRE(lines.size() == 4);
  REQUIRE(lines[0] == course::csv_header() + ",speedup_previous,speedup_cpu,speedup_all_cores");
  std::vector<double> expected_previous{0, 4, 0}, expected_cpu{1, 4, 0};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string& line = lines[i + 1];
    auto all_cores = line.rfind(','), last = line.rfind(',', all_cores - 1), before = line.rfind(',', last - 1);
    REQUIRE(std::strtod(line.c_str() + before + 1, nullptr) == Approx(expected_previous[i]));
    REQUIRE(std::strtod(line.c_str() + last + 1, nullptr) == Approx(expected_cpu[i]));
    REQUIRE(std::strtod(line.c_str() + all_cores + 1, nullptr) == 0);  // one CPU step
    auto back = course::from_csv(line.substr(0, before));
    REQUIRE(back.title == rows[i].m.title);
    REQUIRE(back.verdict == rows[i].m.verdict);
  }
}
