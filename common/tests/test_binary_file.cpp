#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <string>
#include <vector>

#include "course/binary_file.h"
#include "course/errors.h"

using Catch::Matchers::Contains;
using course::UsageError;

namespace {
// A file name in the temporary folder, removed when the test ends.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() / ("course_test_" + std::to_string(::getpid()) + "_" + name))
                 .string()) {}
  ~TempFile() { std::remove(path.c_str()); }
  void write_bytes(const std::vector<unsigned char>& bytes) const {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
};

std::vector<unsigned char> header(const char magic[4], std::uint32_t type, std::uint32_t rows, std::uint32_t cols) {
  std::vector<unsigned char> h(magic, magic + 4);
  for (std::uint32_t v : {type, rows, cols})
    for (int i = 0; i < 4; ++i) h.push_back(static_cast<unsigned char>(v >> (8 * i)));
  return h;
}

template <class T>
void round_trip(const std::vector<T>& values, std::size_t rows, std::size_t cols) {
  TempFile f("roundtrip.bin");
  course::BinaryWriter w(f.path);
  w.write(values.data(), rows, cols);
  w.close();
  REQUIRE(std::filesystem::file_size(f.path) == 16 + values.size() * sizeof(T));
  auto a = course::read_single_array<T>(f.path);
  REQUIRE(a.rows == rows);
  REQUIRE(a.columns == cols);
  REQUIRE(a.values == values);
}
}  // namespace

TEST_CASE("every element type survives a round trip") {
  round_trip<float>({1.5f, -2.0f, 3.25f, 0.0f, 1e30f, -1e-30f}, 2, 3);
  round_trip<double>({1.5, -2.0, 3.25}, 1, 3);
  round_trip<std::int32_t>({-1, 2, 2147483647}, 3, 1);
  round_trip<std::uint32_t>({0u, 4294967295u}, 1, 2);
  round_trip<std::int64_t>({-9000000000LL, 5}, 2, 1);
  round_trip<std::uint64_t>({18446744073709551615ull}, 1, 1);
  round_trip<long long>({-3LL, 3LL}, 1, 2);
}

TEST_CASE("a file holds several arrays one after another") {
  TempFile f("several.bin");
  course::BinaryWriter w(f.path);
  std::vector<float> matrix{1, 2, 3, 4, 5, 6};
  std::vector<float> vector{7, 8, 9};
  w.write(matrix.data(), 2, 3);
  w.write(vector);
  w.close();
  course::BinaryReader r(f.path);
  auto a = r.read<float>();
  auto v = r.read<float>();
  r.expect_end();
  REQUIRE(a.rows == 2);
  REQUIRE(v.columns == 3);
  REQUIRE(v.values == vector);
}

TEST_CASE("unreadable, short and foreign files are rejected") {
  REQUIRE_THROWS_WITH(course::BinaryReader("/nonexistent/x.bin"), Contains("cannot open for reading"));
  TempFile f("bad.bin");
  f.write_bytes({});
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("truncated") && Contains("header"));
  f.write_bytes({'C', 'U', 'C', 'R', 1, 0});
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("truncated"));
  f.write_bytes(header("PNG!", 1, 1, 1));
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("not a course binary file"));
}

TEST_CASE("bad headers are rejected") {
  TempFile f("header.bin");
  f.write_bytes(header("CUCR", 99, 1, 1));
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("unknown element type code 99"));
  f.write_bytes(header("CUCR", 1, 0, 5));
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("empty array"));
  f.write_bytes(header("CUCR", 1, 5, 0));
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("empty array"));
}

TEST_CASE("truncated data, trailing bytes and the wrong type are rejected") {
  TempFile f("data.bin");
  auto bytes = header("CUCR", 1, 2, 2);  // four floats announced
  bytes.resize(bytes.size() + 12);      // three given
  f.write_bytes(bytes);
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("truncated") && Contains("2 x 2 float32"));
  bytes.resize(bytes.size() + 4 + 3);  // four floats and three stray bytes
  f.write_bytes(bytes);
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("3 unexpected bytes"));
  bytes.resize(bytes.size() - 3);
  f.write_bytes(bytes);
  REQUIRE(course::read_single_array<float>(f.path).values.size() == 4);
  REQUIRE_THROWS_WITH(course::read_single_array<std::int32_t>(f.path), Contains("holds float32") && Contains("expected int32"));
}

TEST_CASE("writing an empty array or to an unwritable place is rejected") {
  REQUIRE_THROWS_WITH(course::BinaryWriter("/nonexistent/dir/x.bin"), Contains("cannot open for writing"));
  TempFile f("empty.bin");
  course::BinaryWriter w(f.path);
  std::vector<float> none;
  REQUIRE_THROWS_AS(w.write(none), UsageError);
}
