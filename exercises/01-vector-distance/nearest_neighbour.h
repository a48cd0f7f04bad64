// Exercise 01-B: nearest neighbours, with the search fused into the tiled distance kernel.
//
// This header is the contract between your code (nearest_neighbour.cu) and the grading test
// (grade_nearest_neighbour.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace exercise01 {

/// Device scratch, in bytes, that nearest_neighbours() needs for m rows of A and k rows of B.
std::size_t nearest_neighbour_scratch_bytes(std::size_t m, std::size_t k);

/// On the GPU: for every row i of A (m x n), the row j of B (k x n) at the smallest squared Euclidean
/// distance: index[i] = j and distance[i] = sum over x of (a[i][x] - b[j][x])^2. When several rows of
/// B are equally near, the smallest j wins. int32, row-major, all in device memory; any m, k, n >= 1.
/// The values keep every distance within int32 (lesson 01's rule: n x (max - min)^2 <= 2^31 - 1).
/// Never write the m x k distances to memory: find the nearest row inside the kernel that computes
/// them. `scratch` holds nearest_neighbour_scratch_bytes(m, k) bytes. Enqueue everything into
/// `stream`; check every launch.
void nearest_neighbours(const std::int32_t* a, const std::int32_t* b, std::uint32_t* index, std::int32_t* distance,
                        std::size_t m, std::size_t k, std::size_t n, void* scratch, cudaStream_t stream);

}  // namespace exercise01
