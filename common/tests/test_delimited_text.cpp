// Tests of the one reader of delimited text: lines, fields under CSV's and the manifest's rules, and
// the quoting that writes a field the reader reads back.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "course/delimited_text.h"

using Strings = std::vector<std::string>;

TEST_CASE("lines are split at line ends, carriage returns and all, and a last line needs none") {
  REQUIRE(course::lines_of("a\nb\r\n\nc") == Strings{"a", "b", "", "c"});
  REQUIRE(course::lines_of("a\n") == Strings{"a"});
  REQUIRE(course::lines_of("").empty());
  REQUIRE(course::lines_of("\n") == Strings{""});
}

TEST_CASE("content lines leave out empty lines and comments") {
  REQUIRE(course::content_lines_of("# heading\nn,ms\n\n128,1.5\r\n#128,2\n") == Strings{"n,ms", "128,1.5"});
  REQUIRE(course::content_lines_of("\n\n# only a comment\n").empty());
}

TEST_CASE("CSV fields are split at commas outside double quotes") {
  REQUIRE(course::fields_of("a,b,,c") == Strings{"a", "b", "", "c"});
  REQUIRE(course::fields_of("\"168,920\",1647") == Strings{"168,920", "1647"});
  REQUIRE(course::fields_of("\"say \"\"hi\"\"\",x") == Strings{"say \"hi\"", "x"});
  REQUIRE(course::fields_of("a,b\r") == Strings{"a", "b"});
  REQUIRE(course::fields_of("") == Strings{""});
  REQUIRE(course::fields_of("a,") == Strings{"a", ""});
}

TEST_CASE("tab-separated fields keep quotes and commas as they are") {
  REQUIRE(course::fields_of("02\tladder\tprog\t--study \"x,y\"", course::kTabSeparated) ==
          Strings{"02", "ladder", "prog", "--study \"x,y\""});
}

TEST_CASE("at most N fields: the last keeps the rest of the line, separators and all") {
  const course::FieldRules bars{'|', false};
  REQUIRE(course::fields_of("sizes|n|study.csv|--reps 1|x", bars, 4) == Strings{"sizes", "n", "study.csv", "--reps 1|x"});
  REQUIRE(course::fields_of("sizes|n", bars, 4) == Strings{"sizes", "n"});
  REQUIRE(course::fields_of("only|one", bars, 1) == Strings{"only|one"});
  REQUIRE(course::fields_of("a\tb\tc d\te\tf", course::kTabSeparated, 4) == Strings{"a", "b", "c d", "e\tf"});
}

TEST_CASE("a written CSV field is quoted where it must be and reads back the same") {
  REQUIRE(course::csv_field("plain") == "plain");
  REQUIRE(course::csv_field("") == "");
  REQUIRE(course::csv_field("a,b") == "\"a,b\"");
  REQUIRE(course::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  REQUIRE(course::csv_field("two\nlines") == "\"two lines\"");
  REQUIRE(course::csv_field("2.30", course::Quoting::Always) == "\"2.30\"");
  for (const std::string text : {"plain", "a,b", "say \"hi\", twice", "\"", ""})
    REQUIRE(course::fields_of(course::csv_field(text) + "," + course::csv_field(text, course::Quoting::Always)) ==
            Strings{text, text});
}
