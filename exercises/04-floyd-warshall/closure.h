// Exercise 04-B: transitive closure with the blocked scheme. Which vertices can reach which? The same
// three phases as lesson 04, step 07, with "or" and "and" in place of "min" and "+".
//
// This header is the contract between your code (closure.cu) and the grading test
// (grade_closure.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace exercise04 {

/// On the GPU: adjacency (n x n bytes in device memory) holds 1 where there is an edge i -> j and 0
/// elsewhere. Write reach[i*n+j] = 1 if j can be reached from i by a path of any length (every vertex
/// reaches itself), 0 otherwise; reach is an n x n device array. `scratch` holds
/// closure_scratch_bytes(n) bytes. Enqueue everything into `stream`; check every CUDA call and launch.
void transitive_closure(const std::uint8_t* adjacency, std::uint8_t* reach, std::size_t n, void* scratch,
                        cudaStream_t stream);

/// Device scratch, in bytes, that transitive_closure() needs for n vertices (may be 0).
std::size_t closure_scratch_bytes(std::size_t n);

}  // namespace exercise04
