/// @file csv.h
/// @brief The course's CSV files: a measurement as a CSV row and back (what a step prints with --csv and
/// the runner reads), and the runner's ladder and sweep tables as CSV files (docs/results).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "course/delimited_text.h"
#include "course/ladder.h"
#include "course/measurement.h"
#include "course/sweep.h"

namespace course {

/// A number as the course's CSV files write it: six significant digits, printf's "%.6g".
std::string csv_number(double value);

/// The CSV header matching to_csv().
std::string csv_header();
/// One CSV row (fields quoted where needed).
std::string to_csv(const Measurement& m);
/// Parses a row written by to_csv(). @throws UsageError if it is not one.
Measurement from_csv(const std::string& line);

/// Writes a ladder as CSV (the measurement columns plus the three speed-ups).
void write_ladder_csv(std::ostream& out, const std::vector<LadderRow>& rows);
/// Writes a sweep as CSV: label, then per step its time in ms and verdict, the fastest, the study's.
void write_sweep_csv(std::ostream& out, const Sweep& sweep);

}  // namespace course
