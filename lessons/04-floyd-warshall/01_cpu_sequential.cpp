// Lesson 04, step 01: CPU, sequential.
//
// Floyd-Warshall as it is written in textbooks: for every intermediate vertex k, for every pair
// (i, j), keep the shorter of the best path so far and the path through k. After round k, d[i][j] is
// the shortest path whose intermediate vertices all lie in 0..k. That is n^3 add-min operations:
// 8.6 billion at n = 2048, on one core, one j at a time: GCC at -O3 makes a vector version of the
// loop over j, but runs it only where d[i][k] is not among the elements the loop writes, and it always
// is (element k of row i), so the plain loop runs.
//
// The order of the loops matters: k must be outermost (round k needs the results of round k - 1),
// and j innermost walks memory in order. Nothing here is parallel yet, but notice that within one
// round every (i, j) is independent: that is what the GPU steps exploit.
#include <algorithm>
#include <cstdint>

#include "floyd_warshall.h"

namespace {

void floyd_warshall_sequential(const std::int32_t* graph, std::int32_t* dist, std::size_t n) {
  std::copy(graph, graph + n * n, dist);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        dist[i * n + j] = std::min(dist[i * n + j], dist[i * n + k] + dist[k * n + j]);
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "01", "CPU sequential", "cpu", floyd_warshall_sequential, nullptr, nullptr, kDefaultVertices, 1000};
