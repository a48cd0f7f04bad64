/// @file delimited_text.h
/// @brief The course's one reader of delimited text (CSV, the build's tab-separated manifest, the
/// '|'-separated parts of a manifest line, Nsight Compute's CSV): the lines of a text and the fields
/// of a line, with a chosen separator and quoting rules; and the quoting of a field for writing.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace course {

/// How the fields of a line are separated and quoted.
struct FieldRules {
  char separator = ',';  ///< the character between two fields
  bool quotes = true;    ///< double quotes enclose a field that holds the separator; two double quotes
                         ///< inside one stand for one, and carriage returns outside quotes are dropped
};

/// Comma-separated values with double quotes (CSV files, Nsight Compute's output).
constexpr FieldRules kCommaSeparated{',', true};
/// Tab-separated values without quotes (the manifest CMake writes).
constexpr FieldRules kTabSeparated{'\t', false};

/// The lines of @p text without their line ends ("\n" or "\r\n"); a last line without a line end counts.
std::vector<std::string> lines_of(const std::string& text);

/// The words of @p text: what lies between spaces, tabs and line ends.
std::vector<std::string> words_of(const std::string& text);

/// The lines of @p text that hold something: neither empty nor comments (a first character '#').
std::vector<std::string> content_lines_of(const std::string& text);

/// The fields of one @p line under @p rules. With @p at_most above 0 the line is cut into at most that
/// many fields, the last of which keeps the rest of the line, separators and all. An empty line is one
/// empty field.
std::vector<std::string> fields_of(const std::string& line, FieldRules rules = kCommaSeparated,
                                   std::size_t at_most = 0);

/// Whether a written field is quoted: only when it must be (it holds a separator, a quote or a line
/// end), or always.
enum class Quoting { WhereNeeded, Always };

/// @p text as one CSV field that fields_of() reads back: in double quotes (inner ones doubled) as
/// @p quoting asks; a line end inside becomes a space, so a row stays one line.
std::string csv_field(const std::string& text, Quoting quoting = Quoting::WhereNeeded);

}  // namespace course
