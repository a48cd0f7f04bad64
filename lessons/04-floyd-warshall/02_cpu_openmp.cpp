// Lesson 04, step 02: CPU, every core and vector instructions, with OpenMP.
//
// What changed: within a round k every row i is independent: d[i][j] depends on d[i][k] and d[k][j],
// and neither row k nor column k changes during round k (d[k][k] = 0). So `#pragma omp parallel for`
// hands the rows to the CPU's cores, and `#pragma omp simd` asks each core to relax several j at once
// with vector instructions. GCC 12 at -O3 does not: std::min, which takes its arguments by reference,
// leaves a branch in the loop under omp simd ("not vectorized: control flow in loop"), so it runs one
// j at a time and stores only where the path through k is shorter (nor does step 01's loop run as
// vector code; see its header). The rounds stay in order: each parallel loop ends before the next k.
//
// Why it is faster: every core (16 threads in the tables' runs) works on its rows. On one thread
// (--cpu-threads 1, in the table "step 02 on every core and on one thread") the step keeps what
// reading d[i][k] once per row (as step 06 does on the GPU) and the conditional store are worth
// together; the README gives both factors from that table.
//
// It is the fair CPU baseline: the ladder shows every GPU step's speed-up over it as well as over
// step 01.
#include <algorithm>
#include <cstdint>

#include "floyd_warshall.h"

namespace {

void floyd_warshall_all_cores(const std::int32_t* graph, std::int32_t* dist, std::size_t n) {
  std::copy(graph, graph + n * n, dist);
  const long long rows = static_cast<long long>(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::int32_t* row_k = dist + k * n;
#pragma omp parallel for schedule(static)
    for (long long ii = 0; ii < rows; ++ii) {
      std::int32_t* row_i = dist + static_cast<std::size_t>(ii) * n;
      const std::int32_t d_ik = row_i[k];
#pragma omp simd
      for (std::size_t j = 0; j < n; ++j) row_i[j] = std::min(row_i[j], d_ik + row_k[j]);
    }
  }
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "02", "CPU, all cores and SIMD (OpenMP)", "cpu", floyd_warshall_all_cores, nullptr, nullptr,
    floyd_warshall::kDefaultVertices, 1000, true};
