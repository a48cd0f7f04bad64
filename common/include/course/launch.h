/// @file launch.h
/// @brief Launch-configuration helpers shared by the lessons.
#pragma once

#include <cstddef>

#include "course/device.h"

namespace course {

/// Threads per block from a --threads value: @p requested (or @p preferred when it is 0) clamped to
/// [32, 1024] and rounded down to whole warps.
int whole_warps(int requested, int preferred);

/// The number of blocks for a cooperative launch (a grid that synchronizes with grid.sync()): every
/// block must be resident at once, or blocks waiting at the grid barrier would wait forever for blocks
/// that cannot start. Returns @p requested_blocks, or when it is 0 the most blocks the device holds at
/// once (SMs x resident blocks of this kernel per SM).
/// @param kernel            the __global__ function, as a pointer
/// @param threads           threads per block
/// @param shared_bytes      dynamic shared memory per block
/// @param requested_blocks  the user's --blocks (0: as many as fit)
/// @param device            the device's facts
/// @throws NotSupportedError when the device has no cooperative launch (the step is skipped)
/// @throws UsageError when @p requested_blocks do not fit
int cooperative_grid_blocks(const void* kernel, int threads, std::size_t shared_bytes, int requested_blocks,
                            const DeviceFacts& device);

/// The most blocks of @p kernel with @p threads threads and @p shared_bytes dynamic shared memory that
/// fit on the device at once (the occupancy calculator, times the SM count).
int resident_blocks(const void* kernel, int threads, std::size_t shared_bytes, const DeviceFacts& device);

/// Checks that one block of a kernel may use @p bytes of dynamic shared memory (plus its static shared
/// memory) on this device, and raises the kernel's limit when it needs more than the default 48 KB
/// (cudaFuncSetAttribute).
/// @param kernel the __global__ function, as a pointer
/// @param bytes  dynamic shared memory per block
/// @param device the device's facts
/// @param what   the step or kernel, for the message
/// @throws NotSupportedError when the device cannot give a block that much (the step is skipped)
void require_shared_memory(const void* kernel, std::size_t bytes, const DeviceFacts& device, const char* what);

}  // namespace course
