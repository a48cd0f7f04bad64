#include "course/cli.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>

#include "course/errors.h"

namespace course {

namespace {
bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Decimal digits to an unsigned value; false on overflow.
bool to_unsigned(const std::string& digits, unsigned long long& value) {
  value = 0;
  for (char c : digits) {
    unsigned d = static_cast<unsigned>(c - '0');
    if (value > (std::numeric_limits<unsigned long long>::max() - d) / 10) return false;
    value = value * 10 + d;
  }
  return true;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }
}  // namespace

std::size_t parse_size(const std::string& text, const std::string& option, std::size_t min, std::size_t max) {
  const std::string name = "--" + option;
  unsigned long long value = 0;
  auto caret = text.find('^');
  if (caret != std::string::npos) {
    std::string base = text.substr(0, caret), exponent = text.substr(caret + 1);
    unsigned long long e = 0;
    if (base != "2" || !all_digits(exponent) || !to_unsigned(exponent, e))
      throw UsageError(name + ": " + quoted(text) + " is not a size (write a whole number or 2^k)");
    if (e >= 64) throw UsageError(name + ": " + text + " is too large (at most " + std::to_string(max) + ")");
    value = 1ull << e;
  } else {
    if (!all_digits(text))
      throw UsageError(name + ": " + quoted(text) + " is not a positive whole number");
    if (!to_unsigned(text, value))
      throw UsageError(name + ": " + text + " is too large (at most " + std::to_string(max) + ")");
  }
  if (value < min) throw UsageError(name + ": " + text + " is too small (at least " + std::to_string(min) + ")");
  if (value > max) throw UsageError(name + ": " + text + " is too large (at most " + std::to_string(max) + ")");
  return static_cast<std::size_t>(value);
}

long long parse_integer(const std::string& text, const std::string& option, long long min, long long max) {
  const std::string name = "--" + option;
  std::string digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits = digits.substr(1);
  }
  unsigned long long magnitude = 0;
  if (!all_digits(digits)) throw UsageError(name + ": " + quoted(text) + " is not a whole number");
  // The magnitude of the most negative value, 2^63, is one more than the largest positive one.
  const unsigned long long limit = negative ? 9223372036854775808ull : 9223372036854775807ull;
  if (!to_unsigned(digits, magnitude) || magnitude > limit)
    throw UsageError(name + ": " + text + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  long long value = !negative ? static_cast<long long>(magnitude)
                    : magnitude == limit ? std::numeric_limits<long long>::min()
                                         : -static_cast<long long>(magnitude);
  if (value < min || value > max)
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

CommandLine::CommandLine(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

CommandLine::Option& CommandLine::declare(const std::string& name, Kind kind, const std::string& help,
                                          std::string default_text) {
  if (options_.count(name)) throw std::logic_error("option --" + name + " declared twice");
  order_.push_back(name);
  Option& o = options_[name];
  o.kind = kind;
  o.help = help;
  o.default_text = default_text;
  o.value = std::move(default_text);
  return o;
}

CommandLine& CommandLine::add_size(const std::string& name, std::size_t default_value, const std::string& help,
                                   std::size_t min, std::size_t max) {
  Option& o = declare(name, Kind::Size, help, std::to_string(default_value));
  o.min_size = min;
  o.max_size = max;
  return *this;
}

CommandLine& CommandLine::add_integer(const std::string& name, long long default_value, const std::string& help,
                                      long long min, long long max) {
  Option& o = declare(name, Kind::Integer, help, std::to_string(default_value));
  o.min_int = min;
  o.max_int = max;
  return *this;
}

CommandLine& CommandLine::add_text(const std::string& name, const std::string& default_value,
                                   const std::string& help, const std::string& placeholder) {
  declare(name, Kind::Text, help, default_value).placeholder = placeholder;
  return *this;
}

CommandLine& CommandLine::add_flag(const std::string& name, const std::string& help) {
  declare(name, Kind::Flag, help, "");
  return *this;
}

CommandLine& CommandLine::add_cpu_threads_option() {
  add_integer("cpu-threads", 0, "threads of this OpenMP step (0: every core; 1: one core, its vector instructions alone)",
              0, 4096);
  return *this;
}

CommandLine& CommandLine::add_common_options(int default_reps) {
  add_integer("seed", 1, "seed of the input data generator", 0, std::numeric_limits<long long>::max());
  add_integer("reps", default_reps, "timed repetitions (the median is reported)", 1, 100000);
  add_integer("warmup", 3, "untimed runs before timing", 0, 1000);
  add_flag("csv", "print a CSV header and one row instead of text");
  add_flag("json", "print one JSON object instead of text");
  add_text("input", "", "read the input from this course binary file instead of generating it", "FILE");
  add_text("output", "", "write the result to this course binary file", "FILE");
  add_text("copy-bandwidth", "", "copy-bandwidth ceiling in GB/s measured beforehand (default: measure it)",
           "GB/S");
  add_text("read-bandwidth", "", "read-only bandwidth ceiling in GB/s measured beforehand (default: measure it)",
           "GB/S");
  add_integer("shrink", 0, "halve every size this many times (the runner's answer to a GPU too small)", 0, 40);
  return *this;
}

bool CommandLine::parse(int argc, const char* const* argv) { return parse(argc, argv, std::cout); }

bool CommandLine::parse(int argc, const char* const* argv, std::ostream& help_out) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      help_out << help();
      return false;
    }
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0)
      throw UsageError("unexpected argument " + quoted(arg) + " (options start with --; see --help)");
    std::string name = arg.substr(2), value;
    bool inline_value = false;
    auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inline_value = true;
    }
    auto it = options_.find(name);
    if (it == options_.end()) throw UsageError("unknown option --" + name + " (see --help)");
    Option& o = it->second;
    if (o.kind == Kind::Flag) {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      o.given = true;
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
      value = argv[++i];
    }
    // Validate now so the error points at the argument as typed.
    if (o.kind == Kind::Size) parse_size(value, name, o.min_size, o.max_size);
    if (o.kind == Kind::Integer) parse_integer(value, name, o.min_int, o.max_int);
    if (o.kind == Kind::Text && value.empty()) throw UsageError("--" + name + " needs a non-empty value");
    o.value = value;
    o.given = true;
  }
  if (flag_or_false("csv") && flag_or_false("json")) throw UsageError("--csv and --json cannot be combined");
  if (given("copy-bandwidth")) parse_number(text("copy-bandwidth"), "copy-bandwidth");
  if (given("read-bandwidth")) parse_number(text("read-bandwidth"), "read-bandwidth");
  return true;
}

bool CommandLine::flag_or_false(const std::string& name) const {
  auto it = options_.find(name);
  return it != options_.end() && it->second.kind == Kind::Flag && it->second.given;
}

const CommandLine::Option& CommandLine::find(const std::string& name, Kind kind) const {
  auto it = options_.find(name);
  if (it == options_.end() || it->second.kind != kind)
    throw std::logic_error("option --" + name + " was not declared with this type");
  return it->second;
}

std::size_t CommandLine::size(const std::string& name) const {
  const Option& o = find(name, Kind::Size);
  std::size_t value = parse_size(o.value, name, o.min_size, o.max_size);
  // --shrink k halves every size k times (never below the option's minimum): the runner's way of
  // fitting a table's size into a GPU with less memory than the size needs.
  auto shrink = options_.find("shrink");
  if (shrink != options_.end() && shrink->second.kind == Kind::Integer) {
    const long long k = parse_integer(shrink->second.value, "shrink", 0, 40);
    value = k >= 64 ? 0 : value >> k;
    if (value < o.min_size) value = o.min_size;
  }
  return value;
}

long long CommandLine::integer(const std::string& name) const {
  const Option& o = find(name, Kind::Integer);
  return parse_integer(o.value, name, o.min_int, o.max_int);
}

const std::string& CommandLine::text(const std::string& name) const { return find(name, Kind::Text).value; }

bool CommandLine::flag(const std::string& name) const { return find(name, Kind::Flag).given; }

bool CommandLine::given(const std::string& name) const {
  auto it = options_.find(name);
  return it != options_.end() && it->second.given;
}

CommonOptions CommandLine::common() const {
  CommonOptions c;
  c.seed = static_cast<std::uint64_t>(integer("seed"));
  c.timing.reps = static_cast<int>(integer("reps"));
  c.timing.warmup = static_cast<int>(integer("warmup"));
  c.format = flag("csv") ? OutputFormat::Csv : (flag("json") ? OutputFormat::Json : OutputFormat::Text);
  c.input = text("input");
  c.output = text("output");
  if (!text("copy-bandwidth").empty()) c.copy_bandwidth_gbs = parse_number(text("copy-bandwidth"), "copy-bandwidth");
  if (!text("read-bandwidth").empty()) c.read_bandwidth_gbs = parse_number(text("read-bandwidth"), "read-bandwidth");
  return c;
}

std::string CommandLine::help() const {
  std::ostringstream out;
  out << "usage: " << program_ << " [options]\n" << summary_ << "\n\noptions:\n";
  for (const std::string& name : order_) {
    const Option& o = options_.at(name);
    std::string left = "  --" + name;
    if (o.kind == Kind::Size) left += " N";
    if (o.kind == Kind::Integer) left += " N";
    if (o.kind == Kind::Text) left += " " + o.placeholder;
    out << left;
    out << std::string(left.size() < 26 ? 26 - left.size() : 1, ' ') << o.help;
    if (o.kind != Kind::Flag && !o.default_text.empty()) out << " (default " << o.default_text << ")";
    out << "\n";
  }
  out << "  --help                  show this text\n";
  out << "\nsizes are whole numbers, written in decimal or as 2^k. exit codes: 0 PASS, 1 FAIL, 2 bad input,\n"
         "3 CUDA or runtime error, 77 skipped (no CUDA device).\n";
  return out.str();
}

}  // namespace course
