// lesson03_make_input: writes a test file for lesson 03, seeded values and head flags in the course's
// binary format, for the step programs' --input (and for course_inspect).
#include <cstddef>
#include <iostream>
#include <string>

#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "segmented_scan.h"

int main(int argc, char** argv) {
  return course::run_program("lesson03_make_input", [&]() -> int {
    course::CommandLine cli("lesson03_make_input",
                            "Writes a lesson 03 test file: the values (1 x n), then the head flags (1 x n int32).");
    cli.add_size("n", 1000, "elements", 1, segscan::kMaxCount);
    cli.add_choice("type", "float", segscan::kValueTypeNames,
                   "element type: int32, uint32, float, double, int64 or uint64", "TYPE");
    cli.add_choice("op", "sum", segscan::kOperatorNames,
                   "the operator the values are meant for (products get values near 1)", "OP");
    cli.add_choice("segments", "random", segscan::kPatternNames, "segment lengths: random, single, ones or mixed",
                   "PATTERN");
    cli.add_integer("seed", 1, "seed of the generator", 0, 1LL << 62);
    cli.add_text("output", "", "the file to write (required)", "FILE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("output")) throw course::UsageError("--output FILE is required");
    const segscan::Scan scan{static_cast<segscan::ValueType>(cli.choice("type")),
                             static_cast<segscan::Operator>(cli.choice("op"))};
    const segscan::Pattern pattern = static_cast<segscan::Pattern>(cli.choice("segments"));
    const std::size_t n = cli.size("n");
    const auto seed = static_cast<std::uint64_t>(cli.integer("seed"));
    std::size_t heads = 0;
    segscan::with_scan_types(scan, [&](auto value, auto) {
      using T = decltype(value);
      const segscan::Problem<T> p = segscan::make_problem<T>(n, scan.op, pattern, seed);
      for (std::uint8_t f : p.flags) heads += f;
      segscan::write_problem(cli.text("output"), p);
    });
    std::cout << "wrote " << cli.text("output") << ": " << n << " values (" << segscan::name_of(scan.type)
              << ") and " << n << " flags (int32), " << heads << " segments\n";
    return course::kExitPass;
  });
}
