/// @file sweep.h
/// @brief A sweep: the same steps run over several argument sets (sizes, types and operators), one row
/// each, with the original study's figures beside them; and the text table that shows it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "course/measurement.h"

namespace course {

/// One row of a sweep: a label (a size, a type and operator) and what each step measured there.
struct SweepRow {
  std::string label;               ///< e.g. "1024" or "float sum"
  std::vector<Measurement> cells;  ///< one per step, in the sweep's step order; verdict empty: not run
  std::vector<std::string> study;  ///< the original study's figures for this row (ms; empty: none)
};

/// A sweep table: the same steps run over several argument sets, one row each, with an optional set
/// of columns from the original study beside them.
struct Sweep {
  std::string label_title = "size";        ///< heading of the label column
  std::vector<std::string> steps;          ///< column keys, e.g. "03", one per step
  std::vector<std::string> study_columns;  ///< headings of the study's columns (may be empty)
  std::vector<SweepRow> rows;              ///< in order
};

/// The study's figures for a sweep, read from CSV text: a header line (the label's heading, then one
/// heading per column) and one line per row label; empty lines and lines starting with '#' are left out.
struct StudyFigures {
  std::string label_title;                ///< first heading
  std::vector<std::string> columns;       ///< the other headings
  std::vector<std::string> labels;        ///< row labels, in order
  std::vector<std::vector<std::string>> rows;  ///< figures per label, as written
};
/// Parses @p text as StudyFigures; @p name names it in error messages.
/// @throws UsageError without a header line, or on a line with the wrong number of fields
StudyFigures parse_study_figures(const std::string& text, const std::string& name);

/// The key of the fastest step that passed in @p row (by median time), or "-" when none passed.
std::string fastest_in_row(const Sweep& sweep, const SweepRow& row);
/// Prints a sweep as a table under @p title: the label, each step's median time in ms (or FAIL, SKIP,
/// ERROR, - when not run), the fastest step, the study's columns; then a legend of the steps.
void print_sweep(std::ostream& out, const std::string& title, const Sweep& sweep);

}  // namespace course
