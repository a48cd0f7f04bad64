// Tests of lesson 03's problems, files and checking (no GPU needed): the generator keeps every result
// defined, files survive a round trip and bad ones are refused with one clear message, and the check
// passes what it should and fails what it should.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <unistd.h>
#include <vector>

#include "course/binary_file.h"
#include "course/errors.h"
#include "segmented_scan.h"

using Catch::Matchers::Contains;
using segscan::Pattern;

namespace {
std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("lesson03_" + std::to_string(::getpid()) + "_" + name)).string();
}

std::size_t count_heads(const std::vector<std::uint8_t>& flags) {
  std::size_t heads = 0;
  for (std::uint8_t f : flags) heads += f;
  return heads;
}

// Segment lengths, in order.
std::vector<std::size_t> lengths(const std::vector<std::uint8_t>& flags) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (i == 0 || flags[i]) out.push_back(0);
    ++out.back();
  }
  return out;
}
}  // namespace

TEST_CASE("names parse, and unknown names get one line listing the known ones") {
  // The programs read --type, --op and --segments as indexes into these lists (CommandLine::choice).
  REQUIRE(static_cast<segscan::ValueType>(course::choose("uint64", "type", segscan::kValueTypeNames)) ==
          segscan::ValueType::UInt64);
  REQUIRE(static_cast<segscan::Operator>(course::choose("product", "op", segscan::kOperatorNames)) ==
          segscan::Operator::Product);
  REQUIRE(static_cast<Pattern>(course::choose("mixed", "segments", segscan::kPatternNames)) == Pattern::Mixed);
  REQUIRE_THROWS_WITH(course::choose("int8", "type", segscan::kValueTypeNames),
                      Contains("'int8' is not one of int32, uint32, float"));
  REQUIRE_THROWS_WITH(course::choose("avg", "op", segscan::kOperatorNames),
                      Contains("'avg' is not one of sum, max, min, product"));
  REQUIRE_THROWS_WITH(course::choose("none", "segments", segscan::kPatternNames),
                      Contains("is not one of random, single, ones, mixed"));
}

TEST_CASE("every pattern starts with a head and has the segments it promises") {
  const std::size_t n = 2000003;
  for (Pattern pattern : {Pattern::Random, Pattern::Single, Pattern::Ones, Pattern::Mixed}) {
    INFO(segscan::name_of(pattern));
    REQUIRE(segscan::make_flags(n, pattern, 1)[0] == 1);
    REQUIRE(segscan::make_flags(1, pattern, 1) == std::vector<std::uint8_t>{1});
  }
  REQUIRE(count_heads(segscan::make_flags(n, Pattern::Single, 1)) == 1);
  REQUIRE(count_heads(segscan::make_flags(n, Pattern::Ones, 1)) == n);
  const std::size_t random_heads = count_heads(segscan::make_flags(n, Pattern::Random, 1));
  REQUIRE(random_heads > n / 1000 - 200);  // one in a thousand, give or take a few standard deviations
  REQUIRE(random_heads < n / 1000 + 200);
  std::size_t longest = 0, short_ones = 0;
  for (std::size_t length : lengths(segscan::make_flags(20000000, Pattern::Mixed, 2))) {
    longest = std::max(longest, length);
    short_ones += length <= 8;
  }
  REQUIRE(longest >= 100000);
  REQUIRE(short_ones > 100);
  REQUIRE(segscan::make_flags(n, Pattern::Random, 1) == segscan::make_flags(n, Pattern::Random, 1));
  REQUIRE(segscan::make_flags(n, Pattern::Random, 1) != segscan::make_flags(n, Pattern::Random, 2));
}

TEST_CASE("generated values keep every result defined and away from the edges") {
  // Signed sums: the largest possible |sum| of n values stays inside the type.
  const auto ints = segscan::make_problem<std::int32_t>(segscan::kDefaultCount, segscan::Operator::Sum, Pattern::Single, 3);
  std::int64_t widest = 0;
  for (std::int32_t v : ints.values) widest = std::max<std::int64_t>(widest, std::abs(static_cast<std::int64_t>(v)));
  REQUIRE(widest * static_cast<std::int64_t>(segscan::kDefaultCount) <= std::numeric_limits<std::int32_t>::max());
  REQUIRE(widest > 0);
  REQUIRE_NOTHROW(segscan::require_defined<std::int32_t, segscan::Sum>(ints, "generated"));
  const auto products = segscan::make_problem<std::int64_t>(100000, segscan::Operator::Product, Pattern::Single, 4);
  for (std::int64_t v : products.values) REQUIRE((v == 1 || v == -1));
  const auto odd = segscan::make_problem<std::uint32_t>(100000, segscan::Operator::Product, Pattern::Single, 5);
  for (std::uint32_t v : odd.values) REQUIRE(v % 2 == 1);
  const auto near_one = segscan::make_problem<float>(100000, segscan::Operator::Product, Pattern::Single, 6);
  for (float v : near_one.values) REQUIRE((v > 0.999f && v < 1.001f));
  const auto floats = segscan::make_problem<double>(100000, segscan::Operator::Sum, Pattern::Single, 7);
  for (double v : floats.values) REQUIRE((v > -1.0 && v < 1.0));
}

TEST_CASE("a signed sum or product that overflows is refused") {
  segscan::Problem<std::int32_t> p;
  p.values = {1 << 30, 1 << 30, 5};
  p.flags = {1, 0, 1};
  REQUIRE_THROWS_WITH((segscan::require_defined<std::int32_t, segscan::Sum>(p, "f.bin")),
                      Contains("f.bin: the sum of a segment overflows int32 at [1]"));
  p.flags = {1, 1, 1};  // each in its own segment: fine
  REQUIRE_NOTHROW(segscan::require_defined<std::int32_t, segscan::Sum>(p, "f.bin"));
  p.flags = {1, 0, 0};
  REQUIRE_THROWS_WITH((segscan::require_defined<std::int32_t, segscan::Product>(p, "f.bin")), Contains("overflows"));
  segscan::Problem<std::uint32_t> u{{0xFFFFFFFFu, 2u}, {1, 0}};
  REQUIRE_NOTHROW(segscan::require_defined<std::uint32_t, segscan::Sum>(u, "f.bin"));  // wrap-around is defined
}

TEMPLATE_TEST_CASE("a problem survives a round trip through a file", "", std::int32_t, std::uint32_t, float, double,
                   std::int64_t, std::uint64_t) {
  const auto p = segscan::make_problem<TestType>(1001, segscan::Operator::Max, Pattern::Mixed, 8);
  const std::string path = temp_path("roundtrip.bin");
  segscan::write_problem(path, p);
  REQUIRE(segscan::file_value_type(path) == segscan::scan_of<TestType, segscan::Max>().type);
  const auto q = segscan::read_problem<TestType>(path);
  std::remove(path.c_str());
  REQUIRE(q.values == p.values);
  REQUIRE(q.flags == p.flags);
}

TEST_CASE("bad files are refused with a line that names the file and the fault") {
  const std::string path = temp_path("bad.bin");
  auto write = [&](const std::vector<float>& values, const std::vector<std::int32_t>& flags) {
    course::BinaryWriter w(path);
    w.write(values);
    w.write(flags);
    w.close();
  };
  write({1, 2, 3}, {1, 2, 0});
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains(path + ": flag 2 at [1] is neither 0 nor 1"));
  write({1, 2, 3}, {1, 0, -1});
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains("flag -1 at [2] is neither 0 nor 1"));
  write({1, 2, 3}, {1, 0});
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains("3 values but 2 flags"));
  write({1, NAN, 3}, {1, 0, 0});
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains("value [1] is not a finite number"));
  write({1, INFINITY, 3}, {1, 0, 0});
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains("not a finite number"));
  {
    course::BinaryWriter w(path);
    w.write(std::vector<float>{1, 2});
    w.write(std::vector<float>{1, 0});  // flags as floats
    w.close();
  }
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains(path));
  {
    course::BinaryWriter w(path);
    w.write(std::vector<float>{1, 2});  // no flags at all
    w.close();
  }
  REQUIRE_THROWS_WITH(segscan::read_problem<float>(path), Contains("truncated"));
  write({1, 2}, {1, 0});
  REQUIRE_THROWS_AS(segscan::read_problem<double>(path), course::UsageError);  // values of another type
  std::remove(path.c_str());
}

TEST_CASE("the check is exact for integers, max and min, and catches one wrong element") {
  const auto p = segscan::make_problem<std::int64_t>(5000, segscan::Operator::Sum, Pattern::Random, 9);
  std::vector<std::int64_t> result(p.values.size());
  std::int64_t running = 0;
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = running = (i == 0 || p.flags[i]) ? p.values[i] : running + p.values[i];
  REQUIRE(segscan::check<std::int64_t, segscan::Sum>(p, result.data()).pass);
  result[1234] += 1;
  const course::Verdict v = segscan::check<std::int64_t, segscan::Sum>(p, result.data());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.mismatches == 1);
  REQUIRE(v.worst_index == 1234);
  REQUIRE_FALSE((segscan::check<std::int64_t, segscan::Max>(p, result.data()).pass));
}

TEST_CASE("the float tolerance passes float arithmetic and fails a missing term") {
  // A sequential float sum over one giant segment: the roundings of a million additions pass.
  auto p = segscan::make_problem<float>(1000000, segscan::Operator::Sum, Pattern::Single, 10);
  std::vector<float> result(p.values.size());
  float running = 0;
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = running = i == 0 ? p.values[i] : running + p.values[i];
  REQUIRE(segscan::check<float, segscan::Sum>(p, result.data()).pass);
  // The same in segments of 100, with one term left out: caught at the element where it is missing.
  for (std::size_t i = 0; i < p.flags.size(); ++i) p.flags[i] = i % 100 == 0;
  p.values[4321] = 0.75f;
  for (std::size_t i = 0; i < result.size(); ++i)
    result[i] = running = p.flags[i] ? p.values[i] : (i == 4321 ? running : running + p.values[i]);
  const course::Verdict v = segscan::check<float, segscan::Sum>(p, result.data());
  REQUIRE_FALSE(v.pass);
  REQUIRE(v.worst_index >= 4321);
  REQUIRE(v.worst_index < 4400);
  // Products: float arithmetic passes, in order and in a tree (whose roundings do not cancel: the
  // worst-case allowance is needed); in segments of 100, one factor too many fails.
  auto q = segscan::make_problem<float>(1 << 20, segscan::Operator::Product, Pattern::Single, 11);
  result.resize(q.values.size());
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = running = i == 0 ? q.values[i] : running * q.values[i];
  REQUIRE(segscan::check<float, segscan::Product>(q, result.data()).pass);
  std::vector<float> tree = q.values, next(tree.size());  // Hillis-Steele's rounds, as step 03 runs them
  for (std::size_t distance = 1; distance < tree.size(); distance *= 2) {
    for (std::size_t i = 0; i < tree.size(); ++i) next[i] = i >= distance ? tree[i - distance] * tree[i] : tree[i];
    tree.swap(next);
  }
  REQUIRE(segscan::check<float, segscan::Product>(q, tree.data()).pass);
  for (std::size_t i = 0; i < q.flags.size(); ++i) q.flags[i] = i % 100 == 0;
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = running = q.flags[i] ? q.values[i] : running * q.values[i];
  REQUIRE(segscan::check<float, segscan::Product>(q, result.data()).pass);
  result[5050] *= 1.0009f;
  REQUIRE_FALSE(segscan::check<float, segscan::Product>(q, result.data()).pass);
  // A result nobody wrote (NaN) never passes.
  result[0] = NAN;
  REQUIRE_FALSE(segscan::check<float, segscan::Product>(q, result.data()).pass);
}
