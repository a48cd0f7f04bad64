// Exercise 03-B: a segmented reduction, one sum per segment, written compactly.
//
// This header is the contract between your code (segment_sums.cu) and the grading test
// (grade_segment_sums.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace exercise03 {

/// Device scratch, in bytes, that segment_sums() needs for n elements.
std::size_t segment_sums_scratch_bytes(std::size_t n);

/// On the GPU: sums[s] = the sum of the values of segment s, for every segment, numbered from 0 in
/// order. Segments are given by head flags as in lesson 03 (flags[0] is 1; each 1 starts a segment).
/// values, flags and sums (room for one float per segment) are in device memory. Enqueue everything
/// into `stream`; check every CUDA call and launch.
void segment_sums(const float* values, const std::uint8_t* flags, std::size_t n, float* sums, void* scratch,
                  cudaStream_t stream);

}  // namespace exercise03
