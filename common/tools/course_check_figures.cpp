// course_check_figures: keeps the course's pages true to its measurements.
//
//   course_check_figures --root DIR
//
// 1. Every measured figure in the prose of a lesson's README (lessons/NN-*/README.md) must come from
//    that lesson's committed tables: the runner's CSV files docs/results/lessonNN-*.csv (and h100/, h200/),
//    its text runs there, and the lesson's own study tables (lessons/NN-*/*.csv). A figure is a time
//    (0.274 ms, 109 us, 2.7 s, and both of "0.2744 against 0.2029 ms"), a rate (2661 GB/s, 41.2
//    TFLOP/s), a percentage (90.6%) or a ratio (1.37x, 14.6 times). At the precision it is printed with,
//      - a time or a rate must be one of the tables' values (in its unit or another of the same quantity);
//      - a ratio or a percentage must be one the tables print as such (a ladder's 1.16x or 77.8%: a cell
//        written with x or %, or a column named speedup or percent), or the ratio of two numbers of its
//        own paragraph (1.35 times, 0.2744 against 0.2029 ms); a percentage may also be a ratio of
//        either kind as 100 a/b, 100 (a/b - 1) or 100 (1 - a/b). The paragraph must show what a ratio is made of: the tables hold
//        so many values that some pair of them gives almost any ratio.
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

// A sorted list of numbers, searched by interval.
bool any_in(const std::vector<double>& sorted, double low, double high) {
  if (low > high) std::swap(low, high);
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), low);
  return it != sorted.end() && *it <= high;
}

// --- one lesson's measurements ---------------------------------------------------------------------
// The values of its tables, and those the tables print as ratios or percentages, each sorted.
struct Measurements {
  std::vector<double> values, ratios, percents;

  void sort() {
    for (auto* list : {&values, &ratios, &percents}) std::sort(list->begin(), list->end());
  }
};

// A CSV file's numbers; a column whose header names a speed-up or a percentage (percent, pct, a hit
// rate, occupancy, a pipe's busy time) holds ratios or percentages (the header's line has no number
// that counts).
void add_csv(const fs::path& path, Measurements& m) {
  std::vector<std::string> header;
  for (const std::string& line : course::content_lines_of(read_text(path))) {
    const std::vector<std::string> cells = course::fields_of(line);
    if (header.empty()) header = cells;
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (double v : numbers_in(cells[c])) {
        m.values.push_back(v);
        const std::string name = c < header.size() ? header[c] : "";
        if (name.find("speedup") != std::string::npos) m.ratios.push_back(v);
        for (const char* percent : {"percent", "pct", "hit", "occupancy", "pipe"})
          if (name.find(percent) != std::string::npos) m.percents.push_back(v);
      }
  }
}

// A runner's printed run (a text file): a cell written as 1.16x is a ratio, as 77.8% a percentage.
void add_text(const fs::path& path, Measurements& m) {
  std::istringstream words(read_text(path));
  for (std::string word; words >> word;)
    for (double v : numbers_in(word)) {
      m.values.push_back(v);
      if (word.back() == 'x') m.ratios.push_back(v);
      if (word.back() == '%') m.percents.push_back(v);
    }
}

Measurements measurements_of(const fs::path& root, const std::string& lesson, const fs::path& lesson_folder,
                             std::vector<std::string>& sources) {
  Measurements m;
  std::vector<fs::path> files;
  for (const fs::path& folder :
       {root / "docs" / "results", root / "docs" / "results" / "h100", root / "docs" / "results" / "h200"}) {
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
    if (file.extension() == ".csv")
      add_csv(file, m);
    else
      add_text(file, m);
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

// The figures of one line of prose: a number, or two joined by "to", "against" or a dash, then a unit.
// A figure followed at once by an HTML comment is marked as no measurement and left out.
std::vector<Figure> figures_in(const std::string& line) {
  static const std::regex figure(
      R"((^|[^\w.,/^])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*(?:to|against|-|–)\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?)?)"
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

// The numbers of a paragraph that a ratio may be made of: those written with a decimal point and the
// whole numbers from 100 up (times, rates, counts), but not the ratios and percentages themselves,
// shapes (4096 x 65536) or small whole numbers (step 08, groups of 8), whose ratios would match too
// much.
std::vector<double> operands_in(std::string text) {
  static const std::regex derived(R"(\d+(?:\.\d+)?(?:x(?![\w])|%|\s+times\b))");
  static const std::regex shape(R"(\d[\d,]*\s+x\s+\d[\d,]*)");
  text = std::regex_replace(text, shape, " ");
  text = std::regex_replace(text, derived, " ");
  std::vector<double> operands;
  for (double v : numbers_in(text))
    if (v != std::floor(v) || v >= 100) operands.push_back(v);
  return operands;
}

// The ratios of every two numbers of a paragraph, sorted.
std::vector<double> ratios_of(const std::vector<double>& numbers) {
  std::vector<double> ratios;
  for (std::size_t a = 0; a < numbers.size(); ++a)
    for (std::size_t b = 0; b < numbers.size(); ++b)
      if (a != b && numbers[a] != 0 && numbers[b] != 0) ratios.push_back(numbers[a] / numbers[b]);
  std::sort(ratios.begin(), ratios.end());
  return ratios;
}

// Whether @p f comes from @p m, or (a ratio or percentage) from the ratios of its paragraph's numbers,
// at its printed precision.
bool holds(const Figure& f, const Measurements& m, const std::vector<double>& paragraph_ratios) {
  const double half = 0.5 * std::pow(10.0, -f.decimals) * (1 + 1e-9);
  const double low = f.value - half, high = f.value + half;
  const auto ratio_in = [&](double lo, double hi) { return any_in(paragraph_ratios, lo, hi); };
  switch (f.kind) {
    case Kind::Time:
    case Kind::Rate:
      // In its own unit, or in the tables' other units of the same quantity.
      for (double scale : {f.scale, 1.0, 1000.0, 0.001, 1e6})
        if (any_in(m.values, low / scale, high / scale)) return true;
      return false;
    case Kind::Ratio:
      return any_in(m.ratios, low, high) || ratio_in(low, high);
    case Kind::Percent: {  // printed as such, or a ratio (printed, or of the paragraph) as a percentage
      const auto as_percent = [&](const auto& in) {
        return in(low / 100, high / 100) || in(1 + low / 100, 1 + high / 100) || in(1 - high / 100, 1 - low / 100);
      };
      return any_in(m.percents, low, high) || as_percent(ratio_in) ||
             as_percent([&](double lo, double hi) { return any_in(m.ratios, lo, hi); });
    }
  }
  return false;
}

std::string lesson_number(const std::string& folder) {
  return folder.size() > 2 && std::isdigit(static_cast<unsigned char>(folder[0])) && folder[2] == '-' ? folder.substr(0, 2) : "";
}

// A paragraph of prose: its lines, numbered as in the page.
using Paragraph = std::vector<std::pair<int, std::string>>;

// The paragraphs of a page's prose (outside ``` blocks, which end a paragraph as a blank line does),
// `inline code` blanked.
std::vector<Paragraph> prose_of(const std::string& page) {
  std::vector<Paragraph> prose(1);
  bool in_code = false;
  int number = 0;
  for (std::string line : course::lines_of(page)) {
    ++number;
    const auto first = line.find_first_not_of(" \t");
    const bool fence = first != std::string::npos && line.compare(first, 3, "```") == 0;
    if (fence || first == std::string::npos) {
      if (!prose.back().empty()) prose.emplace_back();
      if (fence) in_code = !in_code;
      continue;
    }
    if (in_code) continue;
    for (std::size_t open = line.find('`'); open != std::string::npos; open = line.find('`', open + 1)) {
      const std::size_t close = line.find('`', open + 1);
      if (close == std::string::npos) break;
      line.replace(open, close - open + 1, std::string(close - open + 1, ' '));
      open = close;
    }
    prose.back().emplace_back(number, line);
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
    for (const Paragraph& paragraph : prose_of(read_text(page))) {
      std::string text;
      std::vector<std::pair<int, std::vector<Figure>>> figures;  // each line's, read once
      for (const auto& [line_number, line] : paragraph) {
        text += line + "\n";
        figures.emplace_back(line_number, figures_in(line));
      }
      std::vector<double> operands = operands_in(text);
      for (const auto& line : figures)  // every time and rate, in the tables' unit (53.6 s as 53600 ms)
        for (const Figure& f : line.second)
          if (f.kind == Kind::Time || f.kind == Kind::Rate) operands.push_back(f.value / f.scale);
      const std::vector<double> paragraph_ratios = ratios_of(operands);
      for (const auto& [line_number, line_figures] : figures)
        for (const Figure& f : line_figures) {
          ++checked;
          if (holds(f, m, paragraph_ratios)) continue;
          ++failures;
          std::cout << where << ":" << line_number << ": '" << f.text << "' is none of lesson " << number
                    << (f.kind == Kind::Time || f.kind == Kind::Rate
                            ? "'s measured values"
                            : "'s printed ratios or percentages, nor a ratio of two numbers of its paragraph")
                    << " (" << sources.size() << " tables: docs/results/lesson" << number << "-*, "
                    << fs::relative(lesson, root).string() << "/*.csv); if it is no measurement, mark it: " << f.text
                    << "<!-- why -->\n";
        }
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
