// A problem for the judge's unit tests, with no GPU in it: the sum of an array of integers. The fake
// contestant (fake_contestant.cpp) answers it as a student's program would, or misbehaves as asked;
// test_judge.cpp judges it.
#pragma once

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "course/answer.h"
#include "course/exercise.h"
#include "course/wire.h"

namespace fake {

struct SumProblem {
  using Input = std::vector<std::int32_t>;
  using Output = std::int64_t;
  static Output reference(const Input& values) { return std::accumulate(values.begin(), values.end(), std::int64_t{0}); }
  /// The answer: the sum, 8 bytes.
  static Output read_answer(const Input&, course::AnswerReader& answer) { return answer.take<std::int64_t>(); }
  static course::CheckResult check(const Input& values, const Output& got) {
    return {got == reference(values), "sum " + std::to_string(got)};
  }
};

/// A host call: the student's function called on the host, many times at once (as 04-A's path()).
struct SquaresCall {
  static constexpr std::uint32_t kNumber = 1;
  using Input = std::vector<std::int32_t>;
  using Output = std::vector<std::vector<std::int64_t>>;  ///< for each x: {x, x * x}
  static Output call(const Input& xs) {
    Output out;
    for (std::int32_t x : xs) out.push_back({x, std::int64_t{x} * x});
    return out;
  }
  static std::size_t output_limit(const Input& xs) { return 8 + xs.size() * 24; }
};

}  // namespace fake
