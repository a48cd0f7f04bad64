// Lesson 04, step 02: CPU, every core and vector instructions, with OpenMP.
//
// What changed: within a round k every row i is independent: d[i][j] depends on d[i][k] and d[k][j],
// and neither row k nor column k changes during round k (d[k][k] = 0). So `#pragma omp parallel for`
// hands the rows to the CPU's cores, and `#pragma omp simd` has each core relax several j at once
// with vector instructions. The relaxation is written as a select (take the path through k where it
// is shorter), not std::min: std::min takes its arguments by reference and GCC keeps it as a branch,
// which no vector instruction can run, so the loop would run one j at a time. The rounds stay in
// order: each parallel loop ends before the next k.
//
// Why it is faster: every core (16 threads in the tables' runs) works on its rows. On one thread
// (--cpu-threads 1, in the table "step 02 on every core and on one thread") the step keeps what
// the vector loop and reading d[i][k] once per row (as step 06 does on the GPU) are worth together;
// the README gives both factors from that table.
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
      for (std::size_t j = 0; j < n; ++j) {
        const std::int32_t through_k = d_ik + row_k[j];
        row_i[j] = through_k < row_i[j] ? through_k : row_i[j];  // a select, where std::min branched
      }
    }
  }
}

}  // namespace

const floyd_warshall::Step floyd_warshall::kThisStep = {
    "02", "CPU, all cores and SIMD (OpenMP)", "cpu", floyd_warshall_all_cores, nullptr, nullptr,
    floyd_warshall::kDefaultVertices, 1000, true};
