/// @file judge.h
/// @brief `./course grade-class`'s judge: the program that decides a student's points, built once per
/// class from the exercise's grading test (the same Catch2 cases, names and messages a student reads)
/// and never linked with a student's code. Where the grading test calls run_once(), the judge sends
/// the input to the student's contestant process (course/contestant.h) and checks the answer that comes
/// back, itself. It also times the student's function (each run on a fresh input the judge drew, the
/// reported times checked against its own clock and against what the GPU can reach at all) and checks
/// the answer of the compute-sanitizer run. Whatever the contestant prints, writes or exits with, only
/// right answers earn points; the verdict goes to a file the contestant cannot reach.
///
///     JUDGE [--contestant PROGRAM | --contestant-command FILE] [--verdict FILE] [--time-limit S]
///           [MODE] -- ARGUMENTS...
///
/// MODE is one of
///   (none)            the grading test's cases: ARGUMENTS are Catch2's (a test spec, --list-test-names-only)
///   --time            times the function: ARGUMENTS are the exercise's sizes (default: the benchmark's);
///                     with --runs N, --warmup N, --reference FILE (the solution's timing, which sets what
///                     the clock may see beyond the reported runs), --write-reference FILE, --factor F,
///                     --read-bandwidth GB/S and --l2-bytes N (the GPU's, for the floor)
///   --sanitize-run    one run on a fresh input of the sizes in ARGUMENTS, whose contestant runs under
///                     compute-sanitizer --tool NAME (--tool says which, for the verdict)
/// The contestant command file holds one argument a line. The verdict file gets one line (see
/// verdict_of_cases, the time and sanitizer verdicts below); the exit code is 0 for a pass (a
/// trusted time, a clean run), 1 otherwise, 2 for bad arguments, 77 without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/answer.h"
#include "course/wire.h"

namespace course::judge {

/// Something the contestant did or failed to do, said in one line (it becomes the case's failure).
class ContestantError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options;

/// How a contestant ended, as course_sandbox reports it (its exit codes): in words, for a message.
/// @p code: the sandbox's exit code (128 + N for signal N); @p time_limit: seconds.
std::string describe_ending(int code, double time_limit);

/// The verdict of one grading case, from the Catch2 session's failures and how the contestant ended
/// (nothing: never started; @p early: it ended while the judge waited for an answer, rather than when
/// the judge closed it): PASS, FAIL, TIME-OUT (over S s), TOO MUCH OUTPUT, LEFT A PROCESS RUNNING,
/// CRASH (...), ENDED EARLY (...), FORBIDDEN (...). Trouble with the process comes before a failed
/// check: a crash is a crash, whatever the check said.
std::string verdict_of_cases(int failures, const std::optional<int>& ending, bool early, double time_limit);

/// One contestant process, started from a command, that reads requests on descriptor 3 and answers on 4.
class Contestant {
 public:
  /// Starts @p command (with the pipes as 3 and 4); @p time_limit seconds bounds every wait for it.
  Contestant(const std::vector<std::string>& command, double time_limit);
  ~Contestant();
  Contestant(const Contestant&) = delete;
  Contestant& operator=(const Contestant&) = delete;

  /// Sends a request. @throws ContestantError when the contestant is gone
  void send(wire::Kind kind, const std::vector<unsigned char>& payload);
  /// The next message, which must be of @p expected kind with at most @p max_payload bytes.
  /// @throws ContestantError for a Failure ("your program reported: ..."), another kind, a malformed
  ///         message, silence past the time limit, or the end of the process (how it ended, in words)
  wire::Frame receive(wire::Kind expected, std::size_t max_payload);
  /// Closes the requests, waits for the process to end (stopping it past the time limit) and returns
  /// its exit code as the sandbox gives it. Later calls give the same code.
  int finish();
  /// The exit code once the process has ended (after finish(), or after it was found gone).
  const std::optional<int>& ending() const { return ending_; }
  /// Whether it ended while the judge waited for it (rather than when finish() closed its requests).
  bool ended_early() const { return ended_early_; }

 private:
  void read_exactly(unsigned char* target, std::size_t bytes);
  [[noreturn]] void gone();  ///< finds how it ended, and throws ContestantError saying so
  int pid_ = -1, requests_ = -1, answers_ = -1;
  double time_limit_;
  std::optional<int> ending_;
  bool ended_early_ = false;
};

// --- the grading test's cases, through the contestant ----------------------------------------------

/// Makes @p options (its contestant command, its time limit) those of the cases' contestant; run_cases
/// does this itself.
void use_for_cases(const Options& options);
/// The contestant of this judge's cases, started at the first run and again after one has ended.
Contestant& case_contestant();
/// Records how the case contestant ended if it has (for the case's verdict).
void note_case_ending(const Contestant& contestant);

/// The most bytes an Answer message for @p input may have: the answer's spans and the wire's counts.
template <class Exercise>
std::size_t answer_limit(const typename Exercise::Input& input) {
  const std::vector<std::size_t> shape = answer_shape<Exercise>(input);
  std::size_t limit = 8 + 8 * shape.size();
  for (std::size_t length : shape) limit += length;
  return limit;
}

/// run_once() under the judge: the contestant runs the student's function on @p input, the judge reads
/// the answer's bytes as the exercise's Output.
template <class Exercise>
typename Exercise::Output run(const typename Exercise::Input& input) {
  Contestant& contestant = case_contestant();
  try {
    contestant.send(wire::Kind::Run, wire::encode(input));
    const wire::Frame frame = contestant.receive(wire::Kind::Answer, answer_limit<Exercise>(input));
    return read_whole_answer<Exercise>(input, wire::decode<AnswerBytes>(frame.payload));
  } catch (const wire::WireError& e) {
    throw ContestantError(std::string("your program's answer is not readable: ") + e.what());
  } catch (const MalformedAnswer& e) {
    throw ContestantError(std::string("your program's answer is malformed: ") + e.what());
  } catch (const ContestantError&) {
    note_case_ending(contestant);
    throw;
  }
}

/// call_student() under the judge: the contestant calls the student's host function.
template <class Call>
typename Call::Output call(const typename Call::Input& input) {
  Contestant& contestant = case_contestant();
  try {
    wire::Writer w;
    wire::put(w, Call::kNumber);
    wire::put(w, input);
    contestant.send(wire::Kind::Call, w.bytes());
    return wire::decode<typename Call::Output>(contestant.receive(wire::Kind::Answer, Call::output_limit(input)).payload);
  } catch (const wire::WireError& e) {
    throw ContestantError(std::string("your program's answer is not readable: ") + e.what());
  } catch (const ContestantError&) {
    note_case_ending(contestant);
    throw;
  }
}

// --- timing ------------------------------------------------------------------------------------------

/// What the timed runs gave and what the judge knows besides.
struct TimingFacts {
  std::vector<double> reported_ms;  ///< each run's time as the contestant reported it
  double clock_ms = 0;              ///< the judge's clock from the Time request to the Done answer
  /// The solution's timing in this class's run (runs, clock, reported sum), when known: what the clock
  /// sees beyond the reported runs (launches, poisoning, hashing, the pipes) for this problem.
  int reference_runs = 0;           ///< the solution's timed runs (0: no reference)
  double reference_clock_ms = 0;    ///< the judge's clock around them
  double reference_sum_ms = 0;      ///< their reported times, added up
  double floor_ms = 0;       ///< the least time the GPU needs for the compulsory bytes (0: no floor)
  std::string floor_reason;  ///< how the floor was reckoned, for the message
  double factor = 1.25;      ///< how far the judge's estimate may exceed the reported sum
  double slack_ms = 0.1;     ///< and by how much more (at least; what the clock sees beyond the runs where
                             ///< that is more), for the jitter of the pipes, the host and the device
};

/// The verdict on a timing: trusted, the median, and otherwise why not, in one line.
struct TimingVerdict {
  bool trusted = false;  ///< the time can be ranked
  double median_ms = 0;  ///< the median of the reported times
  std::string why;       ///< "" when trusted
};

/// Decides whether the reported times can be ranked: each a positive number; their median not below
/// the floor; their sum not more than the judge's clock saw; and the judge's estimate of the work (its
/// clock less what the solution needed beyond its runs, per run) at most factor times their sum, plus
/// the slack.
TimingVerdict assess_timing(const TimingFacts& facts);

// --- the judge's main --------------------------------------------------------------------------------

/// The judge's options (those before "--").
struct Options {
  std::vector<std::string> contestant;  ///< the command that starts the contestant
  std::string verdict;                  ///< where the verdict line goes ("": only printed)
  double time_limit = 60;               ///< --time-limit: seconds, what every wait for the contestant may take
  /// What the judge does: the grading test's cases, a timing, or a run under compute-sanitizer.
  enum class Mode { Cases, Time, SanitizeRun };
  Mode mode = Mode::Cases;               ///< --time, --sanitize-run, or the cases
  int runs = 0;                          ///< --runs: timed runs (0: the exercise's own count)
  int warmup = 3;                        ///< --warmup: untimed runs first
  std::string reference;                 ///< --reference: the solution's timing file
  std::string write_reference;           ///< --write-reference: where this timing goes, as a reference
  double factor = 1.25;                  ///< --factor: see TimingFacts::factor
  double read_bandwidth_gbs = 0;         ///< --read-bandwidth: for the floor (0: no floor)
  std::uint64_t l2_bytes = 0;            ///< --l2-bytes: no floor for an input the L2 holds
  std::string tool;                 ///< --sanitize-run: the compute-sanitizer tool
  std::vector<std::string> rest;    ///< the arguments after "--"
};
/// @throws UsageError for an unknown option, a missing value, or no contestant outside a listing
Options parse_options(int argc, char** argv);

/// Writes @p line to the verdict file (if any) and standard output.
void write_verdict(const Options& options, const std::string& line);

/// Runs the grading test's cases (Catch2, with the arguments after "--") against the case contestant
/// and writes their verdict. Returns the exit code.
int run_cases(const Options& options, const char* program);

/// A fresh random 64-bit number (from /dev/urandom).
std::uint64_t fresh_number();

/// Makes this process's memory unreadable to others of its user (not dumpable), and sets the seed salt
/// afresh (course::set_seed_salt), so that every input the grading test draws is new.
void prepare_judge_process();

/// Whether the options only ask for the list of cases (no contestant, no GPU needed).
bool listing_only(const Options& options);

}  // namespace course::judge

#include "course/judge_modes.h"
