#include "course/cli.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <vector>

#include <unistd.h>

#include "course/errors.h"

namespace course {

namespace {
// Reads all of @p text as decimal digits (after a '-' for a signed @p value) with std::from_chars: no
// spaces, '+', "0x" or trailing text (invalid_argument), result_out_of_range where it does not fit.
template <typename T>
std::errc read_decimal(const std::string& text, T& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return end != text.data() + text.size() ? std::errc::invalid_argument : error;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The course's --help layout on CLI11's formatter: the usage line before the summary, each option by its
// long name and placeholder (its option text) with the description, default included, from column 26
// (set by the parser), and the closing lines as the footer.
class HelpLayout : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    return "usage: " + name + " [options]\n" + app->get_description() + "\n" + make_groups(app, mode) + "\n" +
           make_footer(app);
  }
  std::string make_option_name(const CLI::Option* option, bool) const override {
    return "--" + option->get_lnames().front();  // -h,--help is listed as --help
  }
};

enum class Kind { Size, Integer, Text, Flag };

// A declared option: its kind, its CLI11 option, and the value of its kind (CLI11 counts a flag).
struct Option {
  Kind kind = Kind::Flag;
  CLI::Option* cli = nullptr;
  std::size_t size = 0, min_size = 1;
  long long integer = 0;
  std::string text;
  std::vector<std::string> names;  // a choice option's values
  bool given = false;               // read once already: a second --name is refused, not taken silently
};
}  // namespace

std::size_t parse_size(const std::string& text, const std::string& option, std::size_t min, std::size_t max) {
  const std::string name = "--" + option;
  const UsageError too_large(name + ": " + text + " is too large (at most " + std::to_string(max) + ")");
  unsigned long long value = 0;
  const auto caret = text.find('^');
  if (caret != std::string::npos) {
    const std::errc error = read_decimal(text.substr(caret + 1), value);
    if (text.compare(0, caret, "2") != 0 || error == std::errc::invalid_argument)
      throw UsageError(name + ": " + quoted(text) + " is not a size (write a whole number or 2^k)");
    if (error != std::errc() || value >= 64) throw too_large;
    value = 1ull << value;
  } else if (const std::errc error = read_decimal(text, value); error == std::errc::invalid_argument) {
    throw UsageError(name + ": " + quoted(text) + " is not a positive whole number");
  } else if (error != std::errc()) {
    throw too_large;
  }
  if (value < min) throw UsageError(name + ": " + text + " is too small (at least " + std::to_string(min) + ")");
  if (value > max) throw too_large;
  return static_cast<std::size_t>(value);
}

long long parse_integer(const std::string& text, const std::string& option, long long min, long long max) {
  const std::string name = "--" + option;
  long long value = 0;
  // std::from_chars takes a '-' but not a '+'.
  const bool plus = text.size() > 1 && text[0] == '+' && text[1] != '-';
  const std::errc error = read_decimal(plus ? text.substr(1) : text, value);
  if (error == std::errc::invalid_argument) throw UsageError(name + ": " + quoted(text) + " is not a whole number");
  if (error != std::errc() || value < min || value > max)
    throw UsageError(name + ": " + text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return value;
}

double parse_number(const std::string& text, const std::string& option) {
  const std::string name = "--" + option;
  // strtod also reads hexadecimal ("0x10"); only decimal digits, a point and an exponent are meant.
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.') ||
      text.find_first_of("xX") != std::string::npos)
    throw UsageError(name + ": " + quoted(text) + " is not a non-negative number");
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || errno == ERANGE || !std::isfinite(value))
    throw UsageError(name + ": " + quoted(text) + " is not a non-negative number");
  return value;
}

namespace {
// The one line that refuses a value outside an option's list, naming the list.
UsageError not_one_of(const std::string& text, const std::string& option, const std::vector<std::string>& names) {
  std::string listed;
  for (const std::string& name : names) listed += (listed.empty() ? "" : ", ") + name;
  return UsageError("--" + option + ": " + quoted(text) + " is not one of " + listed);
}
}  // namespace

std::size_t choose(const std::string& text, const std::string& option, const std::vector<std::string>& names) {
  const auto found = std::find(names.begin(), names.end(), text);
  if (found == names.end()) throw not_one_of(text, option, names);
  return static_cast<std::size_t>(found - names.begin());
}

namespace {
// Refuses an --output that cannot be written before any work is done: a folder that does not exist or
// cannot be written to, or a path that is a folder.
void require_writable_output(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::is_directory(path, error)) throw UsageError("--output: " + path + " is a folder; name a file in it");
  fs::path folder = fs::path(path).parent_path();
  if (folder.empty()) folder = ".";
  if (!fs::is_directory(folder, error))
    throw UsageError("--output: the folder " + folder.string() + " does not exist");
  if (access(folder.c_str(), W_OK) != 0) throw UsageError("--output: the folder " + folder.string() + " cannot be written to");
}
}  // namespace

// The CLI11 application and the declared options by name.
struct CommandLine::Parser {
  CLI::App app;
  std::map<std::string, Option> options;

  Parser(const std::string& program, const std::string& summary) : app(summary, program) {
    app.formatter(std::make_shared<HelpLayout>());
    app.get_formatter()->column_width(26);
    app.footer("sizes are whole numbers, written in decimal or as 2^k. exit codes: 0 PASS, 1 FAIL, 2 bad input,\n"
               "3 CUDA or runtime error, 77 skipped (no CUDA device).");
    app.option_defaults()->group("options");
    app.allow_extras();  // unknown options and stray words are named by refuse_extras(), in the course's words
    help_last();
  }
  // --help (or -h) is declared again after each option to stay last in the list. Like every option it acts
  // where it is read: a bad argument before it is named, those after it are not looked at.
  void help_last() {
    app.set_help_flag("-h,--help", "show this text")
        ->trigger_on_parse()
        ->each([this](const std::string&) { refuse_extras(); throw CLI::CallForHelp(); });
  }
  // Declares --name, its help ending with the default shown. The word set aside before it, if any, is
  // named when it is read: the first bad argument is the one named, as its own checks come after.
  Option& add(const std::string& name, Kind kind, const std::string& help, const std::string& shown_default,
              const std::string& placeholder) {
    auto [it, added] = options.try_emplace(name);
    if (!added) throw std::logic_error("option --" + name + " declared twice");
    Option& o = it->second;
    o.kind = kind;
    // const, as add_flag() takes a string it may change for the variable to write the flag to
    const std::string described = shown_default.empty() ? help : help + " (default " + shown_default + ")";
    o.cli = kind == Kind::Flag ? app.add_flag("--" + name, described) : app.add_option("--" + name, described);
    o.cli->trigger_on_parse()->option_text(placeholder)->each([this, name, &o](const std::string&) {
      refuse_extras();
      if (o.given) throw UsageError("--" + name + " is given twice (give each option once)");
      o.given = true;
    });
    help_last();
    return o;
  }
  const Option& find(const std::string& name, Kind kind) const {
    auto it = options.find(name);
    if (it == options.end() || it->second.kind != kind)
      throw std::logic_error("option --" + name + " was not declared with this type");
    return it->second;
  }
  // Names the first word CLI11 set aside: an unknown option or a word that is not an option.
  void refuse_extras() const {
    const std::vector<std::string> extras = app.remaining();
    if (extras.empty()) return;
    const std::string& word = extras.front();
    if (word.size() > 2 && word.compare(0, 2, "--") == 0)
      throw UsageError("unknown option " + word.substr(0, word.find('=')) + " (see --help)");
    throw UsageError("unexpected argument " + quoted(word) + " (options start with --; see --help)");
  }
};

CommandLine::CommandLine(std::string program, std::string summary)
    : parser_(std::make_unique<Parser>(program, summary)), program_(std::move(program)) {}

CommandLine::~CommandLine() = default;

// Each option's check reads its value as it is parsed, and throws the course's UsageError itself: CLI11
// would put "--name: " before a message, and would read "010" as octal and "0x10" as hexadecimal.
CommandLine& CommandLine::add_size(const std::string& name, std::size_t default_value, const std::string& help,
                                   std::size_t min, std::size_t max) {
  Option& o = parser_->add(name, Kind::Size, help, std::to_string(default_value), "N");
  o.size = default_value;
  o.min_size = min;
  o.cli->each([=, &o](const std::string& v) { o.size = parse_size(v, name, min, max); });
  return *this;
}

CommandLine& CommandLine::add_integer(const std::string& name, long long default_value, const std::string& help,
                                      long long min, long long max) {
  Option& o = parser_->add(name, Kind::Integer, help, std::to_string(default_value), "N");
  o.integer = default_value;
  o.cli->each([=, &o](const std::string& v) { o.integer = parse_integer(v, name, min, max); });
  return *this;
}

CommandLine& CommandLine::add_text(const std::string& name, const std::string& default_value,
                                   const std::string& help, const std::string& placeholder) {
  Option& o = parser_->add(name, Kind::Text, help, default_value, placeholder);
  o.text = default_value;
  o.cli->each([name, &o](const std::string& v) {
    if (v.empty()) throw UsageError("--" + name + " needs a non-empty value");
    o.text = v;
  });
  return *this;
}

CommandLine& CommandLine::add_choice(const std::string& name, const std::string& default_value,
                                     std::vector<std::string> names, const std::string& help,
                                     const std::string& placeholder) {
  if (std::find(names.begin(), names.end(), default_value) == names.end())
    throw std::logic_error("option --" + name + ": its default is not one of its values");
  add_text(name, default_value, help, placeholder);
  Option& o = parser_->options.at(name);
  o.names = std::move(names);
  o.cli->each([name, &o](const std::string& v) { choose(v, name, o.names); });
  return *this;
}

CommandLine& CommandLine::add_integer_choice(const std::string& name, long long default_value,
                                             const std::vector<long long>& values, const std::string& help) {
  add_integer(name, default_value, help, std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max());
  parser_->options.at(name).cli->each([=](const std::string& v) {
    const long long value = parse_integer(v, name, std::numeric_limits<long long>::min(),
                                          std::numeric_limits<long long>::max());
    if (value == default_value || std::find(values.begin(), values.end(), value) != values.end()) return;
    std::vector<std::string> listed;
    for (long long x : values) listed.push_back(std::to_string(x));
    throw not_one_of(v, name, listed);
  });
  return *this;
}

CommandLine& CommandLine::add_flag(const std::string& name, const std::string& help) {
  parser_->add(name, Kind::Flag, help, "", "");
  return *this;
}

CommandLine& CommandLine::add_cpu_threads_option() {
  add_integer("cpu-threads", 0, "threads of this OpenMP step (0: every core; 1: one core, its vector instructions alone)",
              0, 4096);
  return *this;
}

CommandLine& CommandLine::add_common_options(int default_reps, int default_warmup) {
  add_integer("seed", 1, "seed of the input data generator", 0, std::numeric_limits<long long>::max());
  add_integer("reps", default_reps, "timed repetitions (the median is reported)", 1, 100000);
  add_integer("warmup", default_warmup, "untimed runs before timing", 0, 1000);
  add_flag("csv", "print a CSV header and one row instead of text");
  add_flag("json", "print one JSON object instead of text");
  add_text("input", "", "read the input from this course binary file instead of generating it", "FILE");
  add_text("output", "", "write the result to this course binary file", "FILE");
  add_text("copy-bandwidth", "", "copy-bandwidth ceiling in GB/s measured beforehand (default: measure it)",
           "GB/S");
  add_text("read-bandwidth", "", "read-only bandwidth ceiling in GB/s measured beforehand (default: measure it)",
           "GB/S");
  for (const std::string name : {"copy-bandwidth", "read-bandwidth"})
    parser_->options.at(name).cli->each([name](const std::string& v) { parse_number(v, name); });
  add_integer("shrink", 0, "halve every size this many times (the runner's answer to a GPU too small)", 0, 40);
  return *this;
}

bool CommandLine::parse(int argc, const char* const* argv) { return parse(argc, argv, std::cout); }

bool CommandLine::parse(int argc, const char* const* argv, std::ostream& help_out) {
  // CLI11 2.1.2 reads `--name=` as `--name` and takes the next word as the value, and lets a flag take a
  // value (`--csv=1`); here the first is an empty value and the second an error. The word after an
  // option that needs a value is that value, whatever it looks like (as CLI11 reads it too).
  std::vector<std::string> words;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    const auto eq = word.find('=');
    const std::string name = word.rfind("--", 0) == 0 ? word.substr(2, eq - 2) : "";
    const auto it = parser_->options.find(name);
    const bool flag = name == "help" || (it != parser_->options.end() && it->second.kind == Kind::Flag);
    if (flag && eq != std::string::npos) throw UsageError("--" + name + " takes no value");
    const bool takes_value = it != parser_->options.end() && !flag;
    if (takes_value && (eq + 1 == word.size() || (eq == std::string::npos && i + 1 < argc))) {
      words.push_back("--" + name);
      word = eq == std::string::npos ? argv[++i] : "";
    }
    words.push_back(word);
  }
  std::reverse(words.begin(), words.end());  // CLI11 takes the words last first
  try {
    parser_->app.parse(words);
  } catch (const CLI::CallForHelp&) {
    help_out << help();
    return false;
  } catch (const CLI::ArgumentMismatch&) {
    // CLI11 runs out of words only after an option that needs a value: the last word.
    throw UsageError(std::string(argv[argc - 1]) + " needs a value");
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  parser_->refuse_extras();
  if (given("csv") && given("json")) throw UsageError("--csv and --json cannot be combined");
  return true;
}

std::size_t CommandLine::size(const std::string& name) const {
  const Option& o = parser_->find(name, Kind::Size);
  // --shrink k halves every size k times (never below the option's minimum): the runner's way of
  // fitting a table's size into a GPU with less memory than the size needs.
  const auto shrink = parser_->options.find("shrink");
  const long long k = shrink != parser_->options.end() ? shrink->second.integer : 0;
  return std::max(o.size >> std::min(k, 63LL), o.min_size);
}

long long CommandLine::integer(const std::string& name) const { return parser_->find(name, Kind::Integer).integer; }

const std::string& CommandLine::text(const std::string& name) const { return parser_->find(name, Kind::Text).text; }

std::size_t CommandLine::choice(const std::string& name) const {
  const Option& o = parser_->find(name, Kind::Text);
  if (o.names.empty()) throw std::logic_error("option --" + name + " was not declared with add_choice");
  return choose(o.text, name, o.names);
}

bool CommandLine::flag(const std::string& name) const { return parser_->find(name, Kind::Flag).cli->count() > 0; }

bool CommandLine::given(const std::string& name) const {
  const auto it = parser_->options.find(name);
  return it != parser_->options.end() && it->second.cli->count() > 0;
}

CommonOptions CommandLine::common() const {
  CommonOptions c;
  c.seed = static_cast<std::uint64_t>(integer("seed"));
  c.timing.reps = static_cast<int>(integer("reps"));
  c.timing.warmup = static_cast<int>(integer("warmup"));
  c.format = flag("csv") ? OutputFormat::Csv : (flag("json") ? OutputFormat::Json : OutputFormat::Text);
  c.input = text("input");
  c.output = text("output");
  if (!c.output.empty()) require_writable_output(c.output);
  if (!text("copy-bandwidth").empty()) c.copy_bandwidth_gbs = parse_number(text("copy-bandwidth"), "copy-bandwidth");
  if (!text("read-bandwidth").empty()) c.read_bandwidth_gbs = parse_number(text("read-bandwidth"), "read-bandwidth");
  return c;
}

std::string CommandLine::help() const { return parser_->app.help(); }

}  // namespace course
