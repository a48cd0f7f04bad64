/// @file answer.h
/// @brief An exercise's answer as bytes. An exercise's device side names the buffers that hold its
/// answer (AnswerSpans, in order), and the exercise reads those buffers' bytes as its Output
/// (read_answer, through an AnswerReader). The grading test, the benchmark and `./course grade-class`'s
/// judge all go through here: under the judge the bytes come from a student's process, so the reader
/// takes each span whole, of exactly the length the problem gives it, or refuses the answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/splitmix.h"

namespace course {

/// The device buffers that hold an answer, in the order the exercise reads them.
using AnswerSpans = std::vector<DeviceBytes>;

/// An answer whose bytes do not have the shape the problem gives it (a span too short, too long, or
/// missing), said in one line.
class MalformedAnswer : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An answer's bytes: one byte string per span, as they were in device memory.
using AnswerBytes = std::vector<std::vector<unsigned char>>;

/// Reads an answer span by span. Each take() consumes one whole span, which must be exactly as long
/// as what is taken. A reader made by sizing() reads nothing and only counts the bytes asked for.
class AnswerReader {
 public:
  /// Reads the spans of @p answer.
  explicit AnswerReader(const AnswerBytes& answer) : answer_(&answer) {}
  /// A reader that counts: take() gives value-initialised data, bytes() the total asked for.
  static AnswerReader sizing() { return AnswerReader(); }

  /// The next span, as one @p T.
  template <class T>
  T take() {
    T value{};
    next(&value, sizeof(T), 1);
    return value;
  }
  /// The next span, as @p count elements of @p T.
  template <class T>
  std::vector<T> take_vector(std::size_t count) {
    std::vector<T> values(sizing_ ? 0 : count);
    next(values.data(), sizeof(T), count);
    return values;
  }
  /// Throws MalformedAnswer when spans are left over.
  void expect_end() const;
  std::size_t bytes() const { return bytes_; }            ///< the bytes taken (or asked for) so far
  std::vector<std::size_t> span_lengths() const { return lengths_; }  ///< each span's length, in order

 private:
  AnswerReader() : answer_(nullptr), sizing_(true) {}
  void next(void* target, std::size_t element_bytes, std::size_t count);
  const AnswerBytes* answer_;
  bool sizing_ = false;
  std::size_t span_ = 0;
  std::size_t bytes_ = 0;
  std::vector<std::size_t> lengths_;
};

/// Copies each span from the device (synchronous).
AnswerBytes download_answer(const AnswerSpans& spans);

/// The hash that commits a contestant to its answers before it sends them: a sum over the spans j and
/// their 8-byte words i (the last zero-padded) of mix(word ^ mix(key + j * 2^48 + i)), plus mix(key ^
/// length) for each span. Without the answer's bytes nobody can give it, whatever the key; a new key
/// for every timing makes an old hash useless.
std::uint64_t answer_hash(std::uint64_t key, const AnswerBytes& answer);

/// The same hash of each of several answers where they lie, computed on the GPU (in @p stream; returns
/// once done).
std::vector<std::uint64_t> answer_hashes_on_device(std::uint64_t key, const std::vector<AnswerSpans>& answers, void* stream);

namespace detail {
/// The mix of the hash: the splitmix64 finaliser, as course::CounterRng's.
COURSE_HOST_DEVICE inline std::uint64_t hash_mix(std::uint64_t x) { return splitmix64(x); }
/// One word's share of answer_hash: span @p span, word @p word.
COURSE_HOST_DEVICE inline std::uint64_t hash_word(std::uint64_t key, std::uint64_t span, std::uint64_t word,
                                                  std::uint64_t value) {
  return hash_mix(value ^ hash_mix(key + (span << 48) + word));
}
}  // namespace detail

/// The Output an exercise reads from @p answer for @p input, all of it.
/// @throws MalformedAnswer when the bytes do not have the answer's shape
template <class Exercise>
typename Exercise::Output read_whole_answer(const typename Exercise::Input& input, const AnswerBytes& answer) {
  AnswerReader reader(answer);
  typename Exercise::Output output = Exercise::read_answer(input, reader);
  reader.expect_end();
  return output;
}

/// The length of each span of an answer to @p input, as the exercise reads it.
template <class Exercise>
std::vector<std::size_t> answer_shape(const typename Exercise::Input& input) {
  AnswerReader reader = AnswerReader::sizing();
  Exercise::read_answer(input, reader);
  return reader.span_lengths();
}

}  // namespace course
