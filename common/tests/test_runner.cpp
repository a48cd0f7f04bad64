// Tests of the course runner, on any machine: a pretend lesson 99 of stand-in steps (course_fake_step)
// in a folder of its own, with its own manifest and no GPU. They check the default run (each lesson's
// ladder) against --all (its other tables too), the progress lines, a step skipped for a missing GPU
// feature, a size shrunk until it fits, a sweep with the study's figures and a step limited to the
// first rows, the files written, --table, --list, and a failing step failing the run.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/process.h"

using Catch::Matchers::Contains;

namespace fs = std::filesystem;

namespace {

// Lesson 99 in a fresh folder: bin/ holds a copy of the runner (it reads the manifest beside itself), a
// course_device_info that finds no GPU, stand-in steps (scripts that run the fake step with fixed
// arguments), a report program, and the manifest: a ladder of four steps, a second ladder run at
// another size, a report and a sweep.
class PretendLesson {
 public:
  PretendLesson() {
    fs::create_directories(COURSE_RUNNER_TEST_DIR);
    std::string pattern = std::string(COURSE_RUNNER_TEST_DIR) + "/lesson99_XXXXXX";
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root_ = pattern;
    fs::create_directories(root_ / "bin");
    fs::copy_file(COURSE_RUNNER, root_ / "bin/course_runner");
    fs::permissions(root_ / "bin/course_runner", fs::perms::owner_all);
    script("course_device_info", "echo 'course_device_info: skipped: no CUDA device (pretend)' >&2\nexit 77");
    step("lesson99_01_cpu", "--step 01 --kind cpu");
    step("lesson99_02_gpu", "--step 02");
    step("lesson99_03_small_gpu", "--step 03 --fits 300");
    step("lesson99_04_grid_sync", "--step 04 --not-supported 'pretend GPU lacks cooperative launches'");
    script("lesson99_report", "echo \"pretend report: $*\"");
    std::ofstream(root_ / "study.csv") << "size,old CPU,old GPU\n100,5.5,\n400,22,1.25\n";
    manifest_ = "# lesson\ttable\ttarget\targuments\n"
                "99\tlesson\t-\tPretend lesson\n"
                "99\tladder\tlesson99_01_cpu\t--n 200\n"
                "99\tladder\tlesson99_02_gpu\t\n"
                "99\tladder\tlesson99_03_small_gpu\t--n 1000\n"
                "99\tladder\tlesson99_04_grid_sync\t\n"
                "99\tn = 2000\tlesson99_02_gpu\t--n 2000\n"
                "99\treport\tlesson99_report\t--flavour plain\n"
                "99\tsweep\t-\tsize sweep|n|" + (root_ / "study.csv").string() + "|--reps 1\n"
                "99\tsweep-step\tlesson99_01_cpu<=100\tsize sweep\n"
                "99\tsweep-step\tlesson99_03_small_gpu\tsize sweep\n"
                "99\tsweep-row\t-\tsize sweep|100|--n 100\n"
                "99\tsweep-row\t-\tsize sweep|400|--n 400\n";
    write_manifest();
  }
  ~PretendLesson() { fs::remove_all(root_); }
  PretendLesson(const PretendLesson&) = delete;
  PretendLesson& operator=(const PretendLesson&) = delete;

  // Adds a step to the ladder whose answer is wrong.
  void add_wrong_step() {
    step("lesson99_05_wrong", "--step 05 --wrong");
    manifest_ += "99\tladder\tlesson99_05_wrong\t\n";
    write_manifest();
  }

  // Runs the runner on @p lesson with @p args, writing its tables under results/.
  course::CommandOutcome run(const std::string& args = "", const std::string& lesson = "99") const {
    return course::run_command(course::shell_quote((root_ / "bin/course_runner").string()) + " --lesson " + lesson +
                               " --results " + course::shell_quote((root_ / "results").string()) + " " + args);
  }

  // The runner's --compare (an exercise's performance report) with @p args.
  course::CommandOutcome compare(const std::string& args) const {
    return course::run_command(course::shell_quote((root_ / "bin/course_runner").string()) + " --compare " + args);
  }

  // A measurement recorded as a benchmark records it (--csv), of a stand-in step of n microseconds.
  std::string recorded(std::size_t n) const {
    const fs::path path = root_ / ("recorded-" + std::to_string(n) + ".csv");
    const auto o = course::run_command(course::shell_quote(COURSE_FAKE_STEP) + " --csv --reps 1 --n " + std::to_string(n));
    std::ofstream(path) << o.out;
    return path.string();
  }

  // The file results/lesson99-<name> ("" when it was not written).
  std::string result(const std::string& name) const { return course::read_text_file((root_ / "results" / ("lesson99-" + name)).string()); }

 private:
  void script(const std::string& name, const std::string& body) {
    const fs::path path = root_ / "bin" / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    fs::permissions(path, fs::perms::owner_all);
  }
  void step(const std::string& name, const std::string& args) {
    script(name, "exec " + course::shell_quote(COURSE_FAKE_STEP) + " " + args + " \"$@\"");
  }
  void write_manifest() const { std::ofstream(root_ / "bin/course_manifest.tsv") << manifest_; }

  fs::path root_;
  std::string manifest_;
};

// The ladder's CSV file, as the runner wrote it before the report layer was split by job: the
// course's result tables must not change form.
const char* const kLadderCsv =
    "lesson,step,title,kind,size,device,median_ms,min_ms,max_ms,reps,bytes,operations,rate_unit,rate,ceiling,"
    "ceiling_name,percent_of_ceiling,verdict,detail,operation,compute_ceiling,speedup_previous,speedup_cpu,"
    "speedup_all_cores\n"
    "99,01,fake step 01,cpu,n=200,pretend GPU,0.2,0.2,0.2,1,800,0,GB/s,0.004,0,,0,PASS,PASS,,0,0,1,0\n"
    "99,02,fake step 02,gpu,n=1000,pretend GPU,1,1,1,1,4000,0,GB/s,0.004,0,,0,PASS,PASS,,0,1,1,0\n"
    "99,03,fake step 03,gpu,n=250,pretend GPU,0.25,0.25,0.25,1,1000,0,GB/s,0.004,0,,0,PASS,PASS,,0,1,1,0\n"
    "99,04,lesson99_04_grid_sync,,,,0,0,0,0,0,0,,0,0,,0,SKIP,pretend GPU lacks cooperative launches,,0,0,0,0\n";

// True when a line of @p text matches @p pattern (ECMAScript, searched within the line).
bool has_line(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  for (const std::string& line : course::lines_of(text))
    if (std::regex_search(line, re)) return true;
  return false;
}

// The progress lines of a run's standard error, in order.
std::vector<std::string> progress_lines(const std::string& err) {
  std::vector<std::string> out;
  for (const std::string& line : course::lines_of(err))
    if (std::regex_search(line, std::regex("^  \\[[0-9]+/[0-9]+\\] "))) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("runner: the default run shows each lesson's ladder and leaves the other tables to --all") {
  PretendLesson lesson;
  const auto o = lesson.run();
  INFO(o.out << o.err);
  REQUIRE(o.exit_code == course::kExitPass);
  REQUIRE_THAT(o.out, Contains("Lesson 99 (Pretend lesson): ladder"));
  REQUIRE_THAT(o.out, !Contains("n = 2000") && !Contains("size sweep") && !Contains("pretend report"));
  REQUIRE_THAT(o.out, Contains("3 more tables (other sizes, sweeps, reports) with --all"));
  REQUIRE_FALSE(lesson.result("ladder.csv").empty());
  REQUIRE(lesson.result("size-sweep.csv").empty());
  REQUIRE(lesson.result("n-2000.csv").empty());
}

TEST_CASE("runner: --all adds the other ladder runs, the sweeps and the report programs") {
  PretendLesson lesson;
  const auto o = lesson.run("--all");
  INFO(o.out << o.err);
  REQUIRE(o.exit_code == course::kExitPass);
  REQUIRE_THAT(o.out, Contains("Lesson 99 (Pretend lesson): ladder") && Contains("Lesson 99 (Pretend lesson): n = 2000") &&
                          Contains("Lesson 99 (Pretend lesson): size sweep") &&
                          Contains("pretend report: --flavour plain"));
  REQUIRE_THAT(o.out, !Contains("more table"));
  REQUIRE(has_line(o.out, "^  02 +fake step 02 +2.000 "));  // the ladder run at n = 2000
  REQUIRE_FALSE(lesson.result("n-2000.csv").empty());
  REQUIRE_FALSE(lesson.result("size-sweep.csv").empty());
}

TEST_CASE("runner: each program run gets a progress line on standard error, counted against the whole run") {
  PretendLesson lesson;
  const auto ladder = lesson.run();
  REQUIRE(progress_lines(ladder.err) == std::vector<std::string>{"  [1/4] lesson99_01_cpu --n 200", "  [2/4] lesson99_02_gpu",
                                                                 "  [3/4] lesson99_03_small_gpu --n 1000",
                                                                 "  [4/4] lesson99_04_grid_sync"});
  REQUIRE(progress_lines(ladder.out).empty());
  // --all: 4 ladder steps, the run at n = 2000, the report, and the sweep's 3 cells (step 01 stops
  // after the row "100").
  const auto all = progress_lines(lesson.run("--all").err);
  REQUIRE(all.size() == 9);
  REQUIRE(all[4] == "  [5/9] lesson99_02_gpu --n 2000");
  REQUIRE(all[5] == "  [6/9] lesson99_report --flavour plain");
  REQUIRE_THAT(all[8], Contains("[9/9] lesson99_03_small_gpu --n 400"));
}

TEST_CASE("runner: a step skipped for want of a GPU feature shows SKIP and why, not ERROR") {
  PretendLesson lesson;
  const auto o = lesson.run();
  INFO(o.out);
  REQUIRE(has_line(o.out, "^  04 +lesson99_04_grid_sync .*SKIP$"));
  REQUIRE(has_line(o.out, "^SKIP: pretend GPU lacks cooperative launches$"));
  REQUIRE_THAT(o.out, !Contains("ERROR"));
}

TEST_CASE("runner: a size that does not fit is halved until it fits, with a note") {
  PretendLesson lesson;
  const auto o = lesson.run();
  INFO(o.out);
  REQUIRE(has_line(o.out, "^  03 +fake step 03 +n=250 "));  // 1000 halved twice to fit 300
  REQUIRE(has_line(o.out, "^note: lesson99_03_small_gpu: .* run at n=250 \\(every size halved 2 times\\)$"));
}

TEST_CASE("runner: a sweep shows the study's figures beside the steps' times, a step stopping at its last row") {
  PretendLesson lesson;
  const auto o = lesson.run("--all");
  INFO(o.out);
  REQUIRE(has_line(o.out, "^n +01 ms +03 ms +fastest +study: old CPU ms +study: old GPU ms$"));
  REQUIRE(has_line(o.out, "^100 +0.1000 +0.1000 +01 +5.5 +-$"));  // a tie goes to the first step
  REQUIRE(has_line(o.out, "^400 +- +0.2000 +03 +22 +1.25$"));     // step 01 stops after the row "100"
  REQUIRE(has_line(o.out, "lesson99_03_small_gpu: .* run at n=200 \\(every size halved 1 time\\)"));
}

TEST_CASE("runner: the tables are written as CSV, JSON and SVG, the CSV as the course has always written it") {
  PretendLesson lesson;
  REQUIRE(lesson.run("--all").exit_code == course::kExitPass);
  for (const char* name : {"ladder.csv", "ladder.json", "ladder.svg", "roofline.svg", "size-sweep.csv", "size-sweep.json"})
    REQUIRE_FALSE(lesson.result(name).empty());
  REQUIRE(lesson.result("ladder.csv") == kLadderCsv);
  REQUIRE(lesson.result("size-sweep.csv") ==
          "n,step_01_ms,step_01_check,step_03_ms,step_03_check,fastest,study_old CPU_ms,study_old GPU_ms\n"
          "100,0.1,PASS,0.1,PASS,01,5.5,\n"
          "400,,,0.2,PASS,03,22,1.25\n");
  const auto json = course::lines_of(lesson.result("ladder.json"));
  REQUIRE(json.size() == 6);  // "[", a line per step, "]"
  REQUIRE_THAT(json[1], Contains("\"step\": \"01\"") && Contains("\"speedup_cpu\": 1,"));
}

TEST_CASE("runner: an option in --args takes the place of the table's own, so that no step gets it twice") {
  PretendLesson lesson;
  const auto o = lesson.run("--args '--n 700'");
  INFO(o.out << o.err);
  REQUIRE(o.exit_code == course::kExitPass);
  const std::string csv = lesson.result("ladder.csv");
  REQUIRE_THAT(csv, Contains("99,01,fake step 01,cpu,n=700,") && Contains("99,02,fake step 02,gpu,n=700,"));
  REQUIRE_THAT(csv, !Contains("ERROR"));
}

TEST_CASE("without_options_of leaves out each option the other arguments give, with its value") {
  REQUIRE(course::without_options_of("--n 512 --type float", "--n 1024") == "--type float");
  REQUIRE(course::without_options_of("--n=512 --type float", "--n=1024 --reps 3") == "--type float");
  REQUIRE(course::without_options_of("--verify --n 9", "--verify") == "--n 9");
  REQUIRE(course::without_options_of("--m 4 --n 4", "") == "--m 4 --n 4");
  REQUIRE(course::without_options_of("--m 4 --n 4", "--nn 2") == "--m 4 --n 4");
}

TEST_CASE("runner: --table runs only the tables whose title contains the text, of all tables") {
  PretendLesson lesson;
  const auto o = lesson.run("--table size");
  INFO(o.out << o.err);
  REQUIRE(o.exit_code == course::kExitPass);
  REQUIRE(has_line(o.out, "^400 +- +0.2000 +03 +22 +1.25$"));
  REQUIRE_THAT(o.out, !Contains("lesson99_04_grid_sync") && !Contains("more table"));
  REQUIRE_FALSE(lesson.result("size-sweep.csv").empty());
  REQUIRE(lesson.result("ladder.csv").empty());
  REQUIRE_THAT(lesson.run("--table report").out, Contains("pretend report") && !Contains("size sweep"));
}

TEST_CASE("runner: --table with no matching table, or --lesson with no such lesson, is refused in one line") {
  PretendLesson lesson;
  for (const char* args : {"--table 'no such'", "--all --table 'no such'"}) {
    const auto o = lesson.run(args);
    REQUIRE(o.exit_code == course::kExitUsage);
    REQUIRE(course::lines_of(o.err).size() == 1);
    REQUIRE_THAT(o.err, Contains("--table no such: no such table"));
  }
  const auto o = lesson.run("", "42");
  REQUIRE(o.exit_code == course::kExitUsage);
  REQUIRE(course::lines_of(o.err).size() == 1);
  REQUIRE_THAT(o.err, Contains("--lesson 42: no such lesson"));
}

TEST_CASE("runner: --list names the programs of the default run, and with --all those of every table") {
  PretendLesson lesson;
  const auto ladder = lesson.run("--list");
  INFO(ladder.out);
  REQUIRE(ladder.exit_code == course::kExitPass);
  REQUIRE(course::lines_of(ladder.out) ==
          std::vector<std::string>{"99  ladder  lesson99_01_cpu  --n 200", "99  ladder  lesson99_02_gpu",
                                   "99  ladder  lesson99_03_small_gpu  --n 1000", "99  ladder  lesson99_04_grid_sync",
                                   "4 program runs",
                                   "3 more tables (other sizes, sweeps, reports) with --all; --list --all names them"});
  REQUIRE(lesson.result("ladder.csv").empty());  // nothing ran
  const auto all = lesson.run("--list --all");
  REQUIRE_THAT(all.out, Contains("99  n = 2000  lesson99_02_gpu  --n 2000") &&
                            Contains("99  report  lesson99_report  --flavour plain") &&
                            Contains("99  sweep \"size sweep\"  lesson99_01_cpu  (2 rows, up to 100)") &&
                            Contains("9 program runs"));
}

TEST_CASE("runner: a wrong answer in the ladder fails the run") {
  PretendLesson lesson;
  lesson.add_wrong_step();
  const auto o = lesson.run();
  INFO(o.out);
  REQUIRE(o.exit_code == course::kExitFail);
  REQUIRE(has_line(o.out, "^  05 +fake step 05 .*FAIL$"));
}

TEST_CASE("runner: --compare says whether the exercise's speed target (1.2x the solution's time) is met") {
  PretendLesson lesson;
  // Yours takes 1 ms (n = 1000); the solution's recorded time is 0.9 ms, then 0.5 ms.
  auto o = lesson.compare("lesson99_02_gpu --recorded " + lesson.recorded(900) + " --args '--reps 1'");
  INFO(o.out << o.err);
  REQUIRE(o.exit_code == course::kExitPass);
  REQUIRE_THAT(o.out, Contains("your kernel takes 1.11x the solution's time"));
  REQUIRE_THAT(o.out, Contains("speed target (within 1.2x the solution's time): met"));
  o = lesson.compare("lesson99_02_gpu --recorded " + lesson.recorded(500) + " --args '--reps 1'");
  INFO(o.out << o.err);
  REQUIRE(o.exit_code == course::kExitPass);
  REQUIRE_THAT(o.out, Contains("your kernel takes 2.00x the solution's time"));
  REQUIRE_THAT(o.out, Contains("speed target (within 1.2x the solution's time): not met (advisory"));
}
