// Exercise 04-A: path reconstruction. Compute the distances AND, for every pair, the next vertex on a
// shortest path; then read a whole path off those next hops on the CPU.
//
// This header is the contract between your code (next_hop.cu) and the grading test
// (grade_next_hop.cpp). Do not change it.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace exercise04 {

/// "No next vertex": j cannot be reached from i.
constexpr std::int32_t kNoVertex = -1;

/// On the GPU, for the graph of lesson 04 (n x n int32 weights in device memory, kNoEdge for no edge,
/// 0 on the diagonal): dist[i*n+j] = the shortest distance (as the lesson's steps compute it), and
/// next[i*n+j] = the vertex that follows i on a shortest path from i to j: j itself for a direct edge
/// that is shortest, i when i == j, kNoVertex when j is unreachable. dist and next are device arrays
/// of n x n. Enqueue everything into `stream`; check every CUDA call and launch.
void shortest_paths_with_next_hops(const std::int32_t* graph, std::int32_t* dist, std::int32_t* next, std::size_t n,
                                   cudaStream_t stream);

/// On the CPU: the path from `from` to `to` read off next hops (host array of n x n): the list of
/// vertices [from, ..., to], just [from] when from == to, empty when `to` is unreachable.
std::vector<std::int32_t> path(const std::int32_t* next, std::size_t n, std::int32_t from, std::int32_t to);

}  // namespace exercise04
