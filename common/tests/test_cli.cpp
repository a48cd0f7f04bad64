// Tests of the shared command line: the number parsers, options in both spellings, flags, --help, and
// one clear UsageError for every bad argument.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/errors.h"

using Catch::Matchers::Contains;
using course::UsageError;

namespace {
// argv for @p words, with a program name in front. The pointers refer into @p words, which must outlive
// the result.
std::vector<const char*> argv_of(const std::vector<std::string>& words) {
  std::vector<const char*> argv{"prog"};
  for (const auto& w : words) argv.push_back(w.c_str());
  return argv;
}

// Parses the words on @p cli; help text goes to @p help.
bool parse(course::CommandLine& cli, const std::vector<std::string>& words, std::ostream& help) {
  auto argv = argv_of(words);
  return cli.parse(static_cast<int>(argv.size()), argv.data(), help);
}

// A command line with one option of each kind and the common options, parsed from the words.
struct Parsed {
  course::CommandLine cli{"prog", "A test program."};
  std::ostringstream help;
  bool ran = false;
  explicit Parsed(const std::vector<std::string>& words) {
    cli.add_size("n", 1000, "elements")
        .add_size("tile", 32, "tile width", 16, 64)
        .add_integer("level", 0, "a level", -5, 5)
        .add_text("mode", "auto", "how to run", "MODE")
        .add_flag("fast", "go fast");
    cli.add_common_options(7);
    ran = parse(cli, words, help);
  }
};

constexpr std::size_t kSizeMax = std::numeric_limits<std::size_t>::max();
constexpr long long kLongMin = std::numeric_limits<long long>::min();
constexpr long long kLongMax = std::numeric_limits<long long>::max();
}  // namespace

TEST_CASE("parse_size reads decimal numbers") {
  REQUIRE(course::parse_size("40960000", "n") == 40960000u);
  REQUIRE(course::parse_size("1", "n") == 1u);
  REQUIRE(course::parse_size("007", "n") == 7u);
  REQUIRE(course::parse_size("18446744073709551615", "n") == kSizeMax);
}

TEST_CASE("parse_size reads powers of two") {
  REQUIRE(course::parse_size("2^0", "n") == 1u);
  REQUIRE(course::parse_size("2^10", "n") == 1024u);
  REQUIRE(course::parse_size("2^28", "n") == (std::size_t(1) << 28));
  REQUIRE(course::parse_size("2^63", "n") == (std::size_t(1) << 63));
}

TEST_CASE("parse_size rejects zero") {
  REQUIRE_THROWS_WITH(course::parse_size("0", "n"), Contains("--n") && Contains("too small") && Contains("at least 1"));
  REQUIRE_THROWS_AS(course::parse_size("000", "n"), UsageError);
}

TEST_CASE("parse_size rejects negative and signed numbers") {
  REQUIRE_THROWS_WITH(course::parse_size("-5", "n"), Contains("--n") && Contains("'-5' is not a positive whole number"));
  REQUIRE_THROWS_WITH(course::parse_size("+5", "n"), Contains("not a positive whole number"));
  REQUIRE_THROWS_WITH(course::parse_size("-2^4", "n"), Contains("not a size"));
}

TEST_CASE("parse_size rejects garbage") {
  for (const char* text : {"", "abc", "1.5", "1e6", " 5", "0x10", "four"})
    REQUIRE_THROWS_WITH(course::parse_size(text, "n"), Contains("--n") && Contains("not a positive whole number"));
  for (const char* text : {"3^2", "2^", "^4", "2^x", "2^-1", "2^1.5", "2^^3"})
    REQUIRE_THROWS_WITH(course::parse_size(text, "n"), Contains("--n") && Contains("not a size"));
}

TEST_CASE("parse_size rejects trailing garbage") {
  REQUIRE_THROWS_WITH(course::parse_size("12abc", "n"), Contains("'12abc'"));
  REQUIRE_THROWS_AS(course::parse_size("100 ", "n"), UsageError);
  REQUIRE_THROWS_AS(course::parse_size("2^10k", "n"), UsageError);
}

TEST_CASE("parse_size rejects numbers that overflow") {
  REQUIRE_THROWS_WITH(course::parse_size("18446744073709551616", "n"), Contains("too large"));
  REQUIRE_THROWS_WITH(course::parse_size("99999999999999999999999", "n"), Contains("too large"));
  REQUIRE_THROWS_WITH(course::parse_size("2^64", "n"), Contains("too large"));
  REQUIRE_THROWS_WITH(course::parse_size("2^99999999999999999999", "n"), Contains("--n"));
}

TEST_CASE("parse_size enforces its minimum and maximum") {
  REQUIRE(course::parse_size("16", "tile", 16, 32) == 16u);
  REQUIRE(course::parse_size("32", "tile", 16, 32) == 32u);
  REQUIRE(course::parse_size("2^5", "tile", 16, 32) == 32u);
  REQUIRE_THROWS_WITH(course::parse_size("15", "tile", 16, 32), Contains("--tile") && Contains("at least 16"));
  REQUIRE_THROWS_WITH(course::parse_size("33", "tile", 16, 32), Contains("--tile") && Contains("at most 32"));
  REQUIRE_THROWS_WITH(course::parse_size("2^6", "tile", 16, 32), Contains("at most 32"));
  REQUIRE(course::parse_size("0", "offset", 0) == 0u);
}

TEST_CASE("parse_integer accepts signs within its range") {
  REQUIRE(course::parse_integer("-3", "k", -5, 5) == -3);
  REQUIRE(course::parse_integer("+4", "k", -5, 5) == 4);
  REQUIRE(course::parse_integer("-0", "k", -5, 5) == 0);
  REQUIRE(course::parse_integer("-5", "k", -5, 5) == -5);
  REQUIRE(course::parse_integer("5", "k", -5, 5) == 5);
}

TEST_CASE("parse_integer rejects values outside its range") {
  REQUIRE_THROWS_WITH(course::parse_integer("6", "k", -5, 5), Contains("--k") && Contains("out of range [-5, 5]"));
  REQUIRE_THROWS_WITH(course::parse_integer("-6", "k", -5, 5), Contains("out of range"));
  REQUIRE_THROWS_WITH(course::parse_integer("99999999999999999999", "k", -5, 5), Contains("out of range"));
}

TEST_CASE("parse_integer reaches both ends of the 64-bit range") {
  REQUIRE(course::parse_integer("9223372036854775807", "k", kLongMin, kLongMax) == kLongMax);
  REQUIRE(course::parse_integer("-9223372036854775808", "k", kLongMin, kLongMax) == kLongMin);
  REQUIRE_THROWS_WITH(course::parse_integer("9223372036854775808", "k", kLongMin, kLongMax), Contains("out of range"));
  REQUIRE_THROWS_WITH(course::parse_integer("-9223372036854775809", "k", kLongMin, kLongMax), Contains("out of range"));
}

TEST_CASE("parse_integer rejects what is not a whole number") {
  for (const char* text : {"", "x", "-", "+", "1.0", "3 ", "--3", "2^4", "1e3"})
    REQUIRE_THROWS_WITH(course::parse_integer(text, "k", -5, 5), Contains("--k") && Contains("not a whole number"));
}

TEST_CASE("parse_number accepts non-negative decimals") {
  REQUIRE(course::parse_number("2950.5", "bw") == Approx(2950.5));
  REQUIRE(course::parse_number(".5", "bw") == Approx(0.5));
  REQUIRE(course::parse_number("0", "bw") == 0.0);
  REQUIRE(course::parse_number("3000", "bw") == Approx(3000));
  REQUIRE(course::parse_number("1.5e3", "bw") == Approx(1500));
}

TEST_CASE("parse_number rejects signs garbage and non-finite values") {
  for (const char* text : {"", "-1", "+1", "12GB", "inf", "nan", ".", "1e999", " 1", "1,5", "0x10", "0x1p4"})
    REQUIRE_THROWS_WITH(course::parse_number(text, "bw"), Contains("--bw") && Contains("not a non-negative number"));
}

TEST_CASE("options keep their defaults until given") {
  Parsed p({});
  REQUIRE(p.ran);
  REQUIRE(p.help.str().empty());
  REQUIRE(p.cli.size("n") == 1000u);
  REQUIRE(p.cli.size("tile") == 32u);
  REQUIRE(p.cli.integer("level") == 0);
  REQUIRE(p.cli.text("mode") == "auto");
  REQUIRE_FALSE(p.cli.flag("fast"));
  REQUIRE_FALSE(p.cli.given("n"));
  REQUIRE_FALSE(p.cli.given("fast"));
  REQUIRE(p.cli.program() == "prog");
}

TEST_CASE("common options have their documented defaults") {
  Parsed p({});
  auto c = p.cli.common();
  REQUIRE(c.seed == 1u);
  REQUIRE(c.timing.reps == 7);
  REQUIRE(c.timing.warmup == 3);
  REQUIRE(c.format == course::OutputFormat::Text);
  REQUIRE(c.input.empty());
  REQUIRE(c.output.empty());
  REQUIRE(c.copy_bandwidth_gbs == 0);
}

TEST_CASE("an option is read with its value as the next word") {
  Parsed p({"--n", "2^10", "--level", "-2", "--mode", "fast"});
  REQUIRE(p.cli.size("n") == 1024u);
  REQUIRE(p.cli.integer("level") == -2);
  REQUIRE(p.cli.text("mode") == "fast");
  REQUIRE(p.cli.given("n"));
  REQUIRE(p.cli.given("level"));
}

TEST_CASE("an option is read with its value after an equals sign") {
  Parsed p({"--n=2^10", "--level=-2", "--mode=a=b", "--tile=16"});
  REQUIRE(p.cli.size("n") == 1024u);
  REQUIRE(p.cli.integer("level") == -2);
  REQUIRE(p.cli.text("mode") == "a=b");
  REQUIRE(p.cli.size("tile") == 16u);
}

TEST_CASE("an option given twice is refused, whatever its kind, naming the option") {
  REQUIRE_THROWS_WITH(Parsed({"--n", "1000", "--n", "2000"}), Contains("--n is given twice"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "5", "--n=5"}), Contains("--n is given twice"));
  REQUIRE_THROWS_WITH(Parsed({"--mode", "a", "--mode", "b"}), Contains("--mode is given twice"));
  REQUIRE_THROWS_WITH(Parsed({"--fast", "--fast"}), Contains("--fast is given twice"));
  REQUIRE_THROWS_WITH(Parsed({"--reps", "3", "--n", "9", "--reps", "3"}), Contains("--reps is given twice"));
  REQUIRE_NOTHROW(Parsed({"--n", "5", "--tile", "32"}));
}

TEST_CASE("a flag is set by its name alone") {
  Parsed p({"--fast", "--csv"});
  REQUIRE(p.cli.flag("fast"));
  REQUIRE(p.cli.given("fast"));
  REQUIRE(p.cli.flag("csv"));
  REQUIRE_FALSE(p.cli.flag("json"));
  REQUIRE(p.cli.common().format == course::OutputFormat::Csv);
}

TEST_CASE("common() carries every common option given") {
  Parsed p({"--seed=9", "--reps", "3", "--warmup", "0", "--json", "--input", "in.bin", "--output=out.bin",
            "--copy-bandwidth", "3000.5"});
  auto c = p.cli.common();
  REQUIRE(c.seed == 9u);
  REQUIRE(c.timing.reps == 3);
  REQUIRE(c.timing.warmup == 0);
  REQUIRE(c.format == course::OutputFormat::Json);
  REQUIRE(c.input == "in.bin");
  REQUIRE(c.output == "out.bin");
  REQUIRE(c.copy_bandwidth_gbs == Approx(3000.5));
}

TEST_CASE("an unknown option is rejected") {
  REQUIRE_THROWS_WITH(Parsed({"--bogus"}), Contains("unknown option --bogus"));
  REQUIRE_THROWS_WITH(Parsed({"--bogus=1"}), Contains("unknown option --bogus"));
  REQUIRE_THROWS_WITH(Parsed({"--N", "5"}), Contains("unknown option --N"));
}

TEST_CASE("words that are not options are rejected") {
  REQUIRE_THROWS_WITH(Parsed({"stray"}), Contains("unexpected argument 'stray'"));
  REQUIRE_THROWS_WITH(Parsed({"-n", "5"}), Contains("unexpected argument '-n'"));
  REQUIRE_THROWS_WITH(Parsed({"--"}), Contains("unexpected argument '--'"));
}

TEST_CASE("an option without its value is rejected") {
  REQUIRE_THROWS_WITH(Parsed({"--n"}), Contains("--n needs a value"));
  REQUIRE_THROWS_WITH(Parsed({"--fast", "--mode"}), Contains("--mode needs a value"));
  REQUIRE_THROWS_WITH(Parsed({"--n="}), Contains("--n") && Contains("not a positive whole number"));
  REQUIRE_THROWS_WITH(Parsed({"--input="}), Contains("--input needs a non-empty value"));
}

TEST_CASE("a bad value is rejected with the option named") {
  REQUIRE_THROWS_WITH(Parsed({"--n", "0"}), Contains("--n: 0 is too small"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "--fast"}), Contains("--n") && Contains("'--fast'"));
  REQUIRE_THROWS_WITH(Parsed({"--tile", "128"}), Contains("--tile") && Contains("at most 64"));
  REQUIRE_THROWS_WITH(Parsed({"--level", "9"}), Contains("--level") && Contains("out of range"));
  REQUIRE_THROWS_WITH(Parsed({"--seed", "-1"}), Contains("--seed") && Contains("out of range"));
  REQUIRE_THROWS_WITH(Parsed({"--reps", "0"}), Contains("--reps") && Contains("out of range"));
  REQUIRE_THROWS_WITH(Parsed({"--copy-bandwidth", "fast"}), Contains("--copy-bandwidth") &&
                                                                 Contains("not a non-negative number"));
}

TEST_CASE("a flag given a value is rejected") {
  REQUIRE_THROWS_WITH(Parsed({"--fast=yes"}), Contains("--fast takes no value"));
  REQUIRE_THROWS_WITH(Parsed({"--csv="}), Contains("--csv takes no value"));
}

TEST_CASE("combining --csv with --json is rejected") {
  REQUIRE_THROWS_WITH(Parsed({"--csv", "--json"}), Contains("--csv and --json cannot be combined"));
  REQUIRE_THROWS_AS(Parsed({"--json", "--n", "5", "--csv"}), UsageError);
}

TEST_CASE("asking for --help prints every option and stops the program") {
  Parsed p({"--n", "5", "--help"});
  REQUIRE_FALSE(p.ran);
  const std::string help = p.help.str();
  REQUIRE_THAT(help, Contains("usage: prog") && Contains("A test program."));
  for (const char* option : {"--n N", "--tile N", "--level N", "--mode MODE", "--fast", "--seed N", "--reps N",
                             "--warmup N", "--csv", "--json", "--input FILE", "--output FILE",
                             "--copy-bandwidth GB/S", "--help"})
    REQUIRE_THAT(help, Contains(option));
  REQUIRE_THAT(help, Contains("elements (default 1000)") && Contains("how to run (default auto)"));
  REQUIRE_THAT(help, Contains("(default 7)"));
  REQUIRE(help == p.cli.help());
}

TEST_CASE("the short -h acts as --help and stops before later bad arguments") {
  Parsed p({"-h", "--bogus"});
  REQUIRE_FALSE(p.ran);
  REQUIRE_THAT(p.help.str(), Contains("--level"));
}

TEST_CASE("options are declared once and read with their own type") {
  course::CommandLine cli("prog", "summary");
  cli.add_size("n", 10, "elements").add_flag("fast", "go fast");
  REQUIRE_THROWS_AS(cli.add_flag("n", "again"), std::logic_error);
  std::ostringstream help;
  REQUIRE(parse(cli, {}, help));
  REQUIRE_THROWS_AS(cli.flag("n"), std::logic_error);
  REQUIRE_THROWS_AS(cli.size("fast"), std::logic_error);
  REQUIRE_THROWS_AS(cli.size("undeclared"), std::logic_error);
}

TEST_CASE("shrinking halves every size option, never below its minimum, and leaves other options alone") {
  Parsed p({"--n", "1000", "--shrink", "3", "--level", "4"});
  REQUIRE(p.cli.size("n") == 125u);
  REQUIRE(p.cli.size("tile") == 16u);  // 32 / 8 = 4, held at the minimum 16
  REQUIRE(p.cli.integer("level") == 4);
  Parsed none({"--n", "1000"});
  REQUIRE(none.cli.size("n") == 1000u);
  Parsed to_one({"--n", "5", "--shrink", "40"});
  REQUIRE(to_one.cli.size("n") == 1u);
}

// The cases below pin what CLI11 2.1.2 does differently on its own (see docs/course-guide.md,
// "Libraries, and what is still hand-written").

TEST_CASE("--help prints the course's layout, word for word") {
  course::CommandLine cli("prog", "A test program.");
  cli.add_size("n", 1000, "elements").add_text("mode", "", "how to run", "MODE").add_flag("fast", "go fast");
  REQUIRE(cli.help() ==
          "usage: prog [options]\n"
          "A test program.\n"
          "\n"
          "options:\n"
          "  --n N                   elements (default 1000)\n"
          "  --mode MODE             how to run\n"
          "  --fast                  go fast\n"
          "  --help                  show this text\n"
          "\n"
          "sizes are whole numbers, written in decimal or as 2^k. exit codes: 0 PASS, 1 FAIL, 2 bad input,\n"
          "3 CUDA or runtime error, 77 skipped (no CUDA device).\n");
}

TEST_CASE("an empty value after an equals sign is the value, not a cue to take the next word") {
  REQUIRE_THROWS_WITH(Parsed({"--n=", "5"}), Contains("--n: '' is not a positive whole number"));
  REQUIRE_THROWS_WITH(Parsed({"--mode=", "fast"}), Contains("--mode needs a non-empty value"));
  REQUIRE_THROWS_WITH(Parsed({"--fast", "--output="}), Contains("--output needs a non-empty value"));
}

TEST_CASE("a flag takes no value, not even true, and neither does --help") {
  REQUIRE_THROWS_WITH(Parsed({"--csv=true"}), Contains("--csv takes no value"));
  REQUIRE_THROWS_WITH(Parsed({"--fast=false"}), Contains("--fast takes no value"));
  REQUIRE_THROWS_WITH(Parsed({"--help=1"}), Contains("--help takes no value"));
}

TEST_CASE("the word after an option is its value, whatever it looks like") {
  Parsed p({"--mode", "--csv=1", "--level", "-5"});
  REQUIRE(p.cli.text("mode") == "--csv=1");
  REQUIRE(p.cli.integer("level") == -5);
  REQUIRE_FALSE(p.cli.flag("csv"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "--n="}), Contains("--n: '--n=' is not a positive whole number"));
}

TEST_CASE("whole numbers are decimal: no octal, no hexadecimal") {
  Parsed p({"--seed", "010", "--n", "010"});
  REQUIRE(p.cli.common().seed == 10u);
  REQUIRE(p.cli.size("n") == 10u);
  REQUIRE_THROWS_WITH(Parsed({"--seed", "0x10"}), Contains("--seed: '0x10' is not a whole number"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "0x10"}), Contains("--n: '0x10' is not a positive whole number"));
}

TEST_CASE("a lone -- and the words after it are refused like any other stray word") {
  REQUIRE_THROWS_WITH(Parsed({"--", "--n", "5"}), Contains("unexpected argument '--'"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "5", "--", "x"}), Contains("unexpected argument '--'"));
}

TEST_CASE("the first bad argument is the one named, and --help stops the reading where it stands") {
  REQUIRE_THROWS_WITH(Parsed({"--bogus", "--n", "0"}), Contains("unknown option --bogus"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "0", "--bogus"}), Contains("--n: 0 is too small"));
  REQUIRE_THROWS_WITH(Parsed({"stray", "--level", "9"}), Contains("unexpected argument 'stray'"));
  REQUIRE_THROWS_WITH(Parsed({"--bogus", "--help"}), Contains("unknown option --bogus"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "0", "--help"}), Contains("--n: 0 is too small"));
  Parsed help_first({"--help", "--n", "0", "--bogus"});
  REQUIRE_FALSE(help_first.ran);
  REQUIRE_THAT(help_first.help.str(), Contains("usage: prog"));
}

TEST_CASE("a choice option takes one of its names and gives its index, and refuses anything else with the list") {
  auto declare = [](course::CommandLine& cli) {
    cli.add_choice("op", "sum", {"sum", "max", "min"}, "operator", "OP")
        .add_integer_choice("items", 0, {8, 16, 32}, "elements per thread")
        .add_integer_choice("ahead", 3, {1, 3}, "rows ahead");
  };
  std::ostringstream help;
  course::CommandLine defaults("prog", "A test program.");
  declare(defaults);
  REQUIRE(parse(defaults, {}, help));
  REQUIRE(defaults.choice("op") == 0);
  REQUIRE(defaults.text("op") == "sum");
  REQUIRE(defaults.integer("items") == 0);
  REQUIRE(defaults.integer("ahead") == 3);

  course::CommandLine given("prog", "A test program.");
  declare(given);
  REQUIRE(parse(given, {"--op", "min", "--items=16", "--ahead", "1"}, help));
  REQUIRE(given.choice("op") == 2);
  REQUIRE(given.integer("items") == 16);
  REQUIRE(given.integer("ahead") == 1);

  const std::vector<std::pair<std::vector<std::string>, std::string>> refused{
      {{"--op", "avg"}, "--op: 'avg' is not one of sum, max, min"},
      {{"--op", "Sum"}, "--op: 'Sum' is not one of sum, max, min"},
      {{"--items", "12"}, "--items: '12' is not one of 8, 16, 32"},
      {{"--items", "-8"}, "--items: '-8' is not one of 8, 16, 32"},
      {{"--ahead", "0"}, "--ahead: '0' is not one of 1, 3"},
      {{"--items", "x"}, "--items: 'x' is not a whole number"}};
  for (const auto& [words, message] : refused) {
    course::CommandLine cli("prog", "A test program.");
    declare(cli);
    INFO(words[0] << " " << words[1]);
    REQUIRE_THROWS_MATCHES(parse(cli, words, help), UsageError, Catch::Matchers::Message(message));
  }
  course::CommandLine wrong_default("prog", "A test program.");
  REQUIRE_THROWS_AS(wrong_default.add_choice("op", "avg", {"sum"}, "operator"), std::logic_error);
  REQUIRE_THROWS_AS(defaults.choice("items"), std::logic_error);  // an integer option, not a choice
}

TEST_CASE("choose gives the index of a name or one line that lists them all") {
  REQUIRE(course::choose("b", "x", {"a", "b"}) == 1);
  REQUIRE_THROWS_MATCHES(course::choose("c", "x", {"a", "b"}), UsageError,
                         Catch::Matchers::Message("--x: 'c' is not one of a, b"));
}
