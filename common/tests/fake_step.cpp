// A stand-in for a step program, for the runner's tests: it parses the common options like a real
// step, pretends to run for n microseconds, and reports the way steps do. Options make it fail, skip
// for want of a GPU feature, or refuse sizes that "do not fit in GPU memory".
#include <iostream>
#include <string>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"

int main(int argc, char** argv) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    course::CommandLine cli(program, "A stand-in step for the runner's tests.");
    cli.add_size("n", 1000, "problem size");
    cli.add_text("step", "01", "the step's number");
    cli.add_text("kind", "gpu", "cpu, gpu or library");
    cli.add_integer("fits", 1 << 30, "the largest n that fits in the pretend GPU's memory", 1, 1 << 30);
    cli.add_text("not-supported", "", "skip, saying the GPU lacks this");
    cli.add_flag("wrong", "report a wrong answer");
    cli.add_common_options();
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::CommonOptions common = cli.common();
    if (cli.given("not-supported")) throw course::NotSupportedError(cli.text("not-supported"));
    const std::size_t n = cli.size("n");
    if (n > static_cast<std::size_t>(cli.integer("fits")))
      throw course::UsageError("data for n=" + std::to_string(n) + ": " + course::kDoesNotFit + "; choose a smaller size");
    course::Measurement m;
    m.lesson = "99";
    m.step = cli.text("step");
    m.title = "fake step " + m.step;
    m.kind = cli.text("kind");
    m.size = "n=" + std::to_string(n);
    m.device = "pretend GPU";
    m.time = course::TimingStats::from_samples({n * 1e-3});
    m.bytes = 4.0 * n;
    m.rate_unit = "GB/s";
    m.verdict = cli.flag("wrong") ? "FAIL" : "PASS";
    m.detail = m.verdict;
    course::print_measurement(std::cout, m, common.format);
    return cli.flag("wrong") ? course::kExitFail : course::kExitPass;
  });
}
