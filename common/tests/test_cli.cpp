#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/errors.h"

using Catch::Matchers::Contains;
using course::UsageError;

namespace {
// Parses the words as a command line (program name added) on a fresh CommandLine.
struct Parsed {
  course::CommandLine cli{"prog", "A test program."};
  std::ostringstream help;
  bool ran = false;
  explicit Parsed(std::vector<std::string> words) {
    cli.add_size("n", 1000, "elements").add_integer("level", 0, "a level", -5, 5).add_flag("fast", "go fast");
    cli.add_common_options(7);
    words.insert(words.begin(), "prog");
    std::vector<const char*> argv;
    for (const auto& w : words) argv.push_back(w.c_str());
    ran = cli.parse(static_cast<int>(argv.size()), argv.data(), help);
  }
};
}  // namespace

TEST_CASE("parse_size reads decimal numbers and powers of two") {
  REQUIRE(course::parse_size("40960000", "n") == 40960000u);
  REQUIRE(course::parse_size("2^28", "n") == (std::size_t(1) << 28));
  REQUIRE(course::parse_size("1", "n") == 1u);
}

TEST_CASE("parse_size rejects zero, signs, garbage and overflow") {
  REQUIRE_THROWS_WITH(course::parse_size("0", "n"), Contains("--n") && Contains("too small"));
  REQUIRE_THROWS_WITH(course::parse_size("-5", "n"), Contains("not a positive whole number"));
  REQUIRE_THROWS_WITH(course::parse_size("12abc", "n"), Contains("not a positive whole number"));
  REQUIRE_THROWS_WITH(course::parse_size("", "n"), Contains("not a positive whole number"));
  REQUIRE_THROWS_WITH(course::parse_size("1.5", "n"), Contains("not a positive whole number"));
  REQUIRE_THROWS_WITH(course::parse_size("99999999999999999999999", "n"), Contains("too large"));
  REQUIRE_THROWS_WITH(course::parse_size("2^64", "n"), Contains("too large"));
  REQUIRE_THROWS_WITH(course::parse_size("3^2", "n"), Contains("not a size"));
  REQUIRE_THROWS_AS(course::parse_size("2^", "n"), UsageError);
}

TEST_CASE("parse_size enforces its bounds") {
  REQUIRE(course::parse_size("16", "n", 16, 32) == 16u);
  REQUIRE_THROWS_WITH(course::parse_size("15", "n", 16, 32), Contains("at least 16"));
  REQUIRE_THROWS_WITH(course::parse_size("2^6", "n", 16, 32), Contains("at most 32"));
}

TEST_CASE("parse_integer accepts signs within its range") {
  REQUIRE(course::parse_integer("-3", "k", -5, 5) == -3);
  REQUIRE(course::parse_integer("+4", "k", -5, 5) == 4);
  REQUIRE_THROWS_WITH(course::parse_integer("6", "k", -5, 5), Contains("out of range"));
  REQUIRE_THROWS_WITH(course::parse_integer("x", "k", -5, 5), Contains("not a whole number"));
  REQUIRE_THROWS_WITH(course::parse_integer("99999999999999999999", "k", -5, 5), Contains("out of range"));
}

TEST_CASE("parse_number accepts non-negative decimals only") {
  REQUIRE(course::parse_number("2950.5", "bw") == Approx(2950.5));
  REQUIRE(course::parse_number(".5", "bw") == Approx(0.5));
  REQUIRE_THROWS_AS(course::parse_number("-1", "bw"), UsageError);
  REQUIRE_THROWS_AS(course::parse_number("12GB", "bw"), UsageError);
  REQUIRE_THROWS_AS(course::parse_number("inf", "bw"), UsageError);
}

TEST_CASE("options keep their defaults until given") {
  Parsed p({});
  REQUIRE(p.ran);
  REQUIRE(p.cli.size("n") == 1000u);
  REQUIRE(p.cli.integer("level") == 0);
  REQUIRE_FALSE(p.cli.flag("fast"));
  REQUIRE_FALSE(p.cli.given("n"));
  auto c = p.cli.common();
  REQUIRE(c.seed == 1u);
  REQUIRE(c.timing.reps == 7);
  REQUIRE(c.timing.warmup == 3);
  REQUIRE(c.format == course::OutputFormat::Text);
  REQUIRE(c.input.empty());
  REQUIRE(c.copy_bandwidth_gbs == 0);
}

TEST_CASE("options are read in both spellings") {
  Parsed p({"--n", "2^10", "--level=-2", "--fast", "--seed=9", "--reps", "3", "--json", "--input", "in.bin",
            "--copy-bandwidth", "3000"});
  REQUIRE(p.cli.size("n") == 1024u);
  REQUIRE(p.cli.integer("level") == -2);
  REQUIRE(p.cli.flag("fast"));
  REQUIRE(p.cli.given("n"));
  auto c = p.cli.common();
  REQUIRE(c.seed == 9u);
  REQUIRE(c.timing.reps == 3);
  REQUIRE(c.format == course::OutputFormat::Json);
  REQUIRE(c.input == "in.bin");
  REQUIRE(c.copy_bandwidth_gbs == Approx(3000));
}

TEST_CASE("bad command lines are rejected with the option named") {
  REQUIRE_THROWS_WITH(Parsed({"--bogus"}), Contains("unknown option --bogus"));
  REQUIRE_THROWS_WITH(Parsed({"--n"}), Contains("--n needs a value"));
  REQUIRE_THROWS_WITH(Parsed({"--n", "0"}), Contains("--n: 0 is too small"));
  REQUIRE_THROWS_WITH(Parsed({"--fast=yes"}), Contains("--fast takes no value"));
  REQUIRE_THROWS_WITH(Parsed({"stray"}), Contains("unexpected argument 'stray'"));
  REQUIRE_THROWS_WITH(Parsed({"--level", "9"}), Contains("out of range"));
  REQUIRE_THROWS_WITH(Parsed({"--csv", "--json"}), Contains("cannot be combined"));
  REQUIRE_THROWS_WITH(Parsed({"--input="}), Contains("non-empty"));
  REQUIRE_THROWS_WITH(Parsed({"--copy-bandwidth", "fast"}), Contains("not a non-negative number"));
}

TEST_CASE("--help prints every option and stops the program") {
  Parsed p({"--n", "5", "--help"});
  REQUIRE_FALSE(p.ran);
  const std::string help = p.help.str();
  for (const char* option : {"--n", "--level", "--fast", "--seed", "--reps", "--warmup", "--csv", "--json",
                             "--input FILE", "--output FILE", "--copy-bandwidth GB/S", "--help"})
    REQUIRE_THAT(help, Contains(option));
  REQUIRE_THAT(help, Contains("A test program.") && Contains("default 1000"));
}
