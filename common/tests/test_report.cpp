// Tests of the report layer: rates, the CSV and JSON forms of a measurement, number formatting, the
// text table, and the ladder's speed-ups and output files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/errors.h"
#include "course/report.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {
// A passing step that moved 4 GB in @p ms milliseconds.
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

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

// The raw value after "key": in a JSON object (up to the next comma or closing brace).
std::string json_value(const std::string& json, const std::string& key) {
  auto pos = json.find("\"" + key + "\": ");
  if (pos == std::string::npos) return "<missing>";
  pos += key.size() + 4;
  return json.substr(pos, json.find_first_of(",}", pos) - pos);
}

// True when @p token is a JSON number or null.
bool json_number_or_null(const std::string& token) {
  if (token == "null") return true;
  if (token.empty() || !(token[0] == '-' || (token[0] >= '0' && token[0] <= '9'))) return false;
  char* end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  return *end == '\0' && std::isfinite(v);
}

const char* const kNumericKeys[] = {"median_ms", "min_ms", "max_ms", "reps", "bytes", "operations",
                                    "rate", "ceiling", "percent_of_ceiling"};
}  // namespace

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

TEST_CASE("JSON output has every column as a key") {
  auto m = timed("03", "gpu", 1.5);
  m.title = "tiled";
  const std::string json = course::to_json(m);
  REQUIRE_THAT(json, StartsWith("{") && EndsWith("}"));
  std::istringstream header(course::csv_header());
  for (std::string key; std::getline(header, key, ',');) REQUIRE_THAT(json, Contains("\"" + key + "\": "));
  REQUIRE(json_value(json, "title") == "\"tiled\"");
  REQUIRE(json_value(json, "median_ms") == "1.5");
  REQUIRE(json_value(json, "reps") == "3");
  REQUIRE(std::strtod(json_value(json, "rate").c_str(), nullptr) == Approx(4e9 / 1.5e-3 / 1e9).epsilon(1e-5));
  for (const char* key : kNumericKeys) REQUIRE(json_number_or_null(json_value(json, key)));
}

TEST_CASE("JSON output escapes quotes backslashes and control characters") {
  auto m = timed("03", "gpu", 1.5);
  m.detail = "say \"hi\"\nthere\\\tnow";
  m.title = std::string("bell") + '\x07';
  auto json = course::to_json(m);
  REQUIRE_THAT(json, Contains("\"detail\": \"say \\\"hi\\\"\\nthere\\\\\\tnow\""));
  REQUIRE_THAT(json, Contains("\"title\": \"bell\\u0007\""));
  REQUIRE(json.find('\n') == std::string::npos);
}

TEST_CASE("JSON output writes null for numbers that are not finite") {
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::quiet_NaN(),
                     std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    auto m = timed("03", "gpu", 1.5);
    m.time.max_ms = bad;
    m.ceiling = bad;
    auto json = course::to_json(m);
    REQUIRE(json_value(json, "max_ms") == "null");
    for (const char* key : kNumericKeys) REQUIRE(json_number_or_null(json_value(json, key)));
  }
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

TEST_CASE("format_significant keeps the asked significant digits") {
  REQUIRE(course::format_significant(0.07123, 3) == "0.0712");
  REQUIRE(course::format_significant(2.5, 3) == "2.50");
  REQUIRE(course::format_significant(12.3456, 4) == "12.35");
  REQUIRE(course::format_significant(0.00123, 3) == "0.00123");
  REQUIRE(course::format_significant(-0.07123, 2) == "-0.071");
  REQUIRE(course::format_significant(3.14159) == "3.14");
}

TEST_CASE("format_significant writes large numbers whole and without exponent") {
  REQUIRE(course::format_significant(1234.6, 3) == "1235");
  REQUIRE(course::format_significant(40960000, 3) == "40960000");
  REQUIRE(course::format_significant(-987654.3, 2) == "-987654");
}

TEST_CASE("format_significant names zero and non-finite values") {
  REQUIRE(course::format_significant(0, 3) == "0");
  REQUIRE(course::format_significant(std::numeric_limits<double>::quiet_NaN()) == "nan");
  REQUIRE(course::format_significant(std::numeric_limits<double>::infinity()) == "inf");
  REQUIRE(course::format_significant(-std::numeric_limits<double>::infinity()) == "-inf");
}

TEST_CASE("format_count groups digits by thousands") {
  REQUIRE(course::format_count(0) == "0");
  REQUIRE(course::format_count(999) == "999");
  REQUIRE(course::format_count(1000) == "1,000");
  REQUIRE(course::format_count(999983) == "999,983");
  REQUIRE(course::format_count(40960000) == "40,960,000");
  REQUIRE(course::format_count(18446744073709551615ull) == "18,446,744,073,709,551,615");
}

TEST_CASE("a text table aligns numbers right and text left under a rule") {
  course::TextTable table({"step", "title", "ms"});
  table.add_row({"1", "cpu loop", "12.5"});
  table.add_row({"02", "gpu", "3"});
  table.add_row({"03", "x", "-"});
  std::ostringstream out;
  table.print(out);
  REQUIRE(lines_of(out.str()) == std::vector<std::string>{
                                     "step  title     ms",
                                     "--------------------",
                                     "   1  cpu loop  12.5",
                                     "  02  gpu          3",
                                     "  03  x         -",
                                 });
}

TEST_CASE("a text table widens a column to its longest cell") {
  course::TextTable table({"step", "time"});
  table.add_row({"01", "12.5"});
  table.add_row({"02 long name", "3"});
  std::ostringstream out;
  table.print(out);
  auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 4);
  REQUIRE(lines[0] == "step          time");
  REQUIRE(lines[1] == std::string(18, '-'));
  REQUIRE(lines[3] == "02 long name     3");
}

TEST_CASE("a text table rejects a row with the wrong number of cells") {
  course::TextTable table({"step", "time"});
  REQUIRE_THROWS_AS(table.add_row({"only one cell"}), std::invalid_argument);
  REQUIRE_THROWS_AS(table.add_row({"a", "b", "c"}), std::invalid_argument);
  std::ostringstream out;
  table.print(out);
  REQUIRE(lines_of(out.str()).size() == 2);  // header and rule: the bad rows were not added
}

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

TEST_CASE("a ladder JSON is an array of one object per step with the speed-ups") {
  auto rows = course::make_ladder({timed("01", "cpu", 8.0), timed("02", "gpu", 2.0), timed("03", "gpu", 1.0)});
  std::ostringstream json;
  course::write_ladder_json(json, rows);
  const std::string text = json.str();
  auto lines = lines_of(text);
  REQUIRE(lines.size() == 5);
  REQUIRE(lines.front() == "[");
  REQUIRE(lines.back() == "]");
  for (std::size_t i = 1; i <= 3; ++i) {
    REQUIRE_THAT(lines[i], StartsWith("  {\"lesson\": \"02\"") && Contains("\"step\": \"0" + std::to_string(i)));
    REQUIRE_THAT(lines[i], EndsWith(i < 3 ? "}," : "}"));
    REQUIRE(count_of(lines[i], "{") == 1);
  }
  REQUIRE(json_value(lines[1], "speedup_previous") == "0");
  REQUIRE(json_value(lines[1], "speedup_cpu") == "1");
  REQUIRE(json_value(lines[2], "speedup_previous") == "4");
  REQUIRE(json_value(lines[3], "speedup_previous") == "2");
  REQUIRE(json_value(lines[3], "speedup_cpu") == "8");
}

TEST_CASE("an empty ladder writes an empty JSON array and a bare CSV header") {
  std::ostringstream json, csv;
  course::write_ladder_json(json, {});
  course::write_ladder_csv(csv, {});
  REQUIRE(json.str() == "[\n]\n");
  REQUIRE(lines_of(csv.str()).size() == 1);
}

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

TEST_CASE("the study's figures are read from CSV, and a line of the wrong width is rejected") {
  const course::StudyFigures f =
      course::parse_study_figures("n,CPU,GPU\n# a comment\n128,1.5,\n4096,\"168,920\",1647\n", "study.csv");
  REQUIRE(f.label_title == "n");
  REQUIRE(f.columns == std::vector<std::string>{"CPU", "GPU"});
  REQUIRE(f.labels == std::vector<std::string>{"128", "4096"});
  REQUIRE(f.rows[0] == std::vector<std::string>{"1.5", ""});
  REQUIRE(f.rows[1] == std::vector<std::string>{"168,920", "1647"});
  REQUIRE_THROWS_WITH(course::parse_study_figures("n,CPU\n128,1,2\n", "study.csv"),
                      Contains("study.csv") && Contains("3 fields"));
  REQUIRE_THROWS_WITH(course::parse_study_figures("", "empty.csv"), Contains("no header"));
}

TEST_CASE("a sweep names the fastest passing step of each row and prints every cell") {
  course::Sweep sweep;
  sweep.steps = {"01", "02", "03"};
  sweep.study_columns = {"GPU1"};
  course::SweepRow row;
  row.label = "1024";
  row.cells = {timed("01", "cpu", 9.0), timed("02", "gpu", 0.5, "FAIL"), timed("03", "gpu", 2.0)};
  row.study = {"53557"};
  sweep.rows.push_back(row);
  course::SweepRow later;
  later.label = "4096";
  later.cells = {course::Measurement{}, timed("02", "gpu", 3.0), timed("03", "gpu", 4.0)};
  sweep.rows.push_back(later);
  REQUIRE(course::fastest_in_row(sweep, sweep.rows[0]) == "03");  // 02 was faster but wrong
  REQUIRE(course::fastest_in_row(sweep, sweep.rows[1]) == "02");
  std::ostringstream out;
  course::print_sweep(out, "sweep", sweep);
  REQUIRE_THAT(out.str(), Contains("size  01 ms") && Contains("study: GPU1 ms") && Contains("FAIL") &&
                              Contains("53557") && Contains("01: step 01"));
  std::ostringstream csv;
  course::write_sweep_csv(csv, sweep);
  REQUIRE_THAT(csv.str(), StartsWith("size,step_01_ms,step_01_check,step_02_ms") && Contains("\n4096,,,3,PASS,4,PASS,02,\n"));
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
