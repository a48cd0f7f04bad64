#include "course/csv.h"

#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "course/errors.h"
#include "measurement_columns.h"

namespace course {

std::string csv_number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

namespace {
double to_double(const std::string& s) {
  if (s.empty()) return 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0') throw UsageError("not a number in a measurement row: '" + s + "'");
  return v;
}
}  // namespace

std::vector<std::string> measurement_fields(const Measurement& m) {
  return {m.lesson, m.step, m.title, m.kind, m.size, m.device, csv_number(m.time.median_ms),
          csv_number(m.time.min_ms), csv_number(m.time.max_ms), std::to_string(m.time.reps), csv_number(m.bytes),
          csv_number(m.operations), m.rate_unit, csv_number(m.rate()), csv_number(m.ceiling), m.ceiling_name,
          csv_number(m.percent_of_ceiling()), m.verdict, m.detail, m.operation, csv_number(m.compute_ceiling)};
}

std::string csv_header() {
  std::string out;
  for (std::size_t i = 0; i < kMeasurementColumnCount; ++i)
    out += (i ? "," : "") + std::string(kMeasurementColumns[i].name);
  return out;
}

std::string to_csv(const Measurement& m) {
  std::string out;
  const auto fields = measurement_fields(m);
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  return out;
}

Measurement from_csv(const std::string& line) {
  auto f = fields_of(line);
  if (f.size() != kMeasurementColumnCount)
    throw UsageError("a measurement row has " + std::to_string(kMeasurementColumnCount) + " fields, this one has " +
                     std::to_string(f.size()));
  Measurement m;
  m.lesson = f[0];
  m.step = f[1];
  m.title = f[2];
  m.kind = f[3];
  m.size = f[4];
  m.device = f[5];
  m.time.median_ms = to_double(f[6]);
  m.time.min_ms = to_double(f[7]);
  m.time.max_ms = to_double(f[8]);
  m.time.reps = static_cast<int>(to_double(f[9]));
  m.bytes = to_double(f[10]);
  m.operations = to_double(f[11]);
  m.rate_unit = f[12];
  m.ceiling = to_double(f[14]);
  m.ceiling_name = f[15];
  m.verdict = f[17];
  m.detail = f[18];
  m.operation = f[19];
  m.compute_ceiling = to_double(f[20]);
  return m;
}

void write_ladder_csv(std::ostream& out, const std::vector<LadderRow>& rows) {
  out << csv_header() << ",speedup_previous,speedup_cpu,speedup_all_cores\n";
  for (const LadderRow& r : rows)
    out << to_csv(r.m) << "," << csv_number(r.speedup_previous) << "," << csv_number(r.speedup_cpu) << ","
        << csv_number(r.speedup_all_cores) << "\n";
}

void write_sweep_csv(std::ostream& out, const Sweep& sweep) {
  out << csv_field(sweep.label_title);
  for (const std::string& step : sweep.steps) out << ",step_" << step << "_ms,step_" << step << "_check";
  out << ",fastest";
  for (const std::string& c : sweep.study_columns) out << "," << csv_field("study_" + c + "_ms");
  out << "\n";
  for (const SweepRow& row : sweep.rows) {
    out << csv_field(row.label);
    for (std::size_t s = 0; s < sweep.steps.size(); ++s) {
      const bool ran = s < row.cells.size() && !row.cells[s].verdict.empty();
      out << "," << (ran && row.cells[s].time.median_ms > 0 ? csv_number(row.cells[s].time.median_ms) : "") << ","
          << (ran ? row.cells[s].verdict : "");
    }
    out << "," << fastest_in_row(sweep, row);
    for (std::size_t c = 0; c < sweep.study_columns.size(); ++c)
      out << "," << (c < row.study.size() ? csv_field(row.study[c]) : "");
    out << "\n";
  }
}

}  // namespace course
