// How the course writes JSON, through nlohmann/json: the one place that decides how numbers look and
// how a file is laid out (an array with one item per line, so that a diff shows which item changed).
// Private to course::common: nvcc compiles the public headers in every step, and they stay free of
// nlohmann/json.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace course {

// A number as the course's JSON files write it: the figure its CSV files show (six significant
// digits), a whole number without a decimal point, null for NaN and infinity.
nlohmann::ordered_json json_number(double value);

// @p value on one line, with ", " between items and ": " after keys; text that is not UTF-8 is
// written with replacement characters rather than refused.
std::string json_line(const nlohmann::ordered_json& value);

// A JSON array of @p items: "[", one item per line (json_line), "]".
void write_json_lines(std::ostream& out, const std::vector<nlohmann::ordered_json>& items);

}  // namespace course
