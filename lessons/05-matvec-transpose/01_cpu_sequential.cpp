// Lesson 05, step 01: CPU, sequential.
//
// The two products one after the other: B_i = sum_j A[i][j] v[j] for each row, then
// C_j = sum_i A[i][j] B_i. The second loop runs over rows on the outside, adding B_i times row i to C,
// so A is read in memory order both times; the transposed product never needs A^T itself. The matrix
// is read twice, 2 GiB at the default size, by one core.
#include <algorithm>
#include <vector>

#include "matvec.h"

namespace {

void a_transpose_a_v(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns) {
  std::vector<float> b(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    float sum = 0.0f;
    for (std::size_t j = 0; j < columns; ++j) sum += a[i * columns + j] * v[j];
    b[i] = sum;
  }
  std::fill(c, c + columns, 0.0f);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < columns; ++j) c[j] += a[i * columns + j] * b[i];
}

}  // namespace

const matvec::Step matvec::kThisStep = {"01", "CPU sequential", "cpu", a_transpose_a_v, nullptr, nullptr, 2};
