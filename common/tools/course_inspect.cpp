// course_inspect: prints what a course binary file holds: for each array its element type, shape and
// size, and a summary of its values (minimum, maximum, mean, and how many are not finite). Any
// problem with the file (not a course file, truncated, unknown type) is one line and exit code 2.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "course/binary_file.h"
#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"

namespace {

template <class T>
void summarise(const course::Array<T>& a) {
  double low = std::numeric_limits<double>::infinity(), high = -low, sum = 0;
  std::size_t not_finite = 0;
  for (T x : a.values) {
    const double d = static_cast<double>(x);
    if (!std::isfinite(d)) {
      ++not_finite;
      continue;
    }
    low = std::min(low, d);
    high = std::max(high, d);
    sum += d;
  }
  const std::size_t finite = a.values.size() - not_finite;
  std::printf("  min %.9g, max %.9g, mean %.9g", low, high, finite ? sum / finite : 0.0);
  if (std::is_floating_point<T>::value) std::printf(", %zu not finite", not_finite);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("course_inspect", [&]() -> int {
    course::CommandLine cli("course_inspect", "Prints the arrays of a course binary file and a summary of each.");
    cli.add_text("file", "", "the file to inspect (required)", "FILE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("file")) throw course::UsageError("--file FILE is required");
    course::BinaryReader in(cli.text("file"));
    int index = 0;
    while (!in.at_end()) {
      const course::ArrayHeader h = in.read_header();  // checked before any data is read
      std::printf("array %d: %s, %u x %u (%s values, %s bytes)\n", index++, course::element_type_name(h.type), h.rows,
                  h.columns, course::format_count(h.count()).c_str(),
                  course::format_count(h.count() * course::element_size(h.type)).c_str());
      switch (h.type) {
        case course::ElementType::Float32: summarise(in.read_data<float>(h)); break;
        case course::ElementType::Float64: summarise(in.read_data<double>(h)); break;
        case course::ElementType::Int32: summarise(in.read_data<std::int32_t>(h)); break;
        case course::ElementType::UInt32: summarise(in.read_data<std::uint32_t>(h)); break;
        case course::ElementType::Int64: summarise(in.read_data<std::int64_t>(h)); break;
        case course::ElementType::UInt64: summarise(in.read_data<std::uint64_t>(h)); break;
      }
    }
    if (index == 0) throw course::UsageError(cli.text("file") + ": empty file, no arrays");
    return course::kExitPass;
  });
}
