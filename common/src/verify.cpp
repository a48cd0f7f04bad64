#include "course/verify.h"

#include <cstdio>

namespace course {

namespace {
std::string number(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", x);
  return text;
}
}  // namespace

std::string Verdict::describe(std::size_t columns) const {
  const bool exact = allowed == 0.0;
  if (pass) {
    return "PASS (" + std::to_string(checked) + (checked == 1 ? " value" : " values") + " checked, " +
           (exact ? std::string("exact") : "within tolerance, worst error " + number(error)) + ")";
  }
  std::string where = columns == 0 ? "[" + std::to_string(worst_index) + "]"
                                   : "[" + std::to_string(worst_index / columns) + "][" +
                                         std::to_string(worst_index % columns) + "]";
  std::string line = "FAIL: " + std::to_string(mismatches) + " of " + std::to_string(checked) +
                     " differ; worst at " + where + ": got " + number(got) + ", expected " + number(expected);
  if (!exact) line += " (|error| " + number(error) + " > tolerance " + number(allowed) + ")";
  return line;
}

}  // namespace course
