// lesson05_make_input: writes a test file for lesson 05, a seeded matrix A (M x N) and vector v (N) in
// the course's binary format, for the step programs' --input (and for course_inspect).
#include <iostream>
#include <string>

#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "matvec.h"

int main(int argc, char** argv) {
  return course::run_program("lesson05_make_input", [&]() -> int {
    course::CommandLine cli("lesson05_make_input",
                            "Writes a lesson 05 test file: A (M x N float32), then v (1 x N float32), from a seed.");
    cli.add_size("m", 1000, "rows of A", 1, 4294967295ull);
    cli.add_size("n", 1000, "columns of A (and elements of v)", 1, 4294967295ull);
    cli.add_integer("seed", 1, "seed of the generator", 0, 1LL << 62);
    cli.add_text("output", "", "the file to write (required)", "FILE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("output")) throw course::UsageError("--output FILE is required");
    matvec::require_fits_in_file(cli.size("m"), cli.size("n"));
    const matvec::Problem p = matvec::make_problem(cli.size("m"), cli.size("n"), static_cast<std::uint64_t>(cli.integer("seed")));
    matvec::write_problem(cli.text("output"), p);
    std::cout << "wrote " << cli.text("output") << ": A " << p.rows << " x " << p.columns << ", v " << p.columns
              << " (float32)\n";
    return course::kExitPass;
  });
}
