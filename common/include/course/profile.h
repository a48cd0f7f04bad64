/// @file profile.h
/// @brief Hardware counters per step: the catalogue of counters the course shows, the reading of
/// Nsight Compute's CSV output, and the summary of a step's kernels that `./course profile` prints.
///
/// Nsight Compute (`ncu`) replays each kernel of a program several times, reading a few hardware
/// counters each time. The course asks it for the raw metrics behind a short list of counters chosen
/// per lesson (counters()), reads the CSV it prints (parse_ncu_raw_csv()), combines the launches of each
/// kernel (summarise_by_kernel()) and prints one cell per counter (counter_cell()); the table is also
/// written as CSV and JSON (write_counters_csv(), write_counters_json()).
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace course {

/// A counter as the profile tables show it.
struct Counter {
  std::string key;                   ///< its name in a lesson's list, e.g. "sectors_per_load"
  std::string heading;               ///< its column heading, e.g. "sectors/load"
  std::vector<std::string> metrics;  ///< the Nsight Compute metrics it is computed from
  std::string meaning;               ///< one sentence: what it measures and how to read it
};

/// Every counter the course knows, in the order the tables show them. This is the one place where
/// the metric names are listed; `course_profile --counters` prints it.
const std::vector<Counter>& counters();

/// The counter named @p key. @throws UsageError for a name not in counters()
const Counter& counter(const std::string& key);

/// The comma-separated metric list for `ncu --metrics` that the counters @p keys need.
std::string ncu_metric_list(const std::vector<std::string>& keys);

/// One kernel launch as Nsight Compute reported it.
struct KernelLaunch {
  std::string kernel;                     ///< the kernel's full name, as ncu printed it
  std::map<std::string, double> metrics;  ///< every numeric metric of the launch, in base units
};

/// Reads what `ncu --csv --page raw --print-units base` prints: lines before the header (the program's
/// own output, ncu's "==PROF==" lines) are skipped, the units line after the header too; numbers may
/// carry thousands separators. @throws UsageError when there is no header line.
std::vector<KernelLaunch> parse_ncu_raw_csv(const std::string& text);

/// A kernel's short name: "thread_per_row" for "<unnamed>::thread_per_row(const float *, ...)",
/// "fused_rows<16>" for "void <unnamed>::fused_rows<16>(...)", "tiles<Panels>" for
/// "void ns::tiles<ns::Panels>(...)" (qualifiers dropped), "DeviceReduceKernel<...>" when the
/// template arguments are long, and long generated names (a library's) cut to 40 characters.
std::string short_kernel_name(const std::string& full_name);

/// The launches of one kernel, combined: sums (".sum" metrics, times, counts) added up, rates and
/// percentages averaged with each launch weighted by its duration, registers per thread the largest.
struct KernelSummary {
  std::string kernel;                     ///< short name
  int launches = 0;                       ///< how many launches were combined
  std::map<std::string, double> metrics;  ///< combined metrics
};

/// Combines @p launches by short kernel name, in order of first appearance, leaving out the kernels
/// named in @p ignore (short names, e.g. the course's own L2-flushing kernel).
std::vector<KernelSummary> summarise_by_kernel(const std::vector<KernelLaunch>& launches,
                                               const std::vector<std::string>& ignore);

/// The text of counter @p key for kernel @p k: "-" when a metric it needs is missing. @p elements is
/// the problem's element count, for the per-element counters.
std::string counter_cell(const std::string& key, const KernelSummary& k, double elements);

/// The element count of a profile whose programs get @p more_arguments after the lesson's own
/// @p own_arguments, whose count is @p own_elements: the same where the extra arguments leave the
/// lesson's own untouched (`--type double`), and 0, unknown, where they replace one of them (`--n 4096`
/// for `--n 512`): the lesson gives one count, for its own size, and a per-element counter must not
/// divide by it at another.
double elements_with(const std::string& own_arguments, double own_elements, const std::string& more_arguments);

/// One row of a counters table: one kernel of one profiled program.
struct CounterRow {
  std::string step;                ///< the step's number ("05"), or which side of an exercise it is
  std::string program;             ///< the program profiled
  std::string kernel;              ///< the kernel's short name
  int launches = 0;                ///< how many launches were combined
  std::vector<std::string> cells;  ///< one per counter, in the order of the keys, as counter_cell() writes them
};

/// Writes a counters table as CSV: step, program, kernel, launches, then a column per counter @p keys
/// (kernel names and cells always in double quotes).
void write_counters_csv(std::ostream& out, const std::vector<std::string>& keys, const std::vector<CounterRow>& rows);
/// Writes a counters table as a JSON array, one object per row and line; the counters' cells are text.
void write_counters_json(std::ostream& out, const std::vector<std::string>& keys, const std::vector<CounterRow>& rows);

/// True when ncu's output says the user may not read the GPU's performance counters (ERR_NVGPUCTRPERM).
bool ncu_permission_denied(const std::string& output);

}  // namespace course
