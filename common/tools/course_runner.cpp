// course_runner: runs the course. For each lesson in build/bin/course_manifest.tsv it runs every step
// program in order, collects the one CSV row each prints, and shows the lesson's ladder table (time,
// rate, share of the ceiling, speed-up over the previous step and over the CPU, PASS/FAIL); then the
// lesson's report programs. Tables are also written as CSV and JSON under the results folder.
// With --compare A B it times two programs side by side (an exercise against its solution).
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"

namespace {

struct Entry {
  std::string lesson, table, target, args;
};

struct Outcome {
  int exit_code = 0;
  std::string out, err;
};

std::string directory_of_this_program() {
  std::vector<char> path(4096);
  ssize_t n = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (n <= 0) return ".";
  std::string p(path.data(), static_cast<std::size_t>(n));
  return p.substr(0, p.find_last_of('/'));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a command through the shell, capturing standard output and standard error separately.
Outcome run_command(const std::string& command) {
  char err_path[] = "/tmp/course_runner_XXXXXX";
  int fd = mkstemp(err_path);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(fd);
  Outcome o;
  FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) o.out.append(buffer, got);
  int status = pclose(pipe);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  o.err = read_file(err_path);
  std::remove(err_path);
  return o;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) lines.push_back(line);
  return lines;
}

std::string first_line(const std::string& text) {
  auto lines = lines_of(text);
  return lines.empty() ? "" : lines.front();
}

// Runs one step program with --csv and turns what it printed into a measurement.
course::Measurement run_step(const std::string& bin, const Entry& e, const std::string& extra_args) {
  std::string command = shell_quote(bin + "/" + e.target) + " --csv " + extra_args + " " + e.args;
  Outcome o = run_command(command);
  course::Measurement m;
  auto lines = lines_of(o.out);
  if ((o.exit_code == course::kExitPass || o.exit_code == course::kExitFail || o.exit_code == course::kExitSkipped) &&
      lines.size() >= 2 && lines[lines.size() - 2] == course::csv_header()) {
    m = course::from_csv(lines.back());
    if (o.exit_code == course::kExitSkipped) m.verdict = "SKIP";
    return m;
  }
  m.lesson = e.lesson;
  m.step = e.target;
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

std::string slug(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '-') out += '-';
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

int compare_programs(const std::string& bin, const std::string& yours, const std::string& reference,
                     const std::string& extra) {
  Entry a{"", "", yours, ""}, b{"", "", reference, ""};
  course::Measurement mine = run_step(bin, a, extra), ref = run_step(bin, b, extra);
  course::TextTable table({"program", "time ms", "min-max ms", "rate", "check"});
  for (const course::Measurement* m : {&mine, &ref}) {
    bool timed = m->verdict == "PASS" || m->verdict == "FAIL";
    table.add_row({m == &mine ? yours : reference, timed ? course::format_significant(m->time.median_ms, 4) : "-",
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
                            "Runs every lesson's ladder (or one lesson's) and prints a table per lesson.");
    cli.add_text("lesson", "", "run only this lesson (its number, e.g. 02)");
    cli.add_text("results", "results", "folder for the CSV and JSON copies of the tables");
    cli.add_flag("list", "list the lessons and their programs, run nothing");
    cli.add_text("compare", "", "time this program against --reference (exercise performance report)");
    cli.add_text("reference", "", "the reference program for --compare");
    cli.add_text("args", "", "extra arguments for every step program (e.g. \"--reps 5\")", "ARGS");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const std::string bin = directory_of_this_program();
    const std::string extra = cli.text("args");

    if (cli.given("compare")) {
      if (!cli.given("reference")) throw course::UsageError("--compare needs --reference");
      return compare_programs(bin, cli.text("compare"), cli.text("reference"), extra);
    }

    std::ifstream manifest(bin + "/course_manifest.tsv");
    if (!manifest) throw course::UsageError(bin + "/course_manifest.tsv: missing; build the course first");
    std::vector<Entry> entries;
    std::map<std::string, std::string> titles;
    std::string line;
    while (std::getline(manifest, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::stringstream s(line);
      Entry e;
      std::getline(s, e.lesson, '\t');
      std::getline(s, e.table, '\t');
      std::getline(s, e.target, '\t');
      std::getline(s, e.args);
      if (e.table == "lesson") {
        titles[e.lesson] = e.args;
        continue;
      }
      if (e.table == "small") continue;  // for .ci/gpu-check, not for the runner
      if (cli.given("lesson") && e.lesson != cli.text("lesson")) continue;
      entries.push_back(e);
    }
    if (cli.given("lesson") && entries.empty())
      throw course::UsageError("--lesson " + cli.text("lesson") + ": no such lesson (see --list)");

    if (cli.flag("list")) {
      for (const Entry& e : entries)
        std::cout << e.lesson << "  " << e.table << "  " << e.target << (e.args.empty() ? "" : "  " + e.args) << "\n";
      return course::kExitPass;
    }

    // One device description and one ceiling for the whole run.
    Outcome info = run_command(shell_quote(bin + "/course_device_info") + " --measure");
    std::string ceiling_arg;
    if (info.exit_code == course::kExitPass) {
      std::cout << "GPU: ";
      for (const std::string& l : lines_of(info.out)) {
        if (l.rfind("name=", 0) == 0) std::cout << l.substr(5);
        if (l.rfind("copy_bandwidth_gbs=", 0) == 0) {
          ceiling_arg = "--copy-bandwidth " + l.substr(19);
          std::cout << ", copy bandwidth " << l.substr(19) << " GB/s (device-to-device, read + write)";
        }
      }
      std::cout << "\n";
    } else if (info.exit_code == course::kExitSkipped) {
      std::cout << "No CUDA device (" << first_line(info.err)
                << "): CPU steps run, GPU steps are reported as SKIP.\n";
    } else {
      throw std::runtime_error("course_device_info failed: " + first_line(info.err));
    }

    std::string command = "mkdir -p " + shell_quote(cli.text("results"));
    if (std::system(command.c_str()) != 0) throw course::UsageError(cli.text("results") + ": cannot create the folder");

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
        for (const auto& r : ladder)
          if (r.m.verdict != "PASS" && r.m.verdict != "SKIP") all_good = false;
      }
      tables.clear();
      rows.clear();
    };
    for (const Entry& e : entries) {
      if (e.lesson != lesson) {
        finish_lesson();
        lesson = e.lesson;
        std::cout << "\n=== Lesson " << lesson << ": " << titles[lesson] << " ===\n";
      }
      if (e.table == "report") {
        finish_lesson();
        std::cout << "\n";
        Outcome o = run_command(shell_quote(bin + "/" + e.target) + " " + e.args);
        std::cout << o.out;
        if (o.exit_code == course::kExitSkipped) {
          std::cout << e.target << ": skipped (no CUDA device)\n";
        } else if (o.exit_code != course::kExitPass) {
          std::cout << e.target << ": " << (o.err.empty() ? "failed" : o.err);
          all_good = false;
        }
        continue;
      }
      if (!rows.count(e.table)) tables.push_back(e.table);
      std::cerr << "  running " << e.target << " " << e.args << "\n";
      rows[e.table].push_back(run_step(bin, e, extra + " " + ceiling_arg));
    }
    finish_lesson();
    std::cout << "\ntables written to " << cli.text("results") << "/\n";
    return all_good ? course::kExitPass : course::kExitFail;
  });
}
