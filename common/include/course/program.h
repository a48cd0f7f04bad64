/// @file program.h
/// @brief The outermost layer of every course program: turning exceptions into one clear line and
/// the course's exit codes.
#pragma once

#include <functional>

namespace course {

/// Runs @p body and returns its exit code. Exceptions become one line on standard error and an exit
/// code: UsageError -> kExitUsage, NoDeviceError -> kExitSkipped ("skipped: no CUDA device ..."),
/// CudaError and anything else -> kExitRuntime. @p program prefixes every message.
int run_program(const char* program, const std::function<int()>& body);

}  // namespace course
