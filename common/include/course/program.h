/// @file program.h
/// @brief The outermost layer of every course program: turning exceptions into one clear line and
/// the course's exit codes.
#pragma once

#include <functional>
#include <string>

namespace course {

/// The program's name as its user typed it, without the folder: "lesson02_06_warp_shuffle" for
/// "build/bin/lesson02_06_warp_shuffle". Used in --help and in error messages.
std::string program_name(const char* argv0);

/// Runs @p body and returns its exit code. Exceptions become one line on standard error and an exit
/// code: UsageError -> kExitUsage, NoDeviceError -> kExitSkipped ("skipped: no CUDA device ..."),
/// NotSupportedError -> kExitSkipped ("skipped: <what the GPU lacks>"),
/// CudaError and anything else -> kExitRuntime. @p program (argv[0], or the program's name) prefixes
/// every message, without its folder.
int run_program(const char* program, const std::function<int()>& body);

}  // namespace course
