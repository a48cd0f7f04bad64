/// @file cli.h
/// @brief The command line every course program shares: declared options with defaults, --help, strict
/// parsing (one clear error per bad argument), and the options common to all steps.
///
/// Options are written `--name value` or `--name=value`. Sizes are positive whole numbers, written in
/// decimal (`40960000`) or as a power of two (`2^28`). Anything unknown, missing, malformed, zero or out
/// of range throws course::UsageError with a one-line message that names the option.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "course/timing.h"

namespace course {

/// How a program prints its result.
enum class OutputFormat {
  Text,  ///< human-readable lines (default)
  Csv,   ///< a CSV header and one row
  Json,  ///< one JSON object
};

/// The options every step program accepts, after parsing.
struct CommonOptions {
  std::uint64_t seed = 1;          ///< --seed: input data generator seed
  TimingOptions timing;            ///< --reps, --warmup
  OutputFormat format = OutputFormat::Text;  ///< --csv / --json
  std::string input;               ///< --input FILE: read the input from a course binary file
  std::string output;              ///< --output FILE: write the result to a course binary file
  double copy_bandwidth_gbs = 0;   ///< --copy-bandwidth: the ceiling measured elsewhere (0: measure it)
  double read_bandwidth_gbs = 0;   ///< --read-bandwidth: the read-only ceiling measured elsewhere (0: measure it)
};

/// Parses a size: a positive whole number in decimal or written 2^k, between @p min and @p max.
/// @param text   the argument as typed
/// @param option the option's name, for the error message
/// @param min    smallest value accepted
/// @param max    largest value accepted
/// @throws UsageError for anything else
std::size_t parse_size(const std::string& text, const std::string& option, std::size_t min = 1,
                       std::size_t max = SIZE_MAX);

/// Parses a whole number (sign allowed) between @p min and @p max.
/// @throws UsageError for anything else
long long parse_integer(const std::string& text, const std::string& option, long long min, long long max);

/// Parses a non-negative decimal number (e.g. a bandwidth in GB/s).
/// @throws UsageError for anything else
double parse_number(const std::string& text, const std::string& option);

/// The index of @p text among @p names, the values an option takes.
/// @throws UsageError in one line that lists them: "--op: 'avg' is not one of sum, max, min, product"
std::size_t choose(const std::string& text, const std::string& option, const std::vector<std::string>& names);

/// A declared set of options and, after parse(), their values. CLI11 does the parsing and the --help
/// layout behind this class; its headers stay in cli.cpp, as this header is compiled by nvcc in every step.
class CommandLine {
 public:
  /// @param program name shown in --help and error messages
  /// @param summary one-line description shown by --help
  CommandLine(std::string program, std::string summary);
  ~CommandLine();  ///< out of line, where the parser's type is complete

  /// Declares a size option (see parse_size()).
  CommandLine& add_size(const std::string& name, std::size_t default_value, const std::string& help,
                        std::size_t min = 1, std::size_t max = SIZE_MAX);
  /// Declares a whole-number option.
  CommandLine& add_integer(const std::string& name, long long default_value, const std::string& help,
                           long long min, long long max);
  /// Declares an option that takes text (a file name, a name from a list).
  /// @p placeholder names the value in --help ("FILE", "GB/S", ...).
  CommandLine& add_text(const std::string& name, const std::string& default_value,
                        const std::string& help, const std::string& placeholder = "TEXT");
  /// Declares an option that takes one of @p names (@p default_value among them); anything else is
  /// refused as it is read, by choose()'s line. choice() gives the index of the one given in @p names.
  CommandLine& add_choice(const std::string& name, const std::string& default_value, std::vector<std::string> names,
                          const std::string& help, const std::string& placeholder = "NAME");
  /// Declares a whole-number option that takes one of @p values or @p default_value (such as 0 for "the
  /// step's choice"); anything else is refused in one line that lists @p values.
  CommandLine& add_integer_choice(const std::string& name, long long default_value,
                                  const std::vector<long long>& values, const std::string& help);
  /// Declares a switch that takes no value.
  CommandLine& add_flag(const std::string& name, const std::string& help);
  /// Declares --seed, --reps, --warmup, --csv, --json, --input, --output, --copy-bandwidth,
  /// --read-bandwidth and --shrink, with @p default_reps timed repetitions after @p default_warmup
  /// untimed ones. `--shrink k` halves every size option k times (never below its minimum), which the
  /// runner uses when a table's size does not fit the GPU.
  CommandLine& add_common_options(int default_reps = 20, int default_warmup = 3);
  /// Declares --cpu-threads, for a step that runs on every core with OpenMP: how many threads it uses
  /// (0, the default: every core). Pass its value to set_cpu_threads() (course/device.h).
  CommandLine& add_cpu_threads_option();

  /// Parses the arguments (argv[0] is skipped).
  /// @return false when --help was given: the help text went to @p help_out and the caller should exit 0
  /// @throws UsageError on any bad argument
  bool parse(int argc, const char* const* argv, std::ostream& help_out);
  /// parse() writing help to standard output.
  bool parse(int argc, const char* const* argv);

  std::size_t size(const std::string& name) const;        ///< value of a size option (after --shrink)
  long long integer(const std::string& name) const;       ///< value of a whole-number option
  const std::string& text(const std::string& name) const; ///< value of a text or choice option
  std::size_t choice(const std::string& name) const;      ///< index of a choice option's value in its names
  bool flag(const std::string& name) const;               ///< whether a switch was given
  bool given(const std::string& name) const;              ///< whether the option appeared at all
  CommonOptions common() const;                           ///< the options of add_common_options()
  const std::string& program() const { return program_; } ///< the program's name
  std::string help() const;                               ///< the --help text

 private:
  struct Parser;  // the CLI11 application and the declared options, in cli.cpp
  std::unique_ptr<Parser> parser_;
  std::string program_;
};

}  // namespace course
