#include "course/sweep.h"

#include <ostream>

#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/text_table.h"

namespace course {

StudyFigures parse_study_figures(const std::string& text, const std::string& name) {
  StudyFigures f;
  bool header = true;
  for (const std::string& line : content_lines_of(text)) {
    std::vector<std::string> fields = fields_of(line);
    if (header) {
      f.label_title = fields.front();
      f.columns.assign(fields.begin() + 1, fields.end());
      header = false;
      continue;
    }
    if (fields.size() != f.columns.size() + 1)
      throw UsageError(name + ": a line has " + std::to_string(fields.size()) + " fields, the header " +
                       std::to_string(f.columns.size() + 1) + ": " + line);
    f.labels.push_back(fields.front());
    f.rows.emplace_back(fields.begin() + 1, fields.end());
  }
  if (header) throw UsageError(name + ": no header line");
  return f;
}

std::string fastest_in_row(const Sweep& sweep, const SweepRow& row) {
  std::string best = "-";
  double best_ms = 0;
  for (std::size_t s = 0; s < row.cells.size() && s < sweep.steps.size(); ++s) {
    const Measurement& m = row.cells[s];
    if (m.verdict != "PASS" || m.time.median_ms <= 0) continue;
    if (best == "-" || m.time.median_ms < best_ms) {
      best = sweep.steps[s];
      best_ms = m.time.median_ms;
    }
  }
  return best;
}

namespace {
std::string sweep_cell(const Measurement& m) {
  if (m.verdict.empty()) return "-";
  if (m.verdict == "PASS") return format_significant(m.time.median_ms, 4);
  return m.verdict;
}
}  // namespace

void print_sweep(std::ostream& out, const std::string& title, const Sweep& sweep) {
  out << title << "\n\n";
  std::vector<std::string> headers{sweep.label_title};
  for (const std::string& step : sweep.steps) headers.push_back(step + " ms");
  headers.push_back("fastest");
  for (const std::string& c : sweep.study_columns) headers.push_back("study: " + c + " ms");
  TextTable table(headers);
  for (const SweepRow& row : sweep.rows) {
    std::vector<std::string> cells{row.label};
    for (std::size_t s = 0; s < sweep.steps.size(); ++s)
      cells.push_back(s < row.cells.size() ? sweep_cell(row.cells[s]) : "-");
    cells.push_back(fastest_in_row(sweep, row));
    for (std::size_t c = 0; c < sweep.study_columns.size(); ++c)
      cells.push_back(c < row.study.size() && !row.study[c].empty() ? row.study[c] : "-");
    table.add_row(cells);
  }
  table.print(out);
  // The legend: each step's title and kind, taken from the first row that ran it, and the device.
  out << "\n";
  std::string device;
  for (std::size_t s = 0; s < sweep.steps.size(); ++s) {
    std::string what = "(not run)";
    for (const SweepRow& row : sweep.rows) {
      if (s < row.cells.size() && !row.cells[s].verdict.empty() && !row.cells[s].title.empty()) {
        what = row.cells[s].title;
        if (row.cells[s].kind == "gpu" || row.cells[s].kind == "library")
          if (device.empty() && row.cells[s].verdict != "SKIP") device = row.cells[s].device;
        break;
      }
    }
    out << sweep.steps[s] << ": " << what << "\n";
  }
  if (!device.empty()) out << "device " << device << "\n";
  for (const SweepRow& row : sweep.rows)
    for (std::size_t s = 0; s < row.cells.size() && s < sweep.steps.size(); ++s) {
      const Measurement& m = row.cells[s];
      if (!m.verdict.empty() && m.verdict != "PASS" && m.verdict != "SKIP")
        out << row.label << ", step " << sweep.steps[s] << ": " << m.detail << "\n";
    }
}

}  // namespace course
