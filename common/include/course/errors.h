/// @file errors.h
/// @brief The course's exceptions and the exit codes every program uses.
#pragma once

#include <stdexcept>
#include <string>

namespace course {

/// @name Exit codes shared by every step program, the runner and the tests
/// @{
constexpr int kExitPass = 0;      ///< the program ran and its answer matched the reference
constexpr int kExitFail = 1;      ///< the answer did not match the reference
constexpr int kExitUsage = 2;     ///< bad command line, size or input file
constexpr int kExitRuntime = 3;   ///< a CUDA call or another runtime step failed
constexpr int kExitSkipped = 77;  ///< no CUDA device, or the GPU lacks a feature the program needs
/// @}

/// Bad input from the user: an unknown option, a size that is not a positive number, a file that is
/// unreadable, truncated or of the wrong type. Programs print its message on one line and exit with
/// ::kExitUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A failed CUDA runtime call or kernel launch. Programs print its message and exit with ::kExitRuntime.
class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown by GPU code paths when the machine has no usable CUDA device; programs exit with ::kExitSkipped.
class NoDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The GPU lacks something a step needs: cooperative launches, enough shared memory per block, ...
/// Programs print "skipped: <reason>" and exit with ::kExitSkipped, as without a GPU; a GPU test that
/// meets it is reported as skipped, never as failed or passed.
class NotSupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace course
