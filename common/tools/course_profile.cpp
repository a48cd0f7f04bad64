// course_profile: the hardware counters behind each step of a lesson. Runs Nsight Compute (ncu) on
// every GPU step of the lesson (or one step, or an exercise's benchmark beside its solution's) at the
// lesson's profiling size, reads the raw metrics of each kernel, and prints one table: a row per
// kernel of each step, a column per counter the lesson chose (course_add_profile), then what each
// counter means. The table is also written as CSV and JSON under the results folder.
// Without ncu, or without permission to read the GPU's counters, it says so in one line and exits 77.
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/delimited_text.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/process.h"
#include "course/profile.h"
#include "course/program.h"
#include "course/report.h"

namespace {

// The course's own L2-flushing kernel runs before every timed run; it is not the step's.
const std::vector<std::string> kNotTheStep{"read_everything"};

struct ProfileSpec {
  std::string args;                   // the profiling size
  double elements = 0;                // the problem's element count at that size
  std::vector<std::string> counters;  // the lesson's choice
  std::vector<std::string> skip;      // steps not profiled (too slow under replay)
};

std::string find_ncu(const std::string& given) {
  if (!given.empty()) return given;
  course::CommandOutcome o = course::run_command("command -v ncu");
  if (o.exit_code == 0 && !course::first_line(o.out).empty()) return course::first_line(o.out);
  std::vector<std::string> places;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* dir = std::getenv(var)) places.push_back(std::string(dir) + "/bin/ncu");
  places.push_back("/usr/local/cuda/bin/ncu");
  for (const std::string& p : places)
    if (course::run_command("test -x " + course::shell_quote(p)).exit_code == 0) return p;
  o = course::run_command("ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1");
  return course::first_line(o.out);
}

struct StepProfile {
  std::string step, target;
  std::vector<course::KernelSummary> kernels;
  std::string problem;  // why there is nothing to show, when there is not
};

StepProfile profile_step(const std::string& ncu, const std::string& bin, const std::string& target,
                         const ProfileSpec& spec) {
  StepProfile p{course::step_key(target), target, {}, ""};
  const std::string command = course::shell_quote(ncu) + " --csv --page raw --print-units base --metrics " +
                              course::shell_quote(course::ncu_metric_list(spec.counters)) + " " +
                              course::shell_quote(bin + "/" + target) + " " + spec.args +
                              " --reps 1 --warmup 0 --copy-bandwidth 1 --read-bandwidth 1";
  std::cerr << "  profiling " << target << " " << spec.args << "\n";
  const course::CommandOutcome o = course::run_command(command);
  if (course::ncu_permission_denied(o.out + o.err))
    throw course::NotSupportedError(
        "this user may not read the GPU's performance counters (ERR_NVGPUCTRPERM); run as root, or ask an "
        "administrator to load the driver with NVreg_RestrictProfilingToAdminUsers=0 "
        "(https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
  try {
    p.kernels = course::summarise_by_kernel(course::parse_ncu_raw_csv(o.out), kNotTheStep);
  } catch (const course::UsageError&) {
    p.problem = "no profile (exit code " + std::to_string(o.exit_code) + ": " +
                course::first_line(o.err.empty() ? o.out : o.err) + ")";
    return p;
  }
  if (p.kernels.empty()) p.problem = "no kernel was profiled";
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("course_profile", [&] {
    course::CommandLine cli("course_profile",
                            "Runs Nsight Compute on each GPU step of a lesson and prints its hardware counters.");
    cli.add_text("lesson", "", "the lesson (its number, e.g. 02)", "NN");
    cli.add_text("step", "", "only this step (e.g. 05)", "NN");
    cli.add_text("exercise", "", "profile this exercise's benchmark beside the solution's (e.g. argmax)", "NAME");
    cli.add_text("results", "results", "folder for the CSV and JSON copies of the table", "DIR");
    cli.add_text("args", "", "more arguments for every program profiled, after the lesson's own (e.g. '--type double')",
                 "ARGS");
    cli.add_text("ncu", "", "the ncu program (default: on PATH, in CUDA_HOME or /usr/local/cuda)", "PATH");
    cli.add_flag("counters", "list every counter the course knows, with its metrics and meaning, and stop");
    if (!cli.parse(argc, argv)) return course::kExitPass;

    if (cli.flag("counters")) {
      for (const course::Counter& c : course::counters()) {
        std::cout << c.key << " (" << c.heading << "): " << c.meaning << "\n    ncu:";
        for (const std::string& m : c.metrics) std::cout << " " << m;
        std::cout << "\n";
      }
      return course::kExitPass;
    }
    if (!cli.given("lesson")) throw course::UsageError("--lesson is required (e.g. --lesson 02)");
    const std::string lesson = cli.text("lesson");
    const std::string bin = course::directory_of_this_program();

    ProfileSpec spec;
    bool have_spec = false;
    std::string title;
    std::vector<std::string> targets;
    for (const course::ManifestEntry& e : course::read_manifest(bin)) {
      if (e.lesson != lesson) continue;
      if (e.table == "lesson") title = e.args;
      if (e.table == "profile") {
        auto parts = course::fields_of(e.args, course::FieldRules{'|', false}, 4);
        parts.resize(4);
        spec = ProfileSpec{parts[0], std::atof(parts[1].c_str()), course::words_of(parts[2]), course::words_of(parts[3])};
        have_spec = true;
      }
      if (e.table == "ladder" && e.target.find("cpu") == std::string::npos) targets.push_back(e.target);
    }
    if (title.empty()) throw course::UsageError("--lesson " + lesson + ": no such lesson");
    if (!have_spec) throw course::UsageError("lesson " + lesson + " declares no counters (course_add_profile)");
    for (const std::string& key : spec.counters) course::counter(key);  // unknown names fail here

    std::vector<std::string> chosen;
    if (cli.given("exercise")) {
      const std::string name = cli.text("exercise");
      chosen = {"exercise" + lesson + "_" + name + "_bench", "solution" + lesson + "_" + name + "_bench"};
      if (course::run_command("test -x " + course::shell_quote(bin + "/" + chosen[0])).exit_code != 0)
        throw course::UsageError("--exercise " + name + ": no program " + chosen[0] + " (see exercises/" + lesson + "-*)");
      spec.args = "";  // the benchmarks' own default size
      spec.elements = 0;
    } else {
      for (const std::string& t : targets) {
        if (cli.given("step") && course::step_key(t) != cli.text("step")) continue;
        bool skipped = false;
        for (const std::string& s : spec.skip) skipped = skipped || s == t;
        if (!skipped || cli.given("step")) chosen.push_back(t);
      }
      if (chosen.empty()) throw course::UsageError("--step " + cli.text("step") + ": no GPU step of that number");
    }

    // --args: added to each program's arguments; an option the lesson's own arguments give too takes the
    // value given here (a step program refuses an option given twice).
    std::string variant;
    if (cli.given("args")) {
      spec.elements = course::elements_with(spec.args, spec.elements, cli.text("args"));
      spec.args = course::without_options_of(spec.args, cli.text("args"));
      spec.args += (spec.args.empty() ? "" : " ") + cli.text("args");
      for (const std::string& word : course::words_of(cli.text("args"))) {
        const std::size_t start = word.find_first_not_of('-');
        if (start == std::string::npos) continue;
        variant += variant.empty() ? "" : "-";
        for (char c : word.substr(start)) variant += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
      }
    }

    const std::string ncu = find_ncu(cli.text("ncu"));
    if (ncu.empty())
      throw course::NotSupportedError(
          "Nsight Compute (ncu) was not found: it comes with the CUDA Toolkit (bin/ncu, or "
          "/opt/nvidia/nsight-compute); put it on PATH or pass --ncu");
    course::require_cuda_device();
    const course::DeviceFacts device = course::query_device();

    std::vector<StepProfile> profiles;
    for (const std::string& t : chosen) profiles.push_back(profile_step(ncu, bin, t, spec));

    std::vector<std::string> headers{"step", "kernel", "launches"};
    for (const std::string& key : spec.counters) headers.push_back(course::counter(key).heading);
    course::TextTable table(headers);
    std::vector<course::CounterRow> counter_rows;
    for (const StepProfile& p : profiles) {
      const std::string label = cli.given("exercise") ? p.target.substr(0, p.target.find(lesson)) : p.step;
      if (!p.problem.empty()) {
        std::vector<std::string> cells{label, p.problem, "-"};
        cells.resize(headers.size(), "-");
        table.add_row(cells);
        continue;
      }
      for (std::size_t k = 0; k < p.kernels.size(); ++k) {
        const course::KernelSummary& kernel = p.kernels[k];
        course::CounterRow row{label, p.target, kernel.kernel, kernel.launches, {}};
        for (const std::string& key : spec.counters) row.cells.push_back(course::counter_cell(key, kernel, spec.elements));
        std::vector<std::string> cells{k == 0 ? label : "", kernel.kernel, std::to_string(kernel.launches)};
        cells.insert(cells.end(), row.cells.begin(), row.cells.end());
        table.add_row(cells);
        counter_rows.push_back(std::move(row));
      }
    }
    const std::string results = cli.text("results");
    std::error_code error;
    std::filesystem::create_directories(results, error);
    if (error) throw course::UsageError(results + ": cannot create the folder (" + error.message() + ")");
    // One step, an exercise or more arguments are named in the files' names, so that a narrower
    // profile never replaces the lesson's whole one.
    const std::string base = results + "/lesson" + lesson + (cli.given("step") ? "-step" + cli.text("step") : "") +
                             (cli.given("exercise") ? "-" + cli.text("exercise") : "") +
                             (variant.empty() ? "" : "-" + variant) + "-counters";
    std::ofstream csv(base + ".csv"), json(base + ".json");
    course::write_counters_csv(csv, spec.counters, counter_rows);
    course::write_counters_json(json, spec.counters, counter_rows);
    std::cout << "Lesson " << lesson << " (" << title << "): hardware counters"
              << (cli.given("exercise") ? ", exercise " + cli.text("exercise") : "") << "\n\n";
    table.print(std::cout);
    std::cout << "\nprofiled with " << (spec.args.empty() ? "the default size" : spec.args)
              << ", one run after no warm-up, on the " << device.name << " (Nsight Compute runs each kernel "
              << "several times, at the GPU's base clock)\n";
    for (const std::string& key : spec.counters)
      std::cout << "  " << course::counter(key).heading << ": " << course::counter(key).meaning
                << (key == "inst_per_element" && spec.elements == 0
                        ? " (\"-\" here: the lesson counts the elements of its own size only)"
                        : "")
                << "\n";
    std::cout << "tables written to " << base << ".csv and .json\n";
    return course::kExitPass;
  });
}
