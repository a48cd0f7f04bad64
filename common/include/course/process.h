/// @file process.h
/// @brief What the course's tools (the runner, the profiler) need to run other programs: running a
/// command and capturing what it prints, quoting for the shell, finding the folder of the programs,
/// and reading the manifest of lessons that CMake writes there.
#pragma once

#include <string>
#include <vector>

namespace course {

/// What a command printed, and how it ended.
struct CommandOutcome {
  int exit_code = 0;  ///< its exit code, or 128 + the signal that ended it
  std::string out;    ///< standard output
  std::string err;    ///< standard error
};

/// Runs @p command through the shell, capturing standard output and standard error separately.
/// @throws std::runtime_error when it cannot be started
CommandOutcome run_command(const std::string& command);

/// @p text quoted for the shell (single quotes).
std::string shell_quote(const std::string& text);

/// @p arguments ("--n 512 --type float") without the options that @p overriding gives ("--n 1024"):
/// each "--name VALUE" (or "--name=VALUE") whose name @p overriding names is left out, so that the two
/// can be joined with no option given twice (a step program refuses that).
std::string without_options_of(const std::string& arguments, const std::string& overriding);

/// The folder of the running program (build/bin for the course's tools).
std::string directory_of_this_program();

/// The whole content of a file ("" when it cannot be read).
std::string read_text_file(const std::string& path);

/// The first line of @p text ("" for none).
std::string first_line(const std::string& text);

/// One line of build/bin/course_manifest.tsv: which lesson, which table (ladder, sweep, report,
/// profile, ...), which program, and its arguments.
struct ManifestEntry {
  std::string lesson;  ///< "02"
  std::string table;   ///< "ladder", "lesson", "sweep", "profile", ...
  std::string target;  ///< the program ("-" for lines that name none)
  std::string args;    ///< the rest of the line
};

/// Reads the manifest in folder @p bin. @throws UsageError when it is missing ("build the course first").
std::vector<ManifestEntry> read_manifest(const std::string& bin);

/// The step key of a step program: "03" for lesson01_03_gpu_naive, "10b" for lesson05_10b_finish_in_one_launch
/// (the target itself otherwise).
std::string step_key(const std::string& target);

}  // namespace course
