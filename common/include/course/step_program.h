/// @file step_program.h
/// @brief The skeleton of every step program: the command line, --help, the options an --input file
/// replaces, skipping without a GPU, timing, the ceiling, the verdict, the report and --output.
///
/// A lesson states its problem in one class, its driver (the `Lesson` of step_main()): its options, how
/// it reads them, how it describes a run, and how it runs a step (load the input, run, check). Every
/// step program is then
///
///     int main(int argc, char** argv) { return course::step_main<max_reduction::Lesson>(argc, argv, kThisStep); }
///
/// and the lesson's page of host code (its first GPU step) hands step_main() a run of its own.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"

namespace course {

/// What every step program was asked to do, whatever its lesson. A lesson's request derives from it
/// and adds the problem's own options (sizes, launch requests).
struct StepRequest {
  std::string program;   ///< the program's name, as its user typed it
  CommonOptions common;  ///< --seed, --reps, --warmup, --csv/--json, --input, --output, the ceilings
};

/// Whether a step runs on the GPU: every step whose kind is not "cpu" ("gpu" or "library").
template <class Step>
bool runs_on_gpu(const Step& step) {
  return std::string(step.kind) != "cpu";
}

/// The start of a step's measurement (Lesson::describe): which lesson and step, its title and kind.
template <class Step>
Measurement step_measurement(const char* lesson, const Step& step) {
  Measurement m;
  m.lesson = lesson;
  m.step = step.number;
  m.title = step.title;
  m.kind = step.kind;
  return m;
}

/// The first line of a step program's --help: "Lesson 02, step 05: max reduction, <title>. <summary>".
std::string step_summary(const char* lesson, const char* step, const char* problem, const char* title,
                         const char* summary);

/// Throws UsageError when one of @p options (an --input file sets them) was given with --input.
void reject_with_input(const CommandLine& cli, const std::vector<std::string>& options);

/// The skeleton of a lesson's step program. `Lesson`, the lesson's driver, states its problem:
///
///     using Step = ...;       // the lesson's rung: at least number, title and kind ("cpu", "gpu", "library")
///     using Request = ...;    // derives from StepRequest: the lesson's own options, parsed
///     static constexpr const char* kNumber;    // "02"
///     static constexpr const char* kProblem;   // "max reduction", for --help
///     static constexpr const char* kSummary;   // one sentence for --help, or ""
///     static constexpr int kCpuReps, kGpuReps, kCpuWarmup;  // default repetitions and CPU warm-up runs
///     static constexpr const char* kSetByInput[];  // the options an --input file replaces
///     static bool every_core(const Step&);     // a CPU step on every core (it takes --cpu-threads)
///     static void declare(CommandLine&, const Step&);               // the lesson's options
///     static void read(const CommandLine&, const Step&, Request&);  // their values, checked
///     static Measurement describe(const Step&, const Request&);     // step_measurement(), size, what is counted
///     static int run(const Step&, Request&);                        // load, run, check, report
///
/// step_main() parses the command line (the lesson's options, then the course's), prints --help,
/// refuses what an --input file would contradict, reports a GPU step SKIP without a GPU before any data
/// is made, then calls @p run (Lesson::run by default). A run that meets no CUDA device (it calls
/// require_cuda_device() once it has read an --input file, whose problems come first) is reported SKIP
/// with the sizes it had then. Errors become one line and the course's exit codes (run_program()).
template <class Lesson>
int step_main(int argc, char** argv, const typename Lesson::Step& step,
              const std::function<int(typename Lesson::Request&)>& run = {}) {
  using Request = typename Lesson::Request;
  return run_program(argv[0], [&]() -> int {
    Request request;
    request.program = program_name(argv[0]);
    const bool gpu = runs_on_gpu(step);
    CommandLine cli(request.program,
                    step_summary(Lesson::kNumber, step.number, Lesson::kProblem, step.title, Lesson::kSummary));
    Lesson::declare(cli, step);
    cli.add_common_options(gpu ? Lesson::kGpuReps : Lesson::kCpuReps, gpu ? 3 : Lesson::kCpuWarmup);
    const bool every_core = !gpu && Lesson::every_core(step);
    if (every_core) cli.add_cpu_threads_option();
    if (!cli.parse(argc, argv)) return kExitPass;  // --help
    if (every_core) set_cpu_threads(static_cast<int>(cli.integer("cpu-threads")));
    request.common = cli.common();
    if (!request.common.input.empty())
      reject_with_input(cli, {std::begin(Lesson::kSetByInput), std::end(Lesson::kSetByInput)});
    Lesson::read(cli, step, request);
    std::string why;
    if (gpu && request.common.input.empty() && !cuda_device_available(&why))
      return report_skipped(request.program, Lesson::describe(step, request), why, request.common.format);
    try {
      return run ? run(request) : Lesson::run(step, request);
    } catch (const NoDeviceError& e) {
      return report_skipped(request.program, Lesson::describe(step, request), e.what(), request.common.format);
    }
  });
}

/// Times a CPU step as @p request says (warm-up, repetitions): @p run between calls of @p poison,
/// which spoils the output. Fills in the measurement's time and device ("CPU, N threads").
void time_cpu_step(Measurement& m, const StepRequest& request, int threads, const std::function<void()>& run,
                   const std::function<void()>& poison);

/// Times a GPU step with events in a stream of its own, as @p request says: @p run enqueues one run,
/// @p poison (untimed, before each) spoils its output. Fills in the measurement's time and device (the
/// GPU's name). Returns when the last run is done.
void time_gpu_step(Measurement& m, const StepRequest& request, const std::function<void(cudaStream_t)>& run,
                   const std::function<void(cudaStream_t)>& poison);

/// The memory ceilings a step's rate is set against.
enum class Bandwidth {
  kCopy,  ///< a device-to-device copy, bytes read plus written: for steps that read and write
  kRead,  ///< a read-only stream: for steps that read far more than they write
};

/// Sets the measurement's ceiling to the GPU's bandwidth of that kind: the figure the runner measured
/// once for the whole run (--copy-bandwidth, --read-bandwidth), or measured now.
void set_bandwidth_ceiling(Measurement& m, const CommonOptions& common, Bandwidth kind);

/// Ends a step program: PASS or FAIL with @p detail (the check's one line) in the measurement, the
/// report printed as --csv/--json/text ask, the result written to --output by @p write_output when
/// asked. Returns the exit code: kExitPass only on PASS, else kExitFail.
int finish_step(Measurement m, bool pass, const std::string& detail, const StepRequest& request,
                const std::function<void(const std::string& path)>& write_output);

}  // namespace course
