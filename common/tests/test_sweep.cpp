// Tests of a sweep: the study's figures, the fastest step of a row, the printed table and its CSV.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "course/csv.h"
#include "course/sweep.h"
#include "report_fixtures.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using Catch::Matchers::StartsWith;

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
