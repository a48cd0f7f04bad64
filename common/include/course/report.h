/// @file report.h
/// @brief One measured step (a Measurement), its text/CSV/JSON forms, and the ladder table that
/// compares the steps of a lesson: time, rate, share of the ceiling, speed-ups, PASS/FAIL.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/timing.h"

namespace course {

/// Everything one run of one step reports. Bytes or operations are those the step must move or do
/// (counted by the lesson, not measured), so the rate compares steps doing the same job.
struct Measurement {
  std::string lesson;        ///< "02"
  std::string step;          ///< "05"
  std::string title;         ///< "warp shuffle"
  std::string kind;          ///< "cpu", "gpu" or "library"
  std::string size;          ///< problem size, e.g. "n=40960000"
  std::string device;        ///< the GPU's name, or the CPU's description
  TimingStats time;          ///< median/min/max over the timed repetitions
  double bytes = 0;          ///< bytes counted per run (used when rate_unit is "GB/s")
  double operations = 0;     ///< operations counted per run (used for any other unit)
  std::string rate_unit;     ///< "GB/s", "GFLOP/s", "Gop/s", ...
  double ceiling = 0;        ///< the device's ceiling in rate_unit (0 when not known)
  std::string ceiling_name;  ///< what the ceiling is, e.g. "copy bandwidth"
  std::string operation;     ///< what one of the operations is ("comparison", "multiply-add", ...)
  double compute_ceiling = 0;  ///< the GPU's rate for those operations, G/s (0 when not known): the
                               ///< compute roof of the lesson's roofline
  std::string verdict;       ///< "PASS", "FAIL" or "SKIP"
  std::string detail;        ///< the verification's one-line description, or why it was skipped
  std::string launch;        ///< how a GPU step launched, where it chooses by size (text report only)

  /// Bytes or operations per second, in rate_unit (0 without a time or a count).
  double rate() const;
  /// rate() as a percentage of the ceiling (0 when the ceiling is unknown).
  double percent_of_ceiling() const;
  /// Operations per byte counted (0 when either is not counted): the step's x on a roofline.
  double operational_intensity() const;
  /// Operations per second, in G/s (0 without a time or a count): the step's y on a roofline.
  double operation_rate() const;
};

/// The fields of one CSV line: commas separate them, double quotes enclose a field that holds commas,
/// and two double quotes inside one stand for one.
std::vector<std::string> split_csv_line(const std::string& line);

/// The CSV header matching to_csv().
std::string csv_header();
/// One CSV row (fields quoted where needed).
std::string to_csv(const Measurement& m);
/// Parses a row written by to_csv(). @throws UsageError if it is not one.
Measurement from_csv(const std::string& line);
/// One JSON object.
std::string to_json(const Measurement& m);
/// Prints @p m in @p format: a short human report, a CSV header and row, or a JSON object.
void print_measurement(std::ostream& out, const Measurement& m, OutputFormat format);

/// Reports a GPU step that cannot run for want of a CUDA device: one line on standard error
/// ("<program>: skipped: no CUDA device (<why>)"), then @p m marked SKIP in @p format on standard
/// output, so the runner still learns the step's name. Returns kExitSkipped.
int report_skipped(const std::string& program, Measurement m, const std::string& why, OutputFormat format);

/// Formats @p value with @p significant significant digits, without exponent for ordinary magnitudes.
std::string format_significant(double value, int significant = 3);
/// Formats a whole number with thousands separators: 40960000 -> "40,960,000".
std::string format_count(unsigned long long value);

/// A plain text table with aligned columns; numbers right-aligned, text left-aligned.
class TextTable {
 public:
  /// @param headers column titles
  explicit TextTable(std::vector<std::string> headers);
  /// Adds a row; it must have as many cells as there are headers.
  void add_row(std::vector<std::string> cells);
  /// Prints the table with a rule under the header.
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

/// One row of a lesson's ladder: a measurement and its speed-ups.
struct LadderRow {
  Measurement m;                ///< the step's measurement
  double speedup_previous = 0;  ///< how many times faster than the previous passing step (0: none)
  double speedup_cpu = 0;       ///< how many times faster than the first CPU step (0: none)
  double speedup_all_cores = 0; ///< how many times faster than the fastest CPU step, when the ladder
                                ///< has a second, faster one (every core, vector instructions; 0: none)
};

/// Computes the speed-ups of a ladder: over the previous step that passed (skipped and failed steps
/// are shown but do not serve as a baseline), over the first CPU step, and over the fastest CPU step
/// when the ladder has more than one (a sequential loop and one on every core). Between steps of the same
/// size a speed-up is a ratio of times (so a step that needs fewer bytes for the same answer gets the
/// credit); a step run at another size is compared by rate instead.
std::vector<LadderRow> make_ladder(const std::vector<Measurement>& steps);

/// Prints a ladder as a table under @p title.
void print_ladder(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows);

/// Writes a ladder as CSV (the measurement columns plus the two speed-ups).
void write_ladder_csv(std::ostream& out, const std::vector<LadderRow>& rows);
/// Writes a ladder as a JSON array of objects.
void write_ladder_json(std::ostream& out, const std::vector<LadderRow>& rows);
/// Draws a ladder as an SVG bar chart: one bar per step that passed, on a logarithmic scale. The bars
/// show the rate, with the ceiling marked when known; when every step ran the same size but they
/// count different work (one pass over the data against two), they show speed instead (times faster
/// than the slowest step), with time and rate as labels, so the fastest step has the longest bar.
void write_ladder_svg(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows);

/// Draws a lesson's roofline as SVG: each step that passed and counted both bytes and operations is a
/// point at its operational intensity (operations per byte) and its operation rate, under the two roofs
/// of the GPU: @p memory_gbs times the intensity (the memory roof), and the steps' compute_ceiling.
void write_roofline_svg(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows,
                        double memory_gbs, const std::string& memory_name);

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
/// heading per column) and one line per row label. @throws UsageError on a line with the wrong number
/// of fields.
struct StudyFigures {
  std::string label_title;                ///< first heading
  std::vector<std::string> columns;       ///< the other headings
  std::vector<std::string> labels;        ///< row labels, in order
  std::vector<std::vector<std::string>> rows;  ///< figures per label, as written
};
/// Parses @p text as StudyFigures; @p name names it in error messages.
StudyFigures parse_study_figures(const std::string& text, const std::string& name);

/// The key of the fastest step that passed in @p row (by median time), or "-" when none passed.
std::string fastest_in_row(const Sweep& sweep, const SweepRow& row);
/// Prints a sweep as a table under @p title: the label, each step's median time in ms (or FAIL, SKIP,
/// ERROR, - when not run), the fastest step, the study's columns; then a legend of the steps.
void print_sweep(std::ostream& out, const std::string& title, const Sweep& sweep);
/// Writes a sweep as CSV: label, then per step its time in ms and verdict, the fastest, the study's.
void write_sweep_csv(std::ostream& out, const Sweep& sweep);
/// Writes a sweep as a JSON array, one object per row with every measurement.
void write_sweep_json(std::ostream& out, const Sweep& sweep);

}  // namespace course
