/// @file check.h
/// @brief Checking every CUDA runtime call and every kernel launch.
///
/// Wrap each runtime call in CUDA_CHECK and follow each launch with CUDA_CHECK_LAUNCH(). A failure
/// throws course::CudaError whose message names the call, the file and line, and CUDA's own text.
#pragma once

#include <cuda_runtime_api.h>

#include "course/errors.h"

namespace course {

/// Throws CudaError for @p status unless it is cudaSuccess. Used through the CUDA_CHECK macro.
/// @param status what the runtime call returned
/// @param what   the text of the call, for the message
/// @param file   source file of the call
/// @param line   source line of the call
void check_cuda(cudaError_t status, const char* what, const char* file, int line);

}  // namespace course

/// Checks one CUDA runtime call: `CUDA_CHECK(cudaMalloc(&p, bytes));`
#define CUDA_CHECK(call) ::course::check_cuda((call), #call, __FILE__, __LINE__)

/// Checks the launch just made (bad configuration, too many resources). Errors that happen while the
/// kernel runs surface at the next synchronizing call, which is itself checked.
#define CUDA_CHECK_LAUNCH() ::course::check_cuda(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
