/// @file exercise.h
/// @brief The harness of every exercise: one run of the student's function for its grading test, and
/// the benchmark that times it beside the solution's. An exercise states only its problem.
///
/// An exercise's problem is a class in its lesson's exercises/NN-name/exercise_support.h:
///
///     struct Argmax {
///       static constexpr const char* kLesson = "02";
///       static constexpr const char* kTitle = "argmax";   // the benchmark's report names it
///       static constexpr int kReps = 20;                  // the benchmark's default repetitions
///       struct Input { ... };                             // what the student's function is given
///       using Output = ...;                               // what it gives back
///       static void declare(CommandLine&);                // the benchmark's sizes and their defaults
///       static Input generate(const CommandLine&, std::uint64_t seed);  // the benchmark's input
///       static void count(const Input&, Measurement&);    // size, bytes or operations, rate unit
///       static CheckResult check(const Input&, const Output&);  // against the reference
///       static Output read_answer(const Input&, AnswerReader&);  // the answer's bytes as an Output
///       class OnDevice {                                  // the student's function on device copies
///        public:
///         explicit OnDevice(const Input&);                // allocates and uploads
///         void poison(cudaStream_t);                      // spoils every output
///         void run(cudaStream_t);                         // calls the student's function once
///         AnswerSpans answer() const;                     // the device buffers of the answer, in order
///       };
///     };
///
/// and its Input (and the structs in it) travel to ./course grade-class's contestant on the wire: each
/// struct has a course::wire::Fields specialisation. An answer is read the same way everywhere: its
/// buffers' bytes, span by span, through read_answer (course/answer.h), whether they come from this
/// process's GPU or, under the judge, from a student's process.
///
/// The grading test calls run_once<Argmax>(input) and compares with its own expectations; the
/// benchmark's main (written by CMake's course_add_exercise) is exercise_bench_main<Argmax>, and
/// ./course grade-class builds the grading test as the judge (course/judge.h, COURSE_JUDGE defined),
/// where run_once hands the input to the student's contestant (course/contestant.h) instead.
#pragma once

#include <cuda_runtime_api.h>

#include <iostream>
#include <string>

#include "course/answer.h"
#include "course/check.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/program.h"
#include "course/report.h"
#include "course/step_program.h"
#include "course/verify.h"
#include "course/wire.h"
#ifdef COURSE_JUDGE
#include "course/judge.h"
#endif

namespace course {

/// The outcome of checking a result: whether it is right, and one line that says so or says what is
/// wrong (the benchmark's report shows it).
struct CheckResult {
  bool pass = false;   ///< the result is right
  std::string detail;  ///< one line: what was checked, or the first thing that is wrong
};

/// A verdict as a CheckResult; @p columns shows the worst index as [row][column] of a matrix (0: flat).
inline CheckResult checked(const Verdict& v, std::size_t columns = 0) { return {v.pass, v.describe(columns)}; }

/// Runs the student's function once on @p input, every output poisoned first, and returns what it
/// produced. Throws CudaError when a CUDA call fails. Under the judge (COURSE_JUDGE) the student's
/// contestant process runs it, and the judge reads the answer it sends.
template <class Exercise>
typename Exercise::Output run_once(const typename Exercise::Input& input) {
#ifdef COURSE_JUDGE
  return judge::run<Exercise>(input);
#else
  typename Exercise::OnDevice device(input);
  device.poison(nullptr);
  device.run(nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return read_whole_answer<Exercise>(input, download_answer(device.answer()));
#endif
}

/// Calls a host function of the student's that the grading test calls itself (exercise 04-A's path()).
/// @p Call is a class with
///
///     static constexpr std::uint32_t kNumber = 1;   // its number among the exercise's HostCalls
///     struct Input { ... };  using Output = ...;      // both travel on the wire
///     static Output call(const Input&);               // calls the student's function
///     static std::size_t output_limit(const Input&);  // the most bytes its Output can take on the wire
///
/// listed in the exercise's `using HostCalls = std::tuple<Call, ...>;`. Under the judge the student's
/// contestant makes the call and the judge reads what comes back.
template <class Call>
typename Call::Output call_student(const typename Call::Input& input) {
#ifdef COURSE_JUDGE
  return judge::call<Call>(input);
#else
  return Call::call(input);
#endif
}

/// The main of an exercise's benchmark: generates the input (--seed and the exercise's sizes), times
/// the student's function with its outputs poisoned before every run, checks the last run's answer,
/// and prints one course measurement, so that `./course grade` sets the student's kernel beside the
/// solution's. The measurement's step is "solution" for the solution's program, "yours" otherwise.
template <class Exercise>
int exercise_bench_main(int argc, char** argv) {
  return run_program(argv[0], [&]() -> int {
    StepRequest request;
    request.program = program_name(argv[0]);
    CommandLine cli(request.program, std::string("Times the exercise: ") + Exercise::kTitle + ".");
    Exercise::declare(cli);
    cli.add_common_options(Exercise::kReps);
    if (!cli.parse(argc, argv)) return kExitPass;
    request.common = cli.common();
    if (!request.common.input.empty() || !request.common.output.empty())
      throw UsageError("--input and --output are not for a benchmark: it makes its own input and keeps no output");
    require_cuda_device();
    const typename Exercise::Input input = Exercise::generate(cli, request.common.seed);
    Measurement m;
    m.lesson = Exercise::kLesson;
    m.step = request.program.rfind("solution", 0) == 0 ? "solution" : "yours";
    m.title = Exercise::kTitle;
    m.kind = "gpu";
    Exercise::count(input, m);
    typename Exercise::OnDevice device(input);
    time_gpu_step(
        m, request, [&](cudaStream_t s) { device.run(s); }, [&](cudaStream_t s) { device.poison(s); });
    const CheckResult result = Exercise::check(input, read_whole_answer<Exercise>(input, download_answer(device.answer())));
    return finish_step(m, result.pass, result.detail, request, [](const std::string&) {});
  });
}

}  // namespace course
