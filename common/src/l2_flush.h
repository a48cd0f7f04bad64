// Internal to common/: the L2 eviction that time_gpu() runs before each timed repetition.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace course {
namespace detail {

/// Reads every 16-byte word of an all-zero device buffer of @p bytes bytes in @p stream.
void read_to_evict_l2(const void* buffer, std::size_t bytes, cudaStream_t stream);

}  // namespace detail
}  // namespace course
