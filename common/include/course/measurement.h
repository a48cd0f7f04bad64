/// @file measurement.h
/// @brief One measured run of one step (a Measurement): what it did, how long it took, its rate against
/// the ceiling, its check; and the step's report of it in text, CSV or JSON.
#pragma once

#include <iosfwd>
#include <string>

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

/// Prints @p m in @p format: a short human report (size, launch, time, rate against the ceiling,
/// check), a CSV header and row (csv.h), or a JSON object (json.h).
void print_measurement(std::ostream& out, const Measurement& m, OutputFormat format);

/// Reports a GPU step that cannot run for want of a CUDA device: one line on standard error
/// ("<program>: skipped: no CUDA device (<why>)"), then @p m marked SKIP in @p format on standard
/// output, so the runner still learns the step's name. Returns kExitSkipped.
int report_skipped(const std::string& program, Measurement m, const std::string& why, OutputFormat format);

}  // namespace course
