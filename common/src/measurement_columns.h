// The columns of a measurement in the course's CSV and JSON forms, in order: the one list both follow,
// so the two carry the same fields, and the same figures.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "course/measurement.h"

namespace course {

struct MeasurementColumn {
  const char* name;  // the CSV heading and the JSON key
  bool numeric;      // a JSON number (or null), not a string
};

constexpr MeasurementColumn kMeasurementColumns[] = {
    {"lesson", false},      {"step", false},          {"title", false},
    {"kind", false},        {"size", false},          {"device", false},
    {"median_ms", true},    {"min_ms", true},         {"max_ms", true},
    {"reps", true},         {"bytes", true},          {"operations", true},
    {"rate_unit", false},   {"rate", true},           {"ceiling", true},
    {"ceiling_name", false}, {"percent_of_ceiling", true}, {"verdict", false},
    {"detail", false},      {"operation", false},     {"compute_ceiling", true}};
constexpr std::size_t kMeasurementColumnCount = sizeof kMeasurementColumns / sizeof kMeasurementColumns[0];

// The fields of @p m in column order, as text; numbers as csv_number() writes them.
std::vector<std::string> measurement_fields(const Measurement& m);

}  // namespace course
