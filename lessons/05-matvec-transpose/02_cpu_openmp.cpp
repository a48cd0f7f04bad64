// Lesson 05, step 02: CPU, every core and vector instructions, with OpenMP.
//
// What changed: B = A v hands the rows to the cores (`#pragma omp parallel for`), each row's dot
// product in vector lanes (`simd reduction`). C = A^T B hands each core a band of columns instead:
// for every row i it adds B_i times its part of row i, so each C_j is summed by one core and no two
// cores write the same element. A v still reads A in memory order; A^T B reads each band 2 KB of a
// row at a time, row after row.
//
// Why it is faster: step 01 reads the 2 GiB that two passes over A take with one core. Here every core
// reads its share. The README's table "step 02 on every core and on one thread" tells the two ideas
// apart: on one thread (--cpu-threads 1) the step gains little over step 01, whose A^T B loop GCC
// at -O3 vectorizes too; step 01's A v sum it only multiplies four at a time, adding the products in
// order, since a float sum in another order may round differently (here `simd reduction` allows it).
// Every core brings nearly all of the gain. CPU times vary from run to run: compare them within one
// table.
//
// It is the fair CPU baseline: the ladder shows every GPU step's speed-up over it as well as over
// step 01.
#include <algorithm>
#include <vector>

#include "matvec.h"

namespace {

constexpr std::size_t kBand = 512;  // columns per task in A^T B: 2 KB of each row

void a_transpose_a_v_all_cores(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns) {
  std::vector<float> b(rows);
  const long long m = static_cast<long long>(rows);
#pragma omp parallel for schedule(static)
  for (long long ii = 0; ii < m; ++ii) {
    const float* row = a + static_cast<std::size_t>(ii) * columns;
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (std::size_t j = 0; j < columns; ++j) sum += row[j] * v[j];
    b[static_cast<std::size_t>(ii)] = sum;
  }
  const long long bands = static_cast<long long>((columns + kBand - 1) / kBand);
#pragma omp parallel for schedule(static)
  for (long long band = 0; band < bands; ++band) {
    const std::size_t first = static_cast<std::size_t>(band) * kBand, last = std::min(columns, first + kBand);
    std::fill(c + first, c + last, 0.0f);
    for (std::size_t i = 0; i < rows; ++i) {
      const float* row = a + i * columns;
      const float b_i = b[i];
#pragma omp simd
      for (std::size_t j = first; j < last; ++j) c[j] += row[j] * b_i;
    }
  }
}

}  // namespace

const matvec::Step matvec::kThisStep = {
    "02", "CPU, all cores and SIMD (OpenMP)", "cpu", a_transpose_a_v_all_cores, nullptr, nullptr, 2, true};
