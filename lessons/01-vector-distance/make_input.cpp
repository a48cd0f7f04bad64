// lesson01_make_input: writes a test file for lesson 01, seeded matrices A (M x N) and B (K x N) in the
// course's binary format, for the step programs' --input (and for course_inspect).
#include <cstdint>
#include <iostream>
#include <string>

#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "distance.h"

int main(int argc, char** argv) {
  return course::run_program("lesson01_make_input", [&]() -> int {
    course::CommandLine cli("lesson01_make_input",
                            "Writes a lesson 01 test file: A (M x N), then B (K x N), float32 or int32, from a seed.");
    const std::size_t most = 4294967295ull;
    cli.add_size("m", 100, "rows of A", 1, most);
    cli.add_size("k", 100, "rows of B", 1, most);
    cli.add_size("n", 100, "elements of every vector", 1, most);
    cli.add_choice("type", "float32", distance::kTypeNames, "float32 or int32 (the same values the step programs draw)",
                   "TYPE");
    cli.add_text("offset", "0", "centre of the values (at most 1000000)", "X");
    cli.add_integer("seed", 1, "seed of the generator", 0, 1LL << 62);
    cli.add_text("output", "", "the file to write (required)", "FILE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("output")) throw course::UsageError("--output FILE is required");
    const distance::Type type = static_cast<distance::Type>(cli.choice("type"));
    const double offset = distance::parse_offset(cli.text("offset"), type);
    const std::size_t m = cli.size("m"), k = cli.size("k"), n = cli.size("n");
    const auto seed = static_cast<std::uint64_t>(cli.integer("seed"));
    if (type == distance::Type::Int32)
      distance::write_problem(cli.text("output"), distance::make_problem<std::int32_t>(m, k, n, seed, offset));
    else
      distance::write_problem(cli.text("output"), distance::make_problem<float>(m, k, n, seed, offset));
    std::cout << "wrote " << cli.text("output") << ": A " << m << " x " << n << ", B " << k << " x " << n << " ("
              << cli.text("type") << ")\n";
    return course::kExitPass;
  });
}
