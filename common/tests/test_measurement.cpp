// Tests of a measurement: its rates, and the step's report of it in text, CSV or JSON.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "course/csv.h"
#include "course/json.h"
#include "course/measurement.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

TEST_CASE("the rate in GB/s follows from the bytes and the median time") {
  auto m = timed("05", "gpu", 2.0);  // 4 GB in 2 ms
  REQUIRE(m.rate() == Approx(2000.0));
  m.operations = 1e12;  // ignored for GB/s
  REQUIRE(m.rate() == Approx(2000.0));
  m.time.min_ms = 1.0;  // the median counts, not the minimum
  REQUIRE(m.rate() == Approx(2000.0));
}

TEST_CASE("the rate in other units follows from the operations") {
  auto m = timed("05", "gpu", 2.0);
  m.rate_unit = "GFLOP/s";
  m.operations = 1e9;  // 1e9 operations in 2 ms
  REQUIRE(m.rate() == Approx(500.0));
}

TEST_CASE("the rate is zero without a time or a count") {
  auto m = timed("05", "gpu", 0.0);
  REQUIRE(m.rate() == 0);
  m.time.median_ms = -1.0;
  REQUIRE(m.rate() == 0);
  auto n = timed("05", "gpu", 1.0);
  n.bytes = 0;
  REQUIRE(n.rate() == 0);
}

TEST_CASE("percent_of_ceiling is the share of the ceiling that the rate reaches") {
  auto m = timed("05", "gpu", 2.0);
  REQUIRE(m.percent_of_ceiling() == 0);  // no ceiling known
  m.ceiling = 4000;
  REQUIRE(m.percent_of_ceiling() == Approx(50.0));
  m.ceiling = 1000;
  REQUIRE(m.percent_of_ceiling() == Approx(200.0));
}

TEST_CASE("print_measurement writes text CSV or JSON") {
  auto m = timed("04", "gpu", 2.0);
  m.title = "warp shuffle";
  m.ceiling = 4000;
  m.ceiling_name = "copy bandwidth";
  m.detail = "PASS (5 values checked, exact)";
  std::ostringstream text, csv, json;
  course::print_measurement(text, m, course::OutputFormat::Text);
  course::print_measurement(csv, m, course::OutputFormat::Csv);
  course::print_measurement(json, m, course::OutputFormat::Json);
  REQUIRE_THAT(text.str(), Contains("warp shuffle") && Contains("2000 GB/s") && Contains("50.0% of copy bandwidth") &&
                               Contains("PASS (5 values checked, exact)"));
  REQUIRE(lines_of(csv.str()) == std::vector<std::string>{course::csv_header(), course::to_csv(m)});
  REQUIRE(json.str() == course::to_json(m) + "\n");
}

TEST_CASE("the text report names the launch only where the step gives one, and CSV never does") {
  auto m = timed("05", "gpu", 1.0);
  std::ostringstream without;
  course::print_measurement(without, m, course::OutputFormat::Text);
  REQUIRE_THAT(without.str(), !Contains("launch"));
  m.launch = "cluster layout, 120 blocks of 512 threads in clusters of 8";
  std::ostringstream with, csv;
  course::print_measurement(with, m, course::OutputFormat::Text);
  course::print_measurement(csv, m, course::OutputFormat::Csv);
  REQUIRE_THAT(with.str(), Contains("  launch  cluster layout, 120 blocks of 512 threads in clusters of 8\n"));
  REQUIRE_THAT(csv.str(), !Contains("cluster layout"));
}

TEST_CASE("a skipped measurement prints why instead of a time") {
  auto m = timed("04", "gpu", 0.0, "SKIP");
  m.detail = "no CUDA device";
  std::ostringstream text;
  course::print_measurement(text, m, course::OutputFormat::Text);
  REQUIRE_THAT(text.str(), Contains("skipped: no CUDA device") && !Contains("time"));
}
