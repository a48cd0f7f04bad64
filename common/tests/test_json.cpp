// Tests of the JSON forms: a measurement's object (keys, escapes, numbers that are not finite), a
// ladder's and a sweep's files.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "course/csv.h"
#include "course/json.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

namespace {
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

TEST_CASE("JSON numbers are the CSV's figures, and whole numbers have no decimal point") {
  auto m = timed("03", "gpu", 0.0712345678);
  m.operations = 123456789;
  const std::string json = course::to_json(m);
  REQUIRE(json_value(json, "median_ms") == "0.0712346");  // six significant digits, as in the CSV
  REQUIRE(json_value(json, "bytes") == "4000000000");
  REQUIRE(json_value(json, "operations") == "123457000");
  REQUIRE(json_value(json, "ceiling") == "0");
  REQUIRE(json_value(json, "percent_of_ceiling") == "0");
  const auto csv = course::fields_of(course::to_csv(m));
  REQUIRE(std::strtod(csv[6].c_str(), nullptr) == std::strtod(json_value(json, "median_ms").c_str(), nullptr));
}

TEST_CASE("JSON output replaces bytes that are not UTF-8 instead of failing") {
  auto m = timed("03", "gpu", 1.5);
  m.device = std::string("GPU \xff\xfe name");
  std::string json;
  REQUIRE_NOTHROW(json = course::to_json(m));
  REQUIRE_THAT(json_value(json, "device"), StartsWith("\"GPU ") && EndsWith(" name\""));
}

TEST_CASE("a sweep JSON is an array of one object per row: label, fastest, the steps that ran, the study") {
  course::Sweep sweep;
  sweep.steps = {"01", "03"};
  sweep.study_columns = {"old GPU"};
  course::SweepRow first;
  first.label = "100";
  first.cells = {timed("01", "cpu", 2.0), timed("03", "gpu", 1.0)};
  first.study = {"1.25"};
  course::SweepRow second;
  second.label = "400";
  second.cells = {course::Measurement{}, timed("03", "gpu", 4.0)};  // step 01 not run
  sweep.rows = {first, second};
  std::ostringstream out;
  course::write_sweep_json(out, sweep);
  const auto lines = lines_of(out.str());
  REQUIRE(lines.size() == 4);
  REQUIRE(lines[0] == "[");
  REQUIRE_THAT(lines[1], StartsWith("  {\"label\": \"100\", \"fastest\": \"03\", \"steps\": [{\"lesson\": \"02\"") &&
                             EndsWith("], \"study\": {\"old GPU\": \"1.25\"}},"));
  REQUIRE(count_of(lines[1], "\"median_ms\": ") == 2);
  REQUIRE_THAT(lines[2], StartsWith("  {\"label\": \"400\", \"fastest\": \"03\"") && EndsWith("\"study\": {}}"));
  REQUIRE(count_of(lines[2], "\"median_ms\": ") == 1);
  REQUIRE(lines[3] == "]");
}
