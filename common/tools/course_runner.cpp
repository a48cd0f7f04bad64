// course_runner: runs the course. For each lesson in build/bin/course_manifest.tsv it runs every step
// program in order, collects the one CSV row each prints, and shows the lesson's ladder table (time,
// rate, share of the ceiling, speed-up over the previous step and over the CPU, PASS/FAIL). With --all
// it adds the lesson's other tables: ladders at other sizes, sweeps (the same steps over several sizes
// or settings, the original study's figures beside them) and report programs; --table picks tables by
// title. Each program run gets a progress line on standard error. Tables are also written as CSV and
// JSON under the results folder. A step whose size does not fit in the GPU's memory is run again at
// half the size, and so on, with a note.
// With --compare A B it times two programs side by side (an exercise against its solution).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/process.h"
#include "course/program.h"
#include "course/report.h"

namespace {

using course::first_line;
using course::fields_of;
using course::lines_of;
using course::run_command;
using course::shell_quote;
using course::step_key;

struct Entry {
  std::string lesson, table, target, args;
};

// Runs one step program with --csv and turns what it printed into a measurement. An option that both the
// extra arguments (--args) and the table's own give takes the value of --args.
course::Measurement run_step_once(const std::string& bin, const Entry& e, const std::string& extra_args) {
  std::string command = shell_quote(bin + "/" + e.target) + " --csv " + extra_args + " " +
                        course::without_options_of(e.args, extra_args);
  course::CommandOutcome o = run_command(command);
  course::Measurement m;
  auto lines = lines_of(o.out);
  if ((o.exit_code == course::kExitPass || o.exit_code == course::kExitFail || o.exit_code == course::kExitSkipped) &&
      lines.size() >= 2 && lines[lines.size() - 2] == course::csv_header()) {
    m = course::from_csv(lines.back());
    if (o.exit_code == course::kExitSkipped) m.verdict = "SKIP";
    return m;
  }
  m.lesson = e.lesson;
  m.step = step_key(e.target);
  m.title = e.target;
  std::string why = first_line(o.err);
  if (o.exit_code == course::kExitSkipped) {  // the GPU lacks what the step needs; it said why
    const std::string marker = "skipped: ";
    auto at = why.find(marker);
    m.verdict = "SKIP";
    m.detail = at == std::string::npos ? why : why.substr(at + marker.size());
    return m;
  }
  m.verdict = "ERROR";
  m.detail = "exit code " + std::to_string(o.exit_code) + (why.empty() ? "" : ": " + why);
  return m;
}

// The programs a run starts, counted for the line each gets on standard error ("  [3/46] program args").
struct Progress {
  int started = 0, total = 0;
  void next(const std::string& program, const std::string& args) {
    std::cerr << "  [" << ++started << "/" << total << "] " << program;
    if (args.find_first_not_of(' ') != std::string::npos) std::cerr << " " << args;
    std::cerr << "\n";
  }
};
Progress progress;

// What the runner says under a table about steps it had to shrink.
std::vector<std::string> shrink_notes;

// Runs one step; when its size does not fit in the GPU's memory, runs it again with every size halved
// (--shrink 1, 2, ...) until it fits, and notes it, so that a small GPU still gets a whole table.
course::Measurement run_step(const std::string& bin, const Entry& e, const std::string& extra_args) {
  course::Measurement m = run_step_once(bin, e, extra_args);
  for (int k = 1; k <= 12 && m.verdict == "ERROR" && m.detail.find(course::kDoesNotFit) != std::string::npos; ++k) {
    m = run_step_once(bin, e, extra_args + " --shrink " + std::to_string(k));
    if (m.verdict != "ERROR")
      shrink_notes.push_back(e.target + ": the table's size does not fit in this GPU's memory; run at " + m.size +
                             " (every size halved " + std::to_string(k) + (k == 1 ? " time)" : " times)"));
  }
  return m;
}

void print_shrink_notes() {
  for (const std::string& note : shrink_notes) std::cout << "note: " << note << "\n";
  shrink_notes.clear();
}

std::string slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// A sweep as the manifest declares it (course_add_sweep): steps with an optional last row, rows of
// arguments, arguments for every run, and the study's figures.
struct SweepStep {
  std::string target, last_row;  // last_row empty: every row
};
struct SweepRowSpec {
  std::string label, args;
};
struct SweepSpec {
  std::string lesson, title, label_title, study_file, args;
  std::vector<SweepStep> steps;
  std::vector<SweepRowSpec> rows;
};

// The '|'-separated parts of a sweep's manifest line, the last keeping the rest of the line.
std::vector<std::string> parts_of(const std::string& text, std::size_t at_most) {
  return fields_of(text, course::FieldRules{'|', false}, at_most);
}

// The rows each step of a sweep runs: every row, or up to the row its limit names.
std::vector<std::size_t> rows_run(const SweepSpec& spec) {
  std::vector<std::size_t> last_row(spec.steps.size(), spec.rows.size());
  for (std::size_t s = 0; s < spec.steps.size(); ++s)
    for (std::size_t r = 0; r < spec.rows.size(); ++r)
      if (!spec.steps[s].last_row.empty() && spec.rows[r].label == spec.steps[s].last_row) last_row[s] = r + 1;
  return last_row;
}

course::Sweep run_sweep(const std::string& bin, const SweepSpec& spec, const std::string& extra) {
  course::Sweep sweep;
  sweep.label_title = spec.label_title;
  course::StudyFigures study;
  if (!spec.study_file.empty()) {
    study = course::parse_study_figures(course::read_text_file(spec.study_file), spec.study_file);
    sweep.study_columns = study.columns;
  }
  for (const SweepStep& step : spec.steps) sweep.steps.push_back(step_key(step.target));
  const std::vector<std::size_t> last_row = rows_run(spec);
  for (std::size_t r = 0; r < spec.rows.size(); ++r) {
    course::SweepRow row;
    row.label = spec.rows[r].label;
    for (std::size_t s = 0; s < spec.steps.size(); ++s) {
      if (r >= last_row[s]) {
        row.cells.emplace_back();  // beyond the step's last row: not run
        continue;
      }
      progress.next(spec.steps[s].target, spec.rows[r].args);
      Entry e{spec.lesson, spec.title, spec.steps[s].target, spec.rows[r].args + " " + spec.args};
      row.cells.push_back(run_step(bin, e, extra));
    }
    for (std::size_t i = 0; i < study.labels.size(); ++i)
      if (study.labels[i] == row.label) row.study = study.rows[i];
    sweep.rows.push_back(row);
  }
  return sweep;
}

// The solution's measurement recorded when a student's copy of the course was made (a CSV header and
// one row, as a benchmark prints with --csv).
course::Measurement recorded_measurement(const std::string& path) {
  const auto lines = lines_of(course::read_text_file(path));
  if (lines.size() < 2 || lines[0] != course::csv_header())
    throw course::UsageError(path + ": not a recorded measurement (a CSV header and one row)");
  return course::from_csv(lines[1]);
}

int compare_programs(const std::string& bin, const std::string& yours, const std::string& reference,
                     const std::string& recorded, const std::string& extra) {
  Entry a{"", "", yours, ""}, b{"", "", reference, ""};
  course::Measurement mine = run_step(bin, a, extra);
  course::Measurement ref = recorded.empty() ? run_step(bin, b, extra) : recorded_measurement(recorded);
  course::TextTable table({"program", "time ms", "min-max ms", "rate", "check"});
  const std::string reference_label = recorded.empty() ? reference : "the solution, recorded on " + ref.device;
  for (const course::Measurement* m : {&mine, &ref}) {
    bool timed = m->verdict == "PASS" || m->verdict == "FAIL";
    table.add_row({m == &mine ? yours : reference_label, timed ? course::format_significant(m->time.median_ms, 4) : "-",
                   timed ? course::format_significant(m->time.min_ms, 3) + "-" + course::format_significant(m->time.max_ms, 3) : "-",
                   m->verdict == "PASS" && m->rate() > 0 ? course::format_significant(m->rate(), 4) + " " + m->rate_unit : "-",
                   m->verdict});
  }
  std::cout << "performance report: " << mine.title << " (" << mine.size << ", " << mine.device << ")\n\n";
  table.print(std::cout);
  if (mine.verdict == "PASS" && ref.verdict == "PASS" && mine.time.median_ms > 0) {
    double ratio = mine.time.median_ms / ref.time.median_ms;
    std::cout << "\nyour kernel takes " << course::format_significant(ratio, 3) << "x the solution's time"
              << (ratio <= 1.1 ? " (on par with the solution)" : "") << "\n";
    // Every exercise's speed target, as its stub states it: advisory, never part of the grade.
    constexpr double kSpeedTarget = 1.2;
    std::cout << "speed target (within " << kSpeedTarget << "x the solution's time): "
              << (ratio <= kSpeedTarget ? "met" : "not met (advisory: the grade does not depend on it)") << "\n";
    if (!recorded.empty() && ref.device != mine.device)
      std::cout << "(the solution's time was recorded on " << ref.device << " when your copy of the course was made; "
                << "yours ran on " << mine.device << ", so the ratio compares two GPUs)\n";
  }
  for (const course::Measurement* m : {&mine, &ref})
    if (m->verdict != "PASS") std::cout << m->title << ": " << m->detail << "\n";
  if (mine.verdict == "SKIP") return course::kExitSkipped;
  return mine.verdict == "PASS" && ref.verdict == "PASS" ? course::kExitPass : course::kExitFail;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("course_runner", [&] {
    course::CommandLine cli("course_runner",
                            "Runs every lesson's ladder (or one lesson's) and prints a table per lesson; --all adds "
                            "every other table.");
    cli.add_text("lesson", "", "run only this lesson (its number, e.g. 02)");
    cli.add_flag("all", "add every other table of each lesson: ladders at other sizes, sweeps, report programs");
    cli.add_text("table", "",
                 "run only the tables whose title contains TEXT, of all tables (a lesson's main table is \"ladder\")");
    cli.add_text("results", "results", "folder for the CSV and JSON copies of the tables");
    cli.add_flag("list", "list the programs the run would start, run nothing");
    cli.add_text("compare", "", "time this program against --reference (exercise performance report)");
    cli.add_text("reference", "", "the reference program for --compare");
    cli.add_text("recorded", "", "for --compare: the reference's measurement recorded earlier (CSV)", "FILE");
    cli.add_text("args", "", "extra arguments for every step program, over the tables' own (e.g. \"--reps 5\")", "ARGS");
    cli.add_text("summary", "", "print a measurement's verdict, median ms and GPU, tab-separated (for scripts)", "FILE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const std::string bin = course::directory_of_this_program();
    const std::string extra = cli.text("args");

    if (cli.given("summary")) {
      const course::Measurement m = recorded_measurement(cli.text("summary"));
      std::cout << m.verdict << "\t" << course::format_significant(m.time.median_ms, 4) << "\t" << m.device << "\n";
      return course::kExitPass;
    }
    if (cli.given("compare")) {
      if (!cli.given("reference") && !cli.given("recorded"))
        throw course::UsageError("--compare needs --reference or --recorded");
      return compare_programs(bin, cli.text("compare"), cli.text("reference"), cli.text("recorded"), extra);
    }

    std::vector<Entry> entries;
    std::map<std::string, std::string> titles;
    std::map<std::string, SweepSpec> sweeps;  // by lesson and title
    for (const course::ManifestEntry& m : course::read_manifest(bin)) {
      const Entry e{m.lesson, m.table, m.target, m.args};
      const std::string line = e.lesson + "\t" + e.table + "\t" + e.target + "\t" + e.args;
      if (e.table == "lesson") {
        titles[e.lesson] = e.args;
        continue;
      }
      if (e.table == "profile" || e.table == "small") continue;  // for course_profile, and grade-class's sanitizer runs
      if (e.table.rfind("sweep", 0) == 0) {
        if (cli.given("lesson") && e.lesson != cli.text("lesson")) continue;
        if (e.table == "sweep") {  // title|label title|study file|arguments for every run
          auto f = parts_of(e.args, 4);
          if (f.size() != 4) throw course::UsageError("course_manifest.tsv: malformed sweep line: " + line);
          SweepSpec& spec = sweeps[e.lesson + "\t" + f[0]];
          spec = SweepSpec{e.lesson, f[0], f[1], f[2], f[3], {}, {}};
          entries.push_back(Entry{e.lesson, "sweep", "-", f[0]});
        } else {
          auto f = parts_of(e.args, e.table == "sweep-row" ? 3 : 1);
          auto found = sweeps.find(e.lesson + "\t" + f[0]);
          if (found == sweeps.end()) throw course::UsageError("course_manifest.tsv: step or row of an undeclared sweep: " + line);
          if (e.table == "sweep-step") {
            auto limit = e.target.find("<=");
            found->second.steps.push_back(limit == std::string::npos ? SweepStep{e.target, ""}
                                                                     : SweepStep{e.target.substr(0, limit), e.target.substr(limit + 2)});
          } else if (e.table == "sweep-row" && f.size() == 3) {
            found->second.rows.push_back(SweepRowSpec{f[1], f[2]});
          } else {
            throw course::UsageError("course_manifest.tsv: malformed sweep line: " + line);
          }
        }
        continue;
      }
      if (cli.given("lesson") && e.lesson != cli.text("lesson")) continue;
      entries.push_back(e);
    }
    if (cli.given("lesson") && entries.empty())
      throw course::UsageError("--lesson " + cli.text("lesson") + ": no such lesson (see --list)");
    // Which tables run: each lesson's ladder; with --all every table; with --table those it names, of
    // all tables. A sweep's title is in its arguments, a program's report is named by the program.
    auto title_of = [](const Entry& e) {
      return e.table == "sweep" ? e.args : e.table.rfind("report", 0) == 0 ? e.target : e.table;
    };
    std::set<std::string> left_out;  // the tables the default run leaves to --all, by lesson and title
    if (cli.given("table")) {
      entries.erase(std::remove_if(entries.begin(), entries.end(),
                                   [&](const Entry& e) { return title_of(e).find(cli.text("table")) == std::string::npos; }),
                    entries.end());
      if (entries.empty()) throw course::UsageError("--table " + cli.text("table") + ": no such table (see --list --all)");
    } else if (!cli.flag("all")) {
      for (const Entry& e : entries)
        if (e.table != "ladder") left_out.insert(e.lesson + "\t" + title_of(e));
      entries.erase(std::remove_if(entries.begin(), entries.end(), [](const Entry& e) { return e.table != "ladder"; }),
                    entries.end());
    }
    const std::string more_tables =
        left_out.empty() ? ""
                         : std::to_string(left_out.size()) + " more table" + (left_out.size() == 1 ? "" : "s") +
                               " (other sizes, sweeps, reports) with --all; --list --all names them\n";
    for (const Entry& e : entries) {
      if (e.table != "sweep") {
        ++progress.total;
        continue;
      }
      for (std::size_t rows : rows_run(sweeps[e.lesson + "\t" + e.args])) progress.total += static_cast<int>(rows);
    }

    if (cli.flag("list")) {
      for (const Entry& e : entries) {
        if (e.table == "sweep") {
          const SweepSpec& spec = sweeps[e.lesson + "\t" + e.args];
          for (const SweepStep& step : spec.steps)
            std::cout << e.lesson << "  sweep \"" << spec.title << "\"  " << step.target << "  (" << spec.rows.size()
                      << " rows" << (step.last_row.empty() ? "" : ", up to " + step.last_row) << ")\n";
          continue;
        }
        std::cout << e.lesson << "  " << e.table << "  " << e.target << (e.args.empty() ? "" : "  " + e.args) << "\n";
      }
      std::cout << progress.total << " program run" << (progress.total == 1 ? "" : "s") << "\n" << more_tables;
      return course::kExitPass;
    }

    // One device description and one ceiling for the whole run.
    course::CommandOutcome info = run_command(shell_quote(bin + "/course_device_info") + " --measure");
    std::string ceiling_arg;
    double copy_bandwidth = 0;
    if (info.exit_code == course::kExitPass) {
      std::cout << "GPU: ";
      for (const std::string& l : lines_of(info.out)) {
        if (l.rfind("name=", 0) == 0) std::cout << l.substr(5);
        if (l.rfind("copy_bandwidth_gbs=", 0) == 0) {
          ceiling_arg += " --copy-bandwidth " + l.substr(19);
          copy_bandwidth = std::atof(l.substr(19).c_str());
          std::cout << ", copy bandwidth " << l.substr(19) << " GB/s (device-to-device, read + write)";
        }
        if (l.rfind("read_bandwidth_gbs=", 0) == 0) {
          ceiling_arg += " --read-bandwidth " + l.substr(19);
          std::cout << ", read bandwidth " << l.substr(19) << " GB/s (read-only stream)";
        }
      }
      std::cout << "\n";
    } else if (info.exit_code == course::kExitSkipped) {
      std::cout << "No CUDA device (" << first_line(info.err)
                << "): CPU steps run, GPU steps are reported as SKIP.\n";
    } else {
      throw std::runtime_error("course_device_info failed: " + first_line(info.err));
    }

    std::error_code error;
    std::filesystem::create_directories(cli.text("results"), error);
    if (error) throw course::UsageError(cli.text("results") + ": cannot create the folder (" + error.message() + ")");

    bool all_good = true;
    std::string lesson;
    std::vector<std::string> tables;
    std::map<std::string, std::vector<course::Measurement>> rows;
    auto finish_lesson = [&] {
      for (const std::string& t : tables) {
        auto ladder = course::make_ladder(rows[t]);
        std::string title = "Lesson " + lesson + " (" + titles[lesson] + "): " + t;
        std::cout << "\n";
        course::print_ladder(std::cout, title, ladder);
        std::string base = cli.text("results") + "/lesson" + lesson + "-" + slug(t);
        std::ofstream csv(base + ".csv"), json(base + ".json"), svg(base + ".svg");
        course::write_ladder_csv(csv, ladder);
        course::write_ladder_json(json, ladder);
        course::write_ladder_svg(svg, title, ladder);
        if (t == "ladder") {  // the lesson's roofline, from its main ladder
          std::ofstream roofline(cli.text("results") + "/lesson" + lesson + "-roofline.svg");
          // The memory roof is the lesson's own memory ceiling (read-only or copy), else the copy.
          double memory = copy_bandwidth;
          std::string memory_name = "copy bandwidth";
          for (const auto& r : ladder)
            if (r.m.rate_unit == "GB/s" && r.m.ceiling > 0) {
              memory = r.m.ceiling;
              memory_name = r.m.ceiling_name;
              break;
            }
          course::write_roofline_svg(roofline, "Lesson " + lesson + " (" + titles[lesson] + "): roofline", ladder,
                                     memory, memory_name);
        }
        for (const auto& r : ladder)
          if (r.m.verdict != "PASS" && r.m.verdict != "SKIP") all_good = false;
      }
      print_shrink_notes();
      tables.clear();
      rows.clear();
    };
    for (const Entry& e : entries) {
      if (e.lesson != lesson) {
        finish_lesson();
        lesson = e.lesson;
        std::cout << "\n=== Lesson " << lesson << ": " << titles[lesson] << " ===\n";
      }
      if (e.table == "sweep") {
        finish_lesson();
        const SweepSpec& spec = sweeps[e.lesson + "\t" + e.args];
        course::Sweep sweep = run_sweep(bin, spec, extra + " " + ceiling_arg);
        std::string title = "Lesson " + lesson + " (" + titles[lesson] + "): " + spec.title;
        std::cout << "\n";
        course::print_sweep(std::cout, title, sweep);
        print_shrink_notes();
        std::string base = cli.text("results") + "/lesson" + lesson + "-" + slug(spec.title);
        std::ofstream csv(base + ".csv"), json(base + ".json");
        course::write_sweep_csv(csv, sweep);
        course::write_sweep_json(json, sweep);
        for (const course::SweepRow& row : sweep.rows)
          for (const course::Measurement& m : row.cells)
            if (!m.verdict.empty() && m.verdict != "PASS" && m.verdict != "SKIP") all_good = false;
        continue;
      }
      if (e.table == "report" || e.table == "report+results") {
        finish_lesson();
        std::cout << "\n";
        const std::string results = e.table == "report+results" ? " --results " + shell_quote(cli.text("results")) : "";
        progress.next(e.target, e.args);
        course::CommandOutcome o = run_command(shell_quote(bin + "/" + e.target) + " " + e.args + results);
        std::cout << o.out;
        // Kept as printed, beside the tables (lesson02-step07_ideas_apart.txt): the lesson's pages quote
        // it, and course_check_figures holds them to it.
        // The results folder is named as the runner's user sees it, results/, not by this machine's path.
        std::string name = e.target.rfind("lesson" + lesson + "_", 0) == 0 ? e.target.substr(9) : e.target;
        std::string kept = o.out;
        const std::string folder = cli.text("results") + "/";
        for (std::size_t at = kept.find(folder); at != std::string::npos; at = kept.find(folder, at))
          kept.replace(at, folder.size(), "results/");
        std::ofstream(cli.text("results") + "/lesson" + lesson + "-" + name + ".txt") << kept;
        if (o.exit_code == course::kExitSkipped) {
          std::cout << e.target << ": skipped (no CUDA device)\n";
        } else if (o.exit_code != course::kExitPass) {
          std::cout << e.target << ": " << (o.err.empty() ? "failed" : o.err);
          all_good = false;
        }
        continue;
      }
      if (!rows.count(e.table)) tables.push_back(e.table);
      progress.next(e.target, e.args);
      rows[e.table].push_back(run_step(bin, e, extra + " " + ceiling_arg));
    }
    finish_lesson();
    std::cout << "\ntables written to " << cli.text("results") << "/\n" << more_tables;
    return all_good ? course::kExitPass : course::kExitFail;
  });
}
