// Tests of what the tools need to run programs: the manifest CMake writes, and running a command.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "course/errors.h"
#include "course/process.h"

using Catch::Matchers::Contains;

namespace {
// A fresh folder holding a course_manifest.tsv with @p text.
std::string folder_with_manifest(const std::string& text) {
  std::string pattern = (std::filesystem::temp_directory_path() / "course_manifest_XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  std::ofstream(pattern + "/course_manifest.tsv") << text;
  return pattern;
}
}  // namespace

TEST_CASE("the manifest is read line by line: lesson, table, program, and the rest as arguments") {
  const std::string bin = folder_with_manifest(
      "# lesson\ttable\ttarget\targuments\n02\tlesson\t-\tMax reduction\n\n"
      "02\tladder\tlesson02_01_cpu_sequential\t\n02\treport\tlesson02_sweep\t--study \"a b.csv\"\tmore\n");
  const auto entries = course::read_manifest(bin);
  std::filesystem::remove_all(bin);
  REQUIRE(entries.size() == 3);
  REQUIRE(entries[0].table == "lesson");
  REQUIRE(entries[0].args == "Max reduction");
  REQUIRE(entries[1].target == "lesson02_01_cpu_sequential");
  REQUIRE(entries[1].args.empty());
  REQUIRE(entries[2].args == "--study \"a b.csv\"\tmore");
}

TEST_CASE("a manifest line with fewer than four fields is refused, and a missing manifest named") {
  const std::string bin = folder_with_manifest("02\tladder\tlesson02_01_cpu_sequential\n");
  REQUIRE_THROWS_WITH(course::read_manifest(bin), Contains("has 3 fields, not 4"));
  std::filesystem::remove_all(bin);
  REQUIRE_THROWS_WITH(course::read_manifest(bin), Contains("missing; build the course first"));
}

TEST_CASE("a step's key is its number, with the letter of a rung kept beside a step") {
  CHECK(course::step_key("lesson01_03_gpu_naive") == "03");
  CHECK(course::step_key("lesson05_10_wide_rows") == "10");
  CHECK(course::step_key("lesson05_10b_finish_in_one_launch") == "10b");
  CHECK(course::step_key("lesson04_14_gpus_broadcast_pivot_rows") == "14");
  CHECK(course::step_key("course_runner") == "ru");  // not a step: the first two characters, as before
  CHECK(course::step_key("nounderscore") == "nounderscore");
}

TEST_CASE("a command's output, errors and exit code are captured apart") {
  const course::CommandOutcome o = course::run_command("sh -c 'echo out; echo err >&2; exit 3'");
  REQUIRE(o.out == "out\n");
  REQUIRE(o.err == "err\n");
  REQUIRE(o.exit_code == 3);
  REQUIRE(course::first_line("first\nsecond\n") == "first");
  REQUIRE(course::first_line("").empty());
}
