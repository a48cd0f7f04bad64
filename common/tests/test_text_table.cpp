// Tests of the numbers in the course's tables and of the text table that aligns them.
#include <catch2/catch.hpp>

#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/delimited_text.h"
#include "course/text_table.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

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
