#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "course/errors.h"
#include "course/report.h"

using Catch::Matchers::Contains;

namespace {
course::Measurement timed(const std::string& step, const std::string& kind, double ms,
                          const std::string& verdict = "PASS") {
  course::Measurement m;
  m.lesson = "02";
  m.step = step;
  m.title = "step " + step;
  m.kind = kind;
  m.time.median_ms = ms;
  m.time.min_ms = ms;
  m.time.max_ms = ms;
  m.time.reps = 3;
  m.bytes = 4e9;
  m.rate_unit = "GB/s";
  m.verdict = verdict;
  return m;
}
}  // namespace

TEST_CASE("rate and share of the ceiling follow from bytes and time") {
  auto m = timed("05", "gpu", 2.0);  // 4 GB in 2 ms
  m.ceiling = 4000;
  REQUIRE(m.rate() == Approx(2000.0));
  REQUIRE(m.percent_of_ceiling() == Approx(50.0));
  m.rate_unit = "GFLOP/s";
  m.operations = 1e9;  // 1e9 operations in 2 ms
  REQUIRE(m.rate() == Approx(500.0));
  m.time.median_ms = 0;
  REQUIRE(m.rate() == 0);
}

TEST_CASE("a measurement survives a CSV round trip with awkward text") {
  auto m = timed("07", "gpu", 0.0712);
  m.title = "single pass, \"grid\" sync";
  m.device = "NVIDIA H100 80GB HBM3";
  m.size = "n=40960000";
  m.ceiling = 3000;
  m.ceiling_name = "copy bandwidth";
  m.detail = "FAIL: 1 of 1 differ; worst at [0]: got nan, expected 0.99";
  auto back = course::from_csv(course::to_csv(m));
  REQUIRE(back.title == m.title);
  REQUIRE(back.detail == m.detail);
  REQUIRE(back.device == m.device);
  REQUIRE(back.time.median_ms == Approx(0.0712));
  REQUIRE(back.bytes == Approx(4e9));
  REQUIRE(back.ceiling == Approx(3000));
  REQUIRE(back.verdict == "PASS");
  REQUIRE(back.rate() == Approx(m.rate()).epsilon(1e-5));
}

TEST_CASE("from_csv rejects a row with the wrong number of fields") {
  REQUIRE_THROWS_AS(course::from_csv("02,05,warp shuffle"), course::UsageError);
}

TEST_CASE("the CSV header names as many columns as a row has") {
  auto header = course::csv_header();
  auto row = course::to_csv(timed("01", "cpu", 1.0));
  REQUIRE(std::count(header.begin(), header.end(), ',') == std::count(row.begin(), row.end(), ','));
}

TEST_CASE("JSON output escapes quotes and newlines") {
  auto m = timed("03", "gpu", 1.5);
  m.detail = "say \"hi\"\nthere";
  auto json = course::to_json(m);
  REQUIRE_THAT(json, Contains("\"detail\": \"say \\\"hi\\\"\\nthere\""));
  REQUIRE_THAT(json, Contains("\"median_ms\": 1.5"));
  REQUIRE(json.front() == '{');
  REQUIRE(json.back() == '}');
}

TEST_CASE("numbers are formatted for people") {
  REQUIRE(course::format_significant(0.07123, 3) == "0.0712");
  REQUIRE(course::format_significant(1234.6, 3) == "1235");
  REQUIRE(course::format_significant(2.5, 3) == "2.50");
  REQUIRE(course::format_significant(0, 3) == "0");
  REQUIRE(course::format_count(40960000) == "40,960,000");
  REQUIRE(course::format_count(999) == "999");
  REQUIRE(course::format_count(1000) == "1,000");
}

TEST_CASE("a text table aligns its columns and checks its rows") {
  course::TextTable table({"step", "time"});
  table.add_row({"01", "12.5"});
  table.add_row({"02 long name", "3"});
  std::ostringstream out;
  table.print(out);
  const std::string text = out.str();
  REQUIRE_THAT(text, Contains("step          time"));
  REQUIRE_THAT(text, Contains("02 long name     3"));
  REQUIRE_THROWS_AS(table.add_row({"only one cell"}), std::invalid_argument);
}

TEST_CASE("ladder speed-ups use the previous timed step and the first CPU step") {
  std::vector<course::Measurement> steps{timed("01", "cpu", 100.0), timed("02", "gpu", 10.0),
                                         timed("03", "gpu", 0.0, "SKIP"), timed("04", "gpu", 50.0, "FAIL"),
                                         timed("05", "gpu", 2.0)};
  auto rows = course::make_ladder(steps);
  REQUIRE(rows[0].speedup_cpu == Approx(1.0));
  REQUIRE(rows[0].speedup_previous == 0);
  REQUIRE(rows[1].speedup_previous == Approx(10.0));
  REQUIRE(rows[1].speedup_cpu == Approx(10.0));
  REQUIRE(rows[2].speedup_previous == 0);  // skipped: no time
  REQUIRE(rows[3].speedup_previous == 0);  // failed: not a baseline and no speed-up claimed
  REQUIRE(rows[4].speedup_previous == Approx(5.0));  // over step 02, the last one that passed
  REQUIRE(rows[4].speedup_cpu == Approx(50.0));
}

TEST_CASE("a ladder prints every step and writes CSV and JSON of the same length") {
  auto rows = course::make_ladder({timed("01", "cpu", 8.0), timed("02", "gpu", 2.0)});
  std::ostringstream text, csv, json;
  course::print_ladder(text, "Lesson 02", rows);
  course::write_ladder_csv(csv, rows);
  course::write_ladder_json(json, rows);
  REQUIRE_THAT(text.str(), Contains("Lesson 02") && Contains("step 01") && Contains("4.00x"));
  const std::string csv_text = csv.str();
  REQUIRE(std::count(csv_text.begin(), csv_text.end(), '\n') == 3);
  REQUIRE_THAT(csv_text, Contains("speedup_previous,speedup_cpu"));
  REQUIRE_THAT(json.str(), Contains("\"speedup_previous\": 4"));
}

TEST_CASE("the SVG chart has a bar for each step that passed") {
  auto fast = timed("02", "gpu", 2.0);
  fast.ceiling = 3000;
  fast.ceiling_name = "copy bandwidth";
  auto rows = course::make_ladder({timed("01", "cpu", 8.0), fast, timed("03", "gpu", 0.0, "SKIP")});
  std::ostringstream svg;
  course::write_ladder_svg(svg, "Lesson <02>", rows);
  const std::string text = svg.str();
  REQUIRE_THAT(text, Contains("<svg") && Contains("</svg>") && Contains("Lesson &lt;02&gt;"));
  REQUIRE_THAT(text, Contains("01  step 01") && Contains("02  step 02") && Contains("copy bandwidth"));
  REQUIRE_THAT(text, !Contains("step 03"));
  REQUIRE(std::count(text.begin(), text.end(), '\n') > 5);
}

TEST_CASE("speed-ups compare rates when a step ran a smaller problem") {
  auto cpu = timed("01", "cpu", 100.0);  // 4 GB in 100 ms: 40 GB/s
  auto small = timed("02", "gpu", 1.0);  // a tenth of the bytes in 1 ms: 400 GB/s
  small.bytes = 4e8;
  auto rows = course::make_ladder({cpu, small});
  REQUIRE(rows[1].speedup_previous == Approx(10.0));
  REQUIRE(rows[1].speedup_cpu == Approx(10.0));
}
