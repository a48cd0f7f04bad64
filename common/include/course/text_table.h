/// @file text_table.h
/// @brief Numbers as the course's tables show them, and the plain text table they are shown in.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace course {

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
  /// @throws std::invalid_argument when it does not
  void add_row(std::vector<std::string> cells);
  /// Prints the table with a rule under the header.
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace course
