#include "course/measurement.h"

#include <iostream>
#include <ostream>

#include "course/csv.h"
#include "course/errors.h"
#include "course/json.h"
#include "course/text_table.h"

namespace course {

double Measurement::rate() const {
  if (time.median_ms <= 0) return 0;
  double seconds = time.median_ms * 1e-3;
  double count = rate_unit == "GB/s" ? bytes : operations;
  return count / seconds / 1e9;
}

double Measurement::percent_of_ceiling() const { return ceiling > 0 ? 100.0 * rate() / ceiling : 0; }

double Measurement::operational_intensity() const { return bytes > 0 && operations > 0 ? operations / bytes : 0; }

double Measurement::operation_rate() const {
  return time.median_ms > 0 ? operations / (time.median_ms * 1e-3) / 1e9 : 0;
}

void print_measurement(std::ostream& out, const Measurement& m, OutputFormat format) {
  if (format == OutputFormat::Csv) {
    out << csv_header() << "\n" << to_csv(m) << "\n";
    return;
  }
  if (format == OutputFormat::Json) {
    out << to_json(m) << "\n";
    return;
  }
  out << "lesson " << m.lesson << ", step " << m.step << ": " << m.title << "  [" << m.kind << ", " << m.device
      << "]\n";
  if (m.verdict == "SKIP") {
    out << "  skipped: " << m.detail << "\n";
    return;
  }
  out << "  size    " << m.size << "\n";
  if (!m.launch.empty()) out << "  launch  " << m.launch << "\n";
  out << "  time    " << format_significant(m.time.median_ms, 4) << " ms median (min "
      << format_significant(m.time.min_ms, 4) << ", max " << format_significant(m.time.max_ms, 4) << "; "
      << m.time.reps << " timed runs)\n";
  if (m.rate() > 0) {
    out << "  rate    " << format_significant(m.rate(), 4) << " " << m.rate_unit;
    if (m.ceiling > 0)
      out << " = " << format_significant(m.percent_of_ceiling(), 3) << "% of " << m.ceiling_name << " ("
          << format_significant(m.ceiling, 4) << " " << m.rate_unit << ")";
    out << "\n";
  }
  out << "  check   " << m.detail << "\n";
}

int report_skipped(const std::string& program, Measurement m, const std::string& why, OutputFormat format) {
  m.device = "none";
  m.verdict = "SKIP";
  m.detail = "no CUDA device (" + why + ")";
  std::cerr << program << ": skipped: " << m.detail << "\n";
  // The reason is said once, on standard error; a CSV or JSON report still carries the SKIP row.
  if (format != OutputFormat::Text) print_measurement(std::cout, m, format);
  return kExitSkipped;
}

}  // namespace course
