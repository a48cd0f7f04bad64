// The Catch2 session that both mains of the test programs run (catch_main_cpu.cpp, catch_main_gpu.cpp).
// Catch2's whole implementation, the heaviest file of the build to compile, is in catch_session.cpp,
// compiled once for both.
#pragma once

namespace course {

// Runs the test cases that the command line selects (Catch2's own options); returns Catch2's exit
// code, the number of failed assertions (at most 255).
int run_catch_session(int argc, char* argv[]);

}  // namespace course
