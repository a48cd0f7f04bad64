/// @file gpus.h
/// @brief What the rungs on several GPUs share: which GPUs to use, and NCCL's calls checked.
#pragma once

#include <string>
#include <vector>

#include "course/errors.h"

namespace course {

/// How many CUDA devices this process sees (0 without a driver or a device).
int gpu_count();

/// The devices for --gpus K: 0 .. K-1, or every device for K = 0 (the option's default). Throws
/// UsageError (one line) when K is more than the machine has, NoDeviceError when it has none.
std::vector<int> gpus_for(long long requested);

/// Whether this build has NCCL (the rungs on several GPUs need it to run on more than one).
constexpr bool built_with_nccl() {
#ifdef COURSE_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

}  // namespace course

#ifdef COURSE_HAVE_NCCL
#include <nccl.h>

namespace course {

/// Throws CudaError for @p status unless it is ncclSuccess. Used through the NCCL_CHECK macro.
inline void check_nccl(ncclResult_t status, const char* what, const char* file, int line) {
  if (status != ncclSuccess)
    throw CudaError(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    ncclGetErrorString(status));
}

}  // namespace course

/// Checks one NCCL call: `NCCL_CHECK(ncclAllReduce(...));`
#define NCCL_CHECK(call) ::course::check_nccl((call), #call, __FILE__, __LINE__)
#endif
