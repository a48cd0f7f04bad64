/// @file json.h
/// @brief The course's JSON: a measurement as one JSON object (what a step prints with --json), and the
/// runner's ladder and sweep tables as JSON files. Keys are the CSV's headings, numbers the CSV's
/// figures (six significant digits), and a number that is not finite (NaN, infinity) is null.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "course/ladder.h"
#include "course/measurement.h"
#include "course/sweep.h"

namespace course {

/// One JSON object on one line, a key per CSV column (csv_header()).
std::string to_json(const Measurement& m);
/// Writes a ladder as a JSON array, one object per line: a step's measurement and its three speed-ups.
void write_ladder_json(std::ostream& out, const std::vector<LadderRow>& rows);
/// Writes a sweep as a JSON array, one object per row and line: the label, the fastest step, every
/// measurement of the row, and the study's figures.
void write_sweep_json(std::ostream& out, const Sweep& sweep);

}  // namespace course
