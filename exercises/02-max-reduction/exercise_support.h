// Lesson 02 exercises: their problems as the course's exercise harness sees them (course/exercise.h),
// for the grading tests and the benchmarks. You do not need to read or change this file to do the
// exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "argmax.h"
#include "course/buffers.h"
#include "course/data.h"
#include "course/exercise.h"
#include "min_max.h"

namespace exercise02 {

/// The input of both exercises: an array of floats, placed `offset` floats past the start of its
/// device allocation (an offset of 1-3 makes it start off a 16-byte boundary).
struct Array {
  std::vector<float> values;
  std::size_t offset = 0;
};

/// What both exercises share: one pass over an array into one result, with the student's scratch;
/// the benchmark's array is 40,960,000 floats from (-1, 1), each read once.
template <class Result, std::size_t (*scratch_bytes)(std::size_t),
          void (*function)(const float*, std::size_t, Result*, void*, cudaStream_t)>
struct OnePass {
  static constexpr const char* kLesson = "02";
  static constexpr int kReps = 20;
  using Input = Array;
  using Output = Result;

  static void declare(course::CommandLine& cli) { cli.add_size("n", 40960000, "number of floats", 1, 4294967295ull); }
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    return {course::uniform_floats(cli.size("n"), -1.0f, 1.0f, seed)};
  }
  /// The answer: the one result, as it lies in device memory.
  static Output read_answer(const Input&, course::AnswerReader& answer) { return answer.take<Result>(); }
  static void count(const Input& in, course::Measurement& m) {
    m.size = "n=" + std::to_string(in.values.size());
    m.bytes = static_cast<double>(in.values.size()) * sizeof(float);
    m.rate_unit = "GB/s";
  }

  /// The array, the result and the scratch in device memory; run() calls the student's function.
  class OnDevice {
   public:
    explicit OnDevice(const Input& in)
        : n_(in.values.size()),
          offset_(in.offset),
          values_(in.offset + n_, "input array"),
          result_(1, "result"),
          scratch_(scratch_bytes(n_), "scratch") {
      CUDA_CHECK(cudaMemcpy(values_.data() + offset_, in.values.data(), n_ * sizeof(float), cudaMemcpyHostToDevice));
    }
    void poison(cudaStream_t stream) { result_.poison(stream); }
    void run(cudaStream_t stream) { function(values_.data() + offset_, n_, result_.data(), scratch_.data(), stream); }
    course::AnswerSpans answer() const { return {result_.whole()}; }

   private:
    std::size_t n_, offset_;
    course::DeviceBuffer<float> values_;
    course::DeviceBuffer<Result> result_;
    course::DeviceBuffer<unsigned char> scratch_;
  };
};

/// Exercise 02-A: the largest value and the first index where it occurs.
struct ArgmaxExercise : OnePass<ArgMax, argmax_scratch_bytes, argmax> {
  static constexpr const char* kTitle = "argmax";
  static ArgMax reference(const std::vector<float>& values) {
    const auto largest = std::max_element(values.begin(), values.end());  // the first of equals
    return ArgMax{*largest, static_cast<std::uint64_t>(largest - values.begin())};
  }
  static course::CheckResult check(const Input& in, const ArgMax& got) {
    const ArgMax expected = reference(in.values);
    const double got_pair[2] = {got.value, static_cast<double>(got.index)};
    const double expected_pair[2] = {expected.value, static_cast<double>(expected.index)};
    return course::checked(course::compare_exact(got_pair, expected_pair, 2));
  }
};

/// Exercise 02-B: the smallest and the largest value, in one pass.
struct MinMaxExercise : OnePass<MinMax, min_max_scratch_bytes, min_max> {
  static constexpr const char* kTitle = "min and max in one pass";
  static MinMax reference(const std::vector<float>& values) {
    const auto extremes = std::minmax_element(values.begin(), values.end());
    return MinMax{*extremes.first, *extremes.second};
  }
  static course::CheckResult check(const Input& in, const MinMax& got) {
    const MinMax expected = reference(in.values);
    const float got_pair[2] = {got.min, got.max};
    const float expected_pair[2] = {expected.min, expected.max};
    return course::checked(course::compare_exact(got_pair, expected_pair, 2));
  }
};

}  // namespace exercise02

namespace course::wire {
template <>
struct Fields<exercise02::Array> : FieldsAre<&exercise02::Array::values, &exercise02::Array::offset> {};
}  // namespace course::wire
