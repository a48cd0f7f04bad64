// course_check_figures: keeps the course's pages true to its measurements.
//
//   course_check_figures --root DIR
//
// 1. Every measured figure in the prose of a lesson's README (lessons/NN-*/README.md) must come from
//    that lesson's committed tables: the runner's CSV files docs/results/lessonNN-*.csv (and h200/),
//    its text runs there, and the lesson's own study tables (lessons/NN-*/*.csv). A figure is a time
//    (0.274 ms, 109 us, 2.7 s), a rate (2661 GB/s, 41.2 TFLOP/s), a percentage (90.6%) or a ratio
//    (1.37x, 14.6 times). It must be, at the precision it is printed with,
//      - one of the tables' values (a time in another unit of time, a rate in another unit of rate), or
//      - the ratio of two values of one table, in one column or in one row (1.35 times = 0.2744 / 0.2029),
//        or that ratio as a percentage: 100 a/b, 100 (a/b - 1) or 100 (1 - a/b).
//    Code blocks (the runner's tables, pasted) and `inline code` are not prose. A figure that is no
//    measurement (a datasheet's number, the arithmetic of a bound) is marked by an HTML comment right
//    after it, `3.35 TB/s<!-- datasheet -->`, which the pages do not show; the marks are few.
// 2. No comment of a lesson's step files (lessons/NN-*/NN_*) quotes a measured time, rate, percentage
//    or ratio (1.04x, 2.07 times): those belong in the README and the tables, where this check keeps
//    them true. A comment may point to the table, or show the arithmetic of a bound or a count, with
//    `(bound)` on its line.
// Each figure that fails is one line, FILE:LINE: ..., and the exit code is 1; 0 when every figure holds.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/program.h"

namespace fs = std::filesystem;

namespace {

const char* const kProgram = "course_check_figures";

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every number written in @p text ("355,604" is one number; "long_scoreboard 25" holds one).
std::vector<double> numbers_in(const std::string& text) {
  static const std::regex number(R"((^|[^\w.])(-?\d{1,3}(?:,\d{3})+|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?))");
  std::vector<double> found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it) {
    std::string digits = (*it)[2];
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    found.push_back(std::stod(digits));
  }
  return found;
}

// --- one lesson's measurements ---------------------------------------------------------------------
// The values of its tables, and the ratios of two values of one table in one column or one row (both
// ways round), each sorted for a search by interval.
struct Measurements {
  std::vector<double> values, ratios;

  void add_table(const std::vector<std::vector<std::vector<double>>>& cells) {  // rows of cells of numbers
    std::map<std::size_t, std::vector<double>> columns;
    for (const auto& row : cells) {
      std::vector<double> in_row;
      for (std::size_t c = 0; c < row.size(); ++c)
        for (double v : row[c]) {
          values.push_back(v);
          in_row.push_back(v);
          columns[c].push_back(v);
        }
      add_ratios(in_row);
    }
    for (auto& [c, column] : columns) add_ratios(column);
  }
  void add_ratios(const std::vector<double>& group) {
    for (double a : group)
      for (double b : group)
        if (a != 0 && b != 0 && &a != &b) ratios.push_back(a / b);
  }
  void sort() {
    std::sort(values.begin(), values.end());
    std::sort(ratios.begin(), ratios.end());
  }
  static bool any_in(const std::vector<double>& sorted, double low, double high) {
    if (low > high) std::swap(low, high);
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), low);
    return it != sorted.end() && *it <= high;
  }
};

// A CSV file as rows of cells of numbers (header and comment lines have none that count).
std::vector<std::vector<std::vector<double>>> csv_numbers(const fs::path& path) {
  std::vector<std::vector<std::vector<double>>> rows;
  for (const std::string& line : course::content_lines_of(read_text(path))) {
    std::vector<std::vector<double>> row;
    for (const std::string& cell : course::fields_of(line)) row.push_back(numbers_in(cell));
    rows.push_back(row);
  }
  return rows;
}

// A runner's printed run (a text file): each line a row of whitespace-separated cells.
std::vector<std::vector<std::vector<double>>> text_numbers(const fs::path& path) {
  std::vector<std::vector<std::vector<double>>> rows;
  for (const std::string& line : course::lines_of(read_text(path))) {
    std::vector<std::vector<double>> row;
    std::istringstream words(line);
    for (std::string word; words >> word;) row.push_back(numbers_in(word));
    rows.push_back(row);
  }
  return rows;
}

Measurements measurements_of(const fs::path& root, const std::string& lesson, const fs::path& lesson_folder,
                             std::vector<std::string>& sources) {
  Measurements m;
  std::vector<fs::path> files;
  for (const fs::path& folder : {root / "docs" / "results", root / "docs" / "results" / "h200"}) {
    if (!fs::is_directory(folder)) continue;
    for (const auto& entry : fs::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("lesson" + lesson + "-", 0) == 0 && (entry.path().extension() == ".csv" || entry.path().extension() == ".txt"))
        files.push_back(entry.path());
    }
  }
  for (const auto& entry : fs::directory_iterator(lesson_folder))
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    m.add_table(file.extension() == ".csv" ? csv_numbers(file) : text_numbers(file));
    sources.push_back(fs::relative(file, root).string());
  }
  m.sort();
  return m;
}

// --- the figures of a page ---------------------------------------------------------------------------
enum class Kind { Time, Rate, Percent, Ratio };

struct Figure {
  std::string text;  // as written, with its unit
  double value = 0;
  int decimals = 0;
  Kind kind = Kind::Time;
  double scale = 1;  // the unit's size against the tables' (ms, GB/s): 1000 for us, 0.001 for s
};

// The figures of one line of prose: a number, or two joined by "to" or a dash, then a unit. A figure
// followed at once by an HTML comment is marked as no measurement and left out.
std::vector<Figure> figures_in(const std::string& line) {
  static const std::regex figure(
      R"((^|[^\w.,/^])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*(?:to|-|–)\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?)?)"
      R"((\s?(?:ms|us|µs|ns|s|GB/s|TB/s|MB/s|GFLOP/s|TFLOP/s|Gop/s|Top/s|Gelem/s)(?![\w/])|%|x(?![\w])|\s+times\b))"
      R"((\s*<!--)?)");
  std::vector<Figure> found;
  for (auto it = std::sregex_iterator(line.begin(), line.end(), figure); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (m[7].matched) continue;  // marked: no measurement
    std::string unit = m[6];
    unit.erase(0, unit.find_first_not_of(" \t"));
    Figure f;
    if (unit == "%") {
      f.kind = Kind::Percent;
    } else if (unit == "x" || unit == "times") {
      f.kind = Kind::Ratio;
      if (unit == "times" && !m[3].matched && !m[5].matched) continue;  // "16 times": a count, not a ratio
    } else if (unit.find('/') != std::string::npos) {
      f.kind = Kind::Rate;
      f.scale = unit[0] == 'T' ? 0.001 : unit[0] == 'M' ? 1000 : 1;
    } else {
      f.kind = Kind::Time;
      f.scale = unit == "ms" ? 1 : unit == "s" ? 0.001 : unit == "ns" ? 1e6 : 1000;
    }
    // One figure per number: "0.202 to 0.204 ms" is two.
    for (int part : {2, 4}) {
      if (!m[part].matched) continue;
      std::string digits = m[part];
      digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
      const std::string decimals = m[part + 1];
      Figure one = f;
      one.text = m[part].str() + (decimals.empty() ? "" : "." + decimals) + (unit == "%" || unit == "x" ? "" : " ") + unit;
      one.value = std::stod(digits + (decimals.empty() ? "" : "." + decimals));
      one.decimals = static_cast<int>(decimals.size());
      found.push_back(one);
    }
  }
  return found;
}

// Whether @p f comes from @p m at its printed precision.
bool holds(const Figure& f, const Measurements& m) {
  const double half = 0.5 * std::pow(10.0, -f.decimals) * (1 + 1e-9);
  const double low = f.value - half, high = f.value + half;
  const auto value_in = [&](double lo, double hi) { return Measurements::any_in(m.values, lo, hi); };
  const auto ratio_in = [&](double lo, double hi) { return Measurements::any_in(m.ratios, lo, hi); };
  switch (f.kind) {
    case Kind::Time:
    case Kind::Rate:
      // In its own unit, or in the tables' other units of the same quantity.
      for (double scale : {f.scale, 1.0, 1000.0, 0.001, 1e6})
        if (value_in(low / scale, high / scale)) return true;
      return false;
    case Kind::Ratio:
      return value_in(low, high) || ratio_in(low, high);
    case Kind::Percent:
      return value_in(low, high) || ratio_in(low / 100, high / 100) || ratio_in(1 + low / 100, 1 + high / 100) ||
             ratio_in(1 - high / 100, 1 - low / 100);
  }
  return false;
}

std::string lesson_number(const std::string& folder) {
  return folder.size() > 2 && std::isdigit(static_cast<unsigned char>(folder[0])) && folder[2] == '-' ? folder.substr(0, 2) : "";
}

// The prose lines of a page (outside ``` blocks), `inline code` blanked.
std::vector<std::pair<int, std::string>> prose_of(const std::string& page) {
  std::vector<std::pair<int, std::string>> prose;
  bool in_code = false;
  int number = 0;
  for (std::string line : course::lines_of(page)) {
    ++number;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 3, "```") == 0) {
      in_code = !in_code;
      continue;
    }
    if (in_code) continue;
    for (std::size_t open = line.find('`'); open != std::string::npos; open = line.find('`', open + 1)) {
      const std::size_t close = line.find('`', open + 1);
      if (close == std::string::npos) break;
      line.replace(open, close - open + 1, std::string(close - open + 1, ' '));
      open = close;
    }
    prose.emplace_back(number, line);
  }
  return prose;
}

int check_readmes(const fs::path& root) {
  int failures = 0, checked = 0;
  std::vector<fs::path> lessons;
  for (const auto& entry : fs::directory_iterator(root / "lessons"))
    if (entry.is_directory() && !lesson_number(entry.path().filename().string()).empty()) lessons.push_back(entry.path());
  std::sort(lessons.begin(), lessons.end());
  for (const fs::path& lesson : lessons) {
    const fs::path page = lesson / "README.md";
    if (!fs::exists(page)) continue;
    const std::string number = lesson_number(lesson.filename().string());
    std::vector<std::string> sources;
    const Measurements m = measurements_of(root, number, lesson, sources);
    const std::string where = fs::relative(page, root).string();
    for (const auto& [line_number, line] : prose_of(read_text(page)))
      for (const Figure& f : figures_in(line)) {
        ++checked;
        if (holds(f, m)) continue;
        ++failures;
        std::cout << where << ":" << line_number << ": '" << f.text << "' is none of lesson " << number
                  << "'s measured values, nor a ratio or percentage of two values of one of its tables ("
                  << sources.size() << " tables: docs/results/lesson" << number << "-*, " << fs::relative(lesson, root).string()
                  << "/*.csv); if it is no measurement, mark it: " << f.text << "<!-- why -->\n";
      }
  }
  std::cerr << kProgram << ": " << checked << " figures in the lessons' pages, " << failures << " not from a table\n";
  return failures;
}

// --- the step files' comments ------------------------------------------------------------------------
int check_step_comments(const fs::path& root) {
  static const std::regex measured(
      R"((^|[^\w.])(\d+(?:\.\d+)?)\s?(ms|us|µs|ns|GB/s|TB/s|GFLOP/s|TFLOP/s|Gop/s|G terms/s)(?![\w/])|)"
      R"((^|[^\w.])\d+(?:\.\d+)?\s?%|(^|[^\w.])\d+(?:\.\d+)?x\b|(^|[^\w.])\d+\.\d+ times\b)");
  int failures = 0;
  std::vector<fs::path> files;
  for (const auto& lesson : fs::directory_iterator(root / "lessons")) {
    if (!lesson.is_directory() || lesson_number(lesson.path().filename().string()).empty()) continue;
    for (const auto& entry : fs::directory_iterator(lesson.path())) {
      const std::string name = entry.path().filename().string();
      if (entry.is_regular_file() && name.size() > 3 && std::isdigit(static_cast<unsigned char>(name[0])) &&
          std::isdigit(static_cast<unsigned char>(name[1])) && name[2] == '_')
        files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    int number = 0;
    for (const std::string& line : course::lines_of(read_text(file))) {
      ++number;
      const auto comment = line.find("//");
      if (comment == std::string::npos) continue;
      const std::string text = line.substr(comment);
      if (text.find("(bound)") != std::string::npos) continue;
      std::smatch m;
      if (!std::regex_search(text, m, measured)) continue;
      ++failures;
      std::string figure = m.str();
      figure.erase(0, figure.find_first_not_of(" (,;:"));
      std::cout << fs::relative(file, root).string() << ":" << number << ": a comment quotes a measured figure ('" << figure
                << "'): it belongs in the README and the runner's tables (a comment may point to them, or end a "
                   "bound's arithmetic with '(bound)')\n";
    }
  }
  std::cerr << kProgram << ": " << files.size() << " step files, " << failures << " comments that quote a measurement\n";
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(kProgram, [&] {
    course::CommandLine cli(kProgram, "Checks that every measured figure in a lesson's README comes from its tables, "
                                      "and that no step file's comment quotes one.");
    cli.add_text("root", "", "the course's folder", "DIR");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("root")) throw course::UsageError("--root is required");
    const fs::path root = cli.text("root");
    if (!fs::is_directory(root / "lessons")) throw course::UsageError(root.string() + " has no lessons/ folder");
    const int failures = check_readmes(root) + check_step_comments(root);
    return failures == 0 ? course::kExitPass : course::kExitFail;
  });
}
