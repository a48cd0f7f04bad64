// What the tests of the report layer share: a made-up measurement, and counting in text.
#pragma once

#include <string>

#include "course/delimited_text.h"
#include "course/measurement.h"

using course::lines_of;

// A passing step that moved 4 GB in @p ms milliseconds.
inline course::Measurement timed(const std::string& step, const std::string& kind, double ms,
                                 const std::string& verdict = "PASS") {
  course::Measurement m;
  m.lesson = "02";
  m.step = step;
  m.title = "step " + step;
  m.kind = kind;
  m.time.median_ms = ms;
  m.time.min_ms = ms;
  m.time.max_ms = ms;
  m.time.reps = 3;
  m.bytes = 4e9;
  m.rate_unit = "GB/s";
  m.verdict = verdict;
  return m;
}

// How many times @p what occurs in @p text.
inline std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}
