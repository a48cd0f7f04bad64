// What the judge reads from a student's process, and what course_intake reads from a class's file
// names, fed any bytes (test_fuzz.sh runs it: under libFuzzer where clang has it, else under
// fuzz_mutator.cpp's seeded mutations; with AddressSanitizer and UndefinedBehaviorSanitizer either way).
// The first byte picks what is read:
//   even  the bytes are a contestant's stream: split into frames, each payload read as the judge reads
//         an answer (spans, then an exercise's Output of fixed and of counted shapes), a host call's
//         output (vectors of vectors), a timing's report, a failure's line;
//   odd   the bytes (at most 255, a file name's most) are a file's or a folder's name of a download.
// Besides crashes and the sanitizers' findings, what is read must hold: a payload read whole encodes
// back to itself; an answer read has exactly the spans its shape asks for; a download's name splits
// into pieces of itself.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "course/answer.h"
#include "course/contestant.h"
#include "course/submission_names.h"
#include "course/wire.h"

namespace {

[[noreturn]] void broken(const char* what) {
  std::fprintf(stderr, "fuzz: a property does not hold: %s\n", what);
  std::abort();
}

// Problems the answers are read for: a fixed shape (a value and an index), a counted one (a count
// then room for n values, as stream compaction's), and two spans (as the next hops' exercise).
struct Fixed {
  using Input = int;
  struct Output {
    float value;
    std::uint64_t index;
  };
  static Output read_answer(const Input&, course::AnswerReader& r) { return r.take<Output>(); }
};
struct Counted {
  using Input = std::size_t;
  struct Output {
    unsigned long long count;
    std::vector<float> kept;
  };
  static Output read_answer(const Input& n, course::AnswerReader& r) {
    Output o;
    o.count = r.take<unsigned long long>();
    o.kept = r.take_vector<float>(n);
    o.kept.resize(static_cast<std::size_t>(std::min<unsigned long long>(o.count, o.kept.size())));
    return o;
  }
};
struct TwoSpans {
  using Input = std::size_t;
  struct Output {
    std::vector<std::int32_t> first, second;
  };
  static Output read_answer(const Input& n, course::AnswerReader& r) {
    return {r.take_vector<std::int32_t>(n * n), r.take_vector<std::int32_t>(n * n)};
  }
};

// Reads @p payload as a T, all of it; where it reads, it must encode back to itself.
template <class T>
void read_whole(const std::vector<unsigned char>& payload) {
  try {
    const T value = course::wire::decode<T>(payload);
    if (course::wire::encode(value) != payload) broken("a payload read whole does not encode back to itself");
  } catch (const course::wire::WireError&) {
  }
}

template <class Problem>
void read_answer(const course::AnswerBytes& answer, const typename Problem::Input& input) {
  try {
    course::read_whole_answer<Problem>(input, answer);
    const std::vector<std::size_t> shape = course::answer_shape<Problem>(input);
    if (shape.size() != answer.size()) broken("an answer read with another number of spans than its shape");
    for (std::size_t i = 0; i < shape.size(); ++i)
      if (shape[i] != answer[i].size()) broken("an answer read with a span of another length than its shape");
  } catch (const course::MalformedAnswer&) {
  }
}

void contestant_stream(const unsigned char* data, std::size_t size) {
  std::vector<course::wire::Frame> frames;
  try {
    frames = course::wire::split_frames(data, size, std::size_t(1) << 20);
  } catch (const course::wire::WireError&) {
    return;
  }
  for (const course::wire::Frame& frame : frames) {
    read_whole<course::contestant::TimedRuns>(frame.payload);
    read_whole<std::vector<std::vector<std::int64_t>>>(frame.payload);
    try {
      const course::AnswerBytes answer = course::wire::decode<course::AnswerBytes>(frame.payload);
      read_answer<Fixed>(answer, 0);
      for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(3), std::size_t(1000)}) {
        read_answer<Counted>(answer, n);
        read_answer<TwoSpans>(answer, n);
      }
      (void)course::answer_hash(0x243F6A8885A308D3ull, answer);
    } catch (const course::wire::WireError&) {
    }
  }
}

void file_name(const unsigned char* data, std::size_t size) {
  const std::string name(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 255));
  if (const auto parsed = course::parse_download_name(name)) {
    for (const std::string* piece : {&parsed->student, &parsed->id, &parsed->own_name})
      if (piece->empty() || name.find(*piece) == std::string::npos) broken("a download's name split into what is not in it");
    if (parsed->platform != "canvas" && parsed->platform != "moodle") broken("a download's name of no platform");
  }
  if (const auto folder = course::parse_moodle_folder(name))
    if (name.rfind(folder->first, 0) != 0) broken("a Moodle folder's name does not begin with the student's");
  for (const char* exercise : {"argmax.cu", "min_max.cu", "x.cu"}) {
    const long number = course::copy_number(name, exercise);
    if (number < -1 || number > 999999) broken("a copy's number out of its range");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0)
    contestant_stream(data + 1, size - 1);
  else
    file_name(data + 1, size - 1);
  return 0;
}
