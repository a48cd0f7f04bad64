/// @file judge_modes.h
/// @brief The judge's timing and compute-sanitizer runs, and its main: templates over the exercise's
/// problem (course/exercise.h), included by course/judge.h.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "course/cli.h"
#include "course/contestant.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"

namespace course::judge {

namespace detail {

/// The exercise's compulsory_bytes(input) where it declares one (this overload, chosen by the 0 passed)...
template <class Exercise>
auto compulsory_bytes(const typename Exercise::Input& input, int) -> decltype(Exercise::compulsory_bytes(input)) {
  return Exercise::compulsory_bytes(input);
}
/// ... else the bytes its benchmark counts.
template <class Exercise>
double compulsory_bytes(const typename Exercise::Input& input, long) {
  Measurement m;
  Exercise::count(input, m);
  return m.bytes;
}

/// The exercise's own options (its sizes) from the arguments after "--"; false where they asked for --help.
template <class Exercise>
bool parse_sizes(CommandLine& cli, const Options& options, const char* program) {
  Exercise::declare(cli);
  std::vector<const char*> args{program};
  for (const std::string& word : options.rest) args.push_back(word.c_str());
  return cli.parse(static_cast<int>(args.size()), args.data());
}

/// @p ms with four significant digits.
std::string format_ms(double ms);
/// f(0) ... f(count - 1) on up to 8 threads of the host (the checks of the timed answers), their results in order.
std::vector<std::string> in_parallel(std::size_t count, const std::function<std::string(std::size_t)>& f);
/// Writes a timing as a reference for the class (runs, clock, reported sum, median: a line each).
void write_reference(const std::string& path, const TimingFacts& facts, double median_ms);
/// Reads a reference into @p facts. @throws UsageError for a file that is not one
void read_reference(const std::string& path, TimingFacts& facts);
/// How the floor was reckoned, in words: @p bytes at @p bandwidth_gbs.
std::string floor_reason(double bytes, double bandwidth_gbs);

}  // namespace detail

/// --time: loads a warm-up input and warms up; then loads one fresh input per timed run (nothing of the
/// student's runs in between: the device is idle after each load, and the lock-down forbids threads);
/// then asks for one timed run on each, in an order it chose, clocks the whole, and fetches every
/// answer: each must match the hash sent when the runs ended, and be right for its input. Where only
/// the clock disagrees (the host's noise only ever adds to it), up to two more rounds on fresh inputs.
template <class Exercise>
int time_function(const Options& options, const char* program) {
  using Input = typename Exercise::Input;
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  CommandLine cli(program_name(program), "Times an exercise's function through its contestant.");
  if (!detail::parse_sizes<Exercise>(cli, options, program)) return kExitPass;
  const int runs = options.runs > 0 ? options.runs : Exercise::kReps;
  TimingFacts facts;
  facts.factor = options.factor;
  if (!options.reference.empty()) detail::read_reference(options.reference, facts);
  double loading_s = 0, checking_s = 0;
  std::string not_measured;
  TimingVerdict verdict;
  TimingFacts best;  // with --write-reference: the round kept
  double best_beyond = 0;
  int round = 0;
  Contestant contestant(options.contestant, options.time_limit);
  try {
    auto load = [&](std::uint32_t slot, const Input& input) {
      wire::Writer w;
      wire::put(w, slot);
      wire::put(w, input);
      contestant.send(wire::Kind::Load, w.bytes());
      contestant.receive(wire::Kind::Ready, 0);
      return w.bytes().size();
    };
    const auto warm_slot = static_cast<std::uint32_t>(runs);
    auto started = Clock::now();
    load(warm_slot, Exercise::generate(cli, fresh_number()));
    wire::Writer warm;
    wire::put(warm, warm_slot);
    wire::put(warm, static_cast<std::uint32_t>(options.warmup));
    auto warm_up = [&] {
      contestant.send(wire::Kind::Warmup, warm.bytes());
      contestant.receive(wire::Kind::Ready, 0);
    };
    warm_up();
    loading_s += seconds_since(started);
    for (round = 1; round <= 3; ++round) {
      // Fresh inputs, kept for the checks up to 2 GiB in all; beyond, each is drawn again from its seed.
      started = Clock::now();
      std::vector<std::uint64_t> seeds(static_cast<std::size_t>(runs));
      for (std::uint64_t& seed : seeds) seed = fresh_number();
      std::vector<std::optional<Input>> kept(seeds.size());
      std::vector<std::size_t> limits(seeds.size());
      std::size_t kept_bytes = 0;
      for (std::size_t r = 0; r < seeds.size(); ++r) {
        Input input = Exercise::generate(cli, seeds[r]);
        limits[r] = answer_limit<Exercise>(input);
        if (r == 0 && options.read_bandwidth_gbs > 0) {
          const double bytes = detail::compulsory_bytes<Exercise>(input, 0);
          if (bytes > static_cast<double>(options.l2_bytes)) {
            // 10% of slack: a kernel may beat the bandwidth the course measured by a little.
            facts.floor_ms = bytes / (options.read_bandwidth_gbs * 1e9) * 1e3 / 1.1;
            facts.floor_reason = detail::floor_reason(bytes, options.read_bandwidth_gbs);
          }
        }
        const std::size_t sent = load(static_cast<std::uint32_t>(r), input);
        if (kept_bytes + sent <= (std::size_t(2) << 30)) {
          kept_bytes += sent;
          kept[r] = std::move(input);
        }
      }
      loading_s += seconds_since(started);
      // The GPU has idled while the inputs were drawn: warm runs again just before the clock starts, so
      // that its clocks are up and the window holds the runs, not the device waking.
      warm_up();
      contestant::TimeRequest request;
      request.key = fresh_number();
      request.order.resize(seeds.size());
      std::iota(request.order.begin(), request.order.end(), 0u);
      std::shuffle(request.order.begin(), request.order.end(), std::mt19937_64(fresh_number()));
      const auto start = Clock::now();
      contestant.send(wire::Kind::Time, wire::encode(request));
      const wire::Frame frame = contestant.receive(wire::Kind::Done, 64 + 16 * request.order.size());
      facts.clock_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
      const contestant::TimedRuns done = wire::decode<contestant::TimedRuns>(frame.payload);
      if (done.milliseconds.size() != request.order.size() || done.hashes.size() != request.order.size())
        throw ContestantError("your program reported " + std::to_string(done.milliseconds.size()) + " times for " +
                              std::to_string(request.order.size()) + " runs");
      // Every answer: the one committed to, and right.
      started = Clock::now();
      std::vector<AnswerBytes> answers;  // in the order run
      for (std::size_t p = 0; p < request.order.size(); ++p) {
        const std::uint32_t slot = request.order[p];
        wire::Writer fetch;
        wire::put(fetch, slot);
        contestant.send(wire::Kind::Fetch, fetch.bytes());
        AnswerBytes answer = wire::decode<AnswerBytes>(contestant.receive(wire::Kind::Answer, limits[slot]).payload);
        if (answer_hash(request.key, answer) != done.hashes[p])
          throw ContestantError("the answer of timed run " + std::to_string(p + 1) +
                                " is not the one it reported when the runs ended");
        answers.push_back(std::move(answer));
      }
      const std::vector<std::string> wrong = detail::in_parallel(answers.size(), [&](std::size_t i) -> std::string {
        const std::uint32_t slot = request.order[i];
        const Input input = kept[slot] ? *kept[slot] : Exercise::generate(cli, seeds[slot]);
        const auto check = Exercise::check(input, read_whole_answer<Exercise>(input, answers[i]));
        return check.pass ? "" : "the answer of timed run " + std::to_string(i + 1) + " is wrong: " + check.detail;
      });
      checking_s += seconds_since(started);
      for (const std::string& why : wrong)
        if (!why.empty()) throw ContestantError(why);
      facts.reported_ms = done.milliseconds;
      const TimingVerdict this_round = assess_timing(facts);
      if (!options.write_reference.empty()) {
        // The solution's timing, the reference of the class: three rounds, and the one whose clock saw
        // least beyond its runs (the host's noise only ever adds).
        const double sum = std::accumulate(facts.reported_ms.begin(), facts.reported_ms.end(), 0.0);
        if (round == 1 || facts.clock_ms - sum < best_beyond) {
          best_beyond = facts.clock_ms - sum;
          best = facts;
          verdict = this_round;
        }
        if (round < 3) continue;
        facts = best;
        break;
      }
      verdict = this_round;
      if (verdict.trusted || verdict.why.find("the judge's clock saw about") == std::string::npos) break;
      std::printf("round %d: %s\n", round, verdict.why.c_str());
    }
  } catch (const ContestantError& e) {
    not_measured = std::string("not measured: ") + e.what();
  } catch (const wire::WireError& e) {
    not_measured = std::string("not measured: your program's answer is not readable: ") + e.what();
  } catch (const MalformedAnswer& e) {
    not_measured = std::string("not measured: your program's answer is malformed: ") + e.what();
  }
  const int ending = contestant.finish();
  if (not_measured.empty() && ending != 0) not_measured = "not measured: your program " + describe_ending(ending, options.time_limit);
  std::printf("the judge's work: %.3g s loading inputs, %.3g s checking answers\n", loading_s, checking_s);
  if (!not_measured.empty()) {
    write_verdict(options, not_measured);
    return 1;
  }
  const double sum = std::accumulate(facts.reported_ms.begin(), facts.reported_ms.end(), 0.0);
  std::printf("timed runs: %d, each on a fresh input; reported median %s ms, sum %s ms; the judge's clock %s ms%s%s\n", runs,
              detail::format_ms(verdict.median_ms).c_str(), detail::format_ms(sum).c_str(),
              detail::format_ms(facts.clock_ms).c_str(),
              facts.floor_ms > 0 ? (", floor " + detail::format_ms(facts.floor_ms) + " ms").c_str() : "",
              round > 1 && options.write_reference.empty() ? (" (round " + std::to_string(round) + ")").c_str() : "");
  if (!options.write_reference.empty()) detail::write_reference(options.write_reference, facts, verdict.median_ms);
  write_verdict(options, verdict.trusted ? "time " + detail::format_ms(verdict.median_ms) : "not trusted: " + verdict.why);
  return verdict.trusted ? kExitPass : 1;
}

/// --sanitize-run: one run on a fresh input under compute-sanitizer; clean only with no finding, no
/// crash and a right answer.
template <class Exercise>
int sanitize_run(const Options& options, const char* program) {
  using Input = typename Exercise::Input;
  CommandLine cli(program_name(program), "Runs an exercise's function once under compute-sanitizer, through its contestant.");
  if (!detail::parse_sizes<Exercise>(cli, options, program)) return kExitPass;
  const Input input = Exercise::generate(cli, fresh_number());
  std::string trouble;
  bool right = false;
  Contestant contestant(options.contestant, options.time_limit);
  try {
    contestant.send(wire::Kind::Run, wire::encode(input));
    const wire::Frame frame = contestant.receive(wire::Kind::Answer, answer_limit<Exercise>(input));
    right = Exercise::check(input, read_whole_answer<Exercise>(input, wire::decode<AnswerBytes>(frame.payload))).pass;
  } catch (const std::exception& e) {
    trouble = e.what();
  }
  const int ending = contestant.finish();
  const std::string tool = options.tool.empty() ? "compute-sanitizer" : options.tool;
  std::string verdict;
  if (ending == 99) {
    verdict = tool == "racecheck" ? "race (racecheck)" : tool == "synccheck" ? "barrier misuse (synccheck)"
            : tool == "initcheck" ? "uninitialised memory (initcheck)" : "memory error (" + tool + ")";
  } else if (ending == 124) {
    verdict = "time-out under compute-sanitizer";
  } else if (ending == 125) {
    verdict = "too much output under compute-sanitizer";
  } else if (ending != 0) {
    verdict = (ending > 128 ? "crash (signal " + std::to_string(ending - 128) : "crash (exit code " + std::to_string(ending)) +
              ") (" + tool + ")";
  } else if (!trouble.empty()) {
    verdict = "no answer under compute-sanitizer (" + tool + "): " + trouble;
  } else if (!right) {
    verdict = "wrong answer under compute-sanitizer (" + tool + ")";
  } else {
    verdict = "clean";
  }
  write_verdict(options, verdict);
  return verdict == "clean" ? kExitPass : 1;
}

/// The main of an exercise's judge (written by CMake's course_add_exercise).
template <class Exercise>
int judge_main(int argc, char** argv) {
  return run_program(argv[0], [&]() -> int {
    const Options options = parse_options(argc, argv);
    prepare_judge_process();
    std::string why;
    if (!listing_only(options) && !cuda_device_available(&why)) {
      write_verdict(options, "SKIPPED (no CUDA device: " + why + ")");
      return kExitSkipped;
    }
    switch (options.mode) {
      case Options::Mode::Time: return time_function<Exercise>(options, argv[0]);
      case Options::Mode::SanitizeRun: return sanitize_run<Exercise>(options, argv[0]);
      case Options::Mode::Cases: break;
    }
    return run_cases(options, argv[0]);
  });
}

}  // namespace course::judge
