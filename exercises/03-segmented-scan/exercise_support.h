// Lesson 03 exercises: their problems as the course's exercise harness sees them (course/exercise.h),
// for the grading tests and the benchmarks. You do not need to read or change this file to do the
// exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "compact.h"
#include "course/buffers.h"
#include "course/data.h"
#include "course/exercise.h"
#include "segment_sums.h"
#include "segmented_scan.h"

namespace exercise03 {

/// What both exercises share: n elements (60,000,000 in the benchmark), each read once; the rate is
/// the bytes the problem must move.
struct OverElements {
  static constexpr const char* kLesson = "03";
  static constexpr int kReps = 20;
  static void declare(course::CommandLine& cli) {
    cli.add_size("n", segscan::kDefaultCount, "elements", 1, 2147483647ull);
  }
};

/// What compact_positive() produced on the GPU: the count and the kept elements.
struct Compaction {
  unsigned long long count = 0;
  std::vector<float> kept;  ///< the first min(count, n) elements of the output
};

/// Exercise 03-A: stream compaction, the elements greater than zero in their order.
struct CompactExercise : OverElements {
  static constexpr const char* kTitle = "keep the positive values";
  using Input = std::vector<float>;
  using Output = Compaction;

  /// The benchmark's values: uniform in (-1, 1), so about half are kept.
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    return course::uniform_floats(cli.size("n"), -1.0f, 1.0f, seed);
  }
  /// The kept elements (those greater than zero), in order: what compact_positive() must produce.
  static std::vector<float> reference(const std::vector<float>& values) {
    std::vector<float> kept;
    for (float x : values)
      if (x > 0.0f) kept.push_back(x);
    return kept;
  }
  /// The values read, the kept ones written.
  static void count(const Input& values, course::Measurement& m) {
    const auto kept = std::count_if(values.begin(), values.end(), [](float x) { return x > 0.0f; });
    m.size = "n=" + std::to_string(values.size());
    m.bytes = static_cast<double>(values.size()) * sizeof(float) + static_cast<double>(kept) * sizeof(float);
    m.rate_unit = "GB/s";
  }
  /// The answer: the count, then the whole output (room for n), of which the first min(count, n) count.
  static Output read_answer(const Input& values, course::AnswerReader& answer) {
    Compaction c;
    c.count = answer.take<unsigned long long>();
    c.kept = answer.take_vector<float>(values.size());
    c.kept.resize(static_cast<std::size_t>(std::min<unsigned long long>(c.count, c.kept.size())));
    return c;
  }
  /// The count first (a wrong count is said as such), then every kept element exactly.
  static course::CheckResult check(const Input& values, const Output& got) {
    const std::vector<float> expected = reference(values);
    if (got.count != expected.size())
      return {false, "FAIL: count " + std::to_string(got.count) + ", expected " + std::to_string(expected.size())};
    return course::checked(course::compare_exact(got.kept.data(), expected.data(), expected.size()));
  }

  /// The values, the output (room for n), the count and the scratch in device memory; run() calls
  /// compact_positive.
  class OnDevice {
   public:
    explicit OnDevice(const Input& values)
        : n_(values.size()),
          in_(n_, "values"),
          out_(n_, "kept"),
          count_(1, "count"),
          scratch_(compact_positive_scratch_bytes(n_), "scratch") {
      in_.upload(values);
    }
    void poison(cudaStream_t stream) {
      out_.poison(stream);
      count_.poison(stream);
    }
    void run(cudaStream_t stream) {
      compact_positive(in_.data(), n_, out_.data(), count_.data(), scratch_.data(), stream);
    }
    course::AnswerSpans answer() const { return {count_.whole(), out_.whole()}; }

   private:
    std::size_t n_;
    course::DeviceBuffer<float> in_, out_;
    course::DeviceBuffer<unsigned long long> count_;
    course::DeviceBuffer<unsigned char> scratch_;
  };
};

/// The segments' sums in long double, and the tolerance for a float sum of each: 4 u sqrt(k) A, with
/// k the segment's length, A the sum of its |values| and u = 2^-24 (lesson 03's rule for float sums).
struct SegmentSums {
  std::vector<double> expected, allowed;
};

/// Exercise 03-B: one sum per segment, segments given by head flags.
struct SegmentSumsExercise : OverElements {
  static constexpr const char* kTitle = "one sum per segment";
  using Input = segscan::Problem<float>;
  using Output = std::vector<float>;  ///< one sum per segment

  /// The benchmark's problem: segments of random lengths.
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    return segscan::make_problem<float>(cli.size("n"), segscan::Operator::Sum, segscan::Pattern::Random, seed);
  }
  /// The number of segments: one per head flag.
  static std::size_t segments(const Input& p) {
    std::size_t heads = 0;
    for (std::uint8_t f : p.flags) heads += f;
    return heads;
  }
  /// The bytes the problem needs: values and flags read, one float per segment written.
  static void count(const Input& p, course::Measurement& m) {
    const std::size_t n = p.values.size();
    m.size = "n=" + std::to_string(n);
    m.bytes = static_cast<double>(n) * (sizeof(float) + 1) + static_cast<double>(segments(p)) * sizeof(float);
    m.rate_unit = "GB/s";
  }
  static SegmentSums reference(const Input& p) {
    SegmentSums s;
    long double sum = 0, magnitude = 0;
    std::size_t length = 0;
    auto close = [&] {
      s.expected.push_back(static_cast<double>(sum));
      s.allowed.push_back(
          static_cast<double>(4 * std::ldexp(1.0L, -24) * std::sqrt(static_cast<long double>(length)) * magnitude));
    };
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      if (i > 0 && p.flags[i]) {
        close();
        sum = magnitude = 0;
        length = 0;
      }
      sum += p.values[i];
      magnitude += std::fabs(static_cast<long double>(p.values[i]));
      ++length;
    }
    if (!p.values.empty()) close();
    return s;
  }
  /// Compares sums with the reference, each within its own tolerance; reports the worst.
  static course::Verdict compare(const std::vector<float>& got, const SegmentSums& want) {
    course::Verdict v;
    v.checked = want.expected.size();
    for (std::size_t s = 0; s < want.expected.size(); ++s) v.add(s, got[s], want.expected[s], want.allowed[s]);
    return v;
  }
  /// The answer: one sum per segment.
  static Output read_answer(const Input& p, course::AnswerReader& answer) { return answer.take_vector<float>(segments(p)); }
  static course::CheckResult check(const Input& p, const Output& got) {
    return course::checked(compare(got, reference(p)));
  }

  /// The values, the flags, the sums and the scratch in device memory; run() calls segment_sums.
  class OnDevice {
   public:
    explicit OnDevice(const Input& p)
        : n_(p.values.size()),
          values_(n_, "values"),
          sums_(segments(p), "sums"),
          flags_(n_, "flags"),
          scratch_(segment_sums_scratch_bytes(n_), "scratch") {
      values_.upload(p.values);
      flags_.upload(p.flags);
    }
    void poison(cudaStream_t stream) { sums_.poison(stream); }
    void run(cudaStream_t stream) {
      segment_sums(values_.data(), flags_.data(), n_, sums_.data(), scratch_.data(), stream);
    }
    course::AnswerSpans answer() const { return {sums_.whole()}; }

   private:
    std::size_t n_;
    course::DeviceBuffer<float> values_, sums_;
    course::DeviceBuffer<std::uint8_t> flags_;
    course::DeviceBuffer<unsigned char> scratch_;
  };
};

}  // namespace exercise03

namespace course::wire {
template <>
struct Fields<segscan::Problem<float>>
    : FieldsAre<&segscan::Problem<float>::values,
                &segscan::Problem<float>::flags> {};
}  // namespace course::wire
