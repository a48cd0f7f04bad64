// Tests of the course binary format: round trips of every element type, and every kind of bad file,
// each of which must be a course::UsageError that says what is wrong and names the file.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "course/binary_file.h"
#include "course/errors.h"

using Catch::Matchers::Contains;
using course::UsageError;

namespace {
// A file name in the system's temporary folder, unique to this process and this object, removed when
// the object goes out of scope.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string& name) {
    static std::atomic<int> counter{0};
    path = (std::filesystem::temp_directory_path() /
            ("course_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + name))
               .string();
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  void write_bytes(const std::vector<unsigned char>& bytes) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
  std::vector<unsigned char> read_bytes() const {
    std::ifstream in(path, std::ios::binary);
    return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
};

void append_u32(std::vector<unsigned char>& bytes, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

// A 16-byte array header written by hand, so the tests do not depend on the writer.
std::vector<unsigned char> header(const char magic[4], std::uint32_t type, std::uint32_t rows, std::uint32_t cols) {
  std::vector<unsigned char> h(magic, magic + 4);
  append_u32(h, type);
  append_u32(h, rows);
  append_u32(h, cols);
  return h;
}

template <class T>
void matrix_round_trip(const std::vector<T>& values, std::size_t rows, std::size_t cols) {
  TempFile f("matrix.bin");
  course::BinaryWriter w(f.path);
  w.write(values.data(), rows, cols);
  w.close();
  REQUIRE(std::filesystem::file_size(f.path) == 16 + values.size() * sizeof(T));
  auto a = course::read_single_array<T>(f.path);
  REQUIRE(a.rows == rows);
  REQUIRE(a.columns == cols);
  REQUIRE(a.values == values);
}

template <class T>
void vector_round_trip(const std::vector<T>& values) {
  TempFile f("vector.bin");
  course::write_single_vector(f.path, values);
  auto a = course::read_single_array<T>(f.path);
  REQUIRE(a.rows == 1);
  REQUIRE(a.columns == values.size());
  REQUIRE(a.values == values);
}
}  // namespace

TEST_CASE("matrices of every element type survive a round trip") {
  matrix_round_trip<float>({1.5f, -2.0f, 3.25f, 0.0f, 1e30f, -1e-30f}, 2, 3);
  matrix_round_trip<double>({1.5, -2.0, 3.25, 1e300, -0.0, 5e-324}, 3, 2);
  matrix_round_trip<std::int32_t>({-1, 2, std::numeric_limits<std::int32_t>::min()}, 3, 1);
  matrix_round_trip<std::uint32_t>({0u, 4294967295u, 7u, 8u}, 2, 2);
  matrix_round_trip<std::int64_t>({-9000000000LL, 5, std::numeric_limits<std::int64_t>::min(), 0}, 2, 2);
  matrix_round_trip<std::uint64_t>({18446744073709551615ull, 1ull << 63}, 2, 1);
  matrix_round_trip<long long>({-3LL, 3LL}, 1, 2);
}

TEST_CASE("vectors of every element type survive a round trip as one row") {
  vector_round_trip<float>({0.1f, -7.5f, std::numeric_limits<float>::max()});
  vector_round_trip<double>({0.1, -7.5, std::numeric_limits<double>::lowest()});
  vector_round_trip<std::int32_t>({std::numeric_limits<std::int32_t>::max(), -5});
  vector_round_trip<std::uint32_t>({1u, 2u, 3u, 4u, 5u});
  vector_round_trip<std::int64_t>({std::numeric_limits<std::int64_t>::max()});
  vector_round_trip<std::uint64_t>({0ull, 42ull});
}

TEST_CASE("the file layout is the documented little-endian header then the data") {
  TempFile f("layout.bin");
  course::write_single_vector<std::int32_t>(f.path, {0x01020304, -1});
  auto expected = header("CUCR", 3, 1, 2);
  for (unsigned char b : {0x04, 0x03, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF}) expected.push_back(b);
  REQUIRE(f.read_bytes() == expected);
}

TEST_CASE("a hand-written file is read with its shape") {
  TempFile f("handwritten.bin");
  auto bytes = header("CUCR", 4, 2, 1);  // 2 x 1 uint32
  append_u32(bytes, 7);
  append_u32(bytes, 4000000000u);
  f.write_bytes(bytes);
  auto a = course::read_single_array<std::uint32_t>(f.path);
  REQUIRE(a.rows == 2);
  REQUIRE(a.columns == 1);
  REQUIRE(a.values == std::vector<std::uint32_t>{7, 4000000000u});
}

TEST_CASE("a file holds several arrays of different types one after another") {
  TempFile f("several.bin");
  course::BinaryWriter w(f.path);
  std::vector<float> matrix{1, 2, 3, 4, 5, 6};
  std::vector<std::int64_t> vector{7, -8, 9};
  w.write(matrix.data(), 2, 3);
  w.write(vector);
  w.close();
  course::BinaryReader r(f.path);
  auto h = r.read_header();
  REQUIRE(h.type == course::ElementType::Float32);
  REQUIRE(h.rows == 2);
  REQUIRE(h.columns == 3);
  REQUIRE(h.count() == 6);
  course::BinaryReader reader(f.path);
  auto a = reader.read<float>();
  auto v = reader.read<std::int64_t>();
  reader.expect_end();
  REQUIRE(a.rows == 2);
  REQUIRE(a.columns == 3);
  REQUIRE(a.values == matrix);
  REQUIRE(v.rows == 1);
  REQUIRE(v.values == vector);
  REQUIRE_THROWS_WITH(reader.read<float>(), Contains("truncated") && Contains("0 bytes"));
}

TEST_CASE("element types have their sizes and names") {
  using course::ElementType;
  REQUIRE(course::element_size(ElementType::Float32) == 4);
  REQUIRE(course::element_size(ElementType::UInt64) == 8);
  REQUIRE(course::element_size(static_cast<ElementType>(0)) == 0);
  REQUIRE(std::string(course::element_type_name(ElementType::Int32)) == "int32");
  REQUIRE(std::string(course::element_type_name(static_cast<ElementType>(42))) == "unknown");
  STATIC_REQUIRE(course::element_type_of<double>() == ElementType::Float64);
  STATIC_REQUIRE(course::element_type_of<std::uint32_t>() == ElementType::UInt32);
  STATIC_REQUIRE(course::element_type_of<long long>() == ElementType::Int64);
}

TEST_CASE("a missing file is rejected and named") {
  const std::string missing = (std::filesystem::temp_directory_path() / "course_test_no_such_dir/x.bin").string();
  REQUIRE_THROWS_WITH(course::BinaryReader(missing), Contains(missing) && Contains("cannot open for reading"));
  REQUIRE_THROWS_AS(course::read_single_array<float>(missing), UsageError);
}

TEST_CASE("a directory is not mistaken for a file") {
  REQUIRE_THROWS_AS(course::read_single_array<float>(std::filesystem::temp_directory_path().string()), UsageError);
}

TEST_CASE("an empty file is rejected as truncated") {
  TempFile f("empty.bin");
  f.write_bytes({});
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path),
                      Contains(f.path) && Contains("truncated") && Contains("0 bytes") && Contains("header"));
}

TEST_CASE("a file shorter than a header is rejected as truncated") {
  TempFile f("short.bin");
  auto bytes = header("CUCR", 1, 1, 1);
  bytes.resize(15);
  f.write_bytes(bytes);
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path),
                      Contains("truncated") && Contains("15 bytes") && Contains("16-byte"));
}

TEST_CASE("a file with the wrong magic is rejected") {
  TempFile f("magic.bin");
  auto bytes = header("CUCr", 1, 1, 1);  // one letter off
  append_u32(bytes, 0);
  f.write_bytes(bytes);
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path),
                      Contains(f.path) && Contains("not a course binary file"));
}

TEST_CASE("an unknown element type code is rejected") {
  TempFile f("type.bin");
  for (std::uint32_t code : {0u, 7u, 99u, 0xFFFFFFFFu}) {
    auto bytes = header("CUCR", code, 1, 1);
    append_u32(bytes, 0);
    append_u32(bytes, 0);
    f.write_bytes(bytes);
    REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path),
                        Contains("unknown element type code " + std::to_string(code)));
  }
}

TEST_CASE("zero rows or zero columns are rejected") {
  TempFile f("zero.bin");
  f.write_bytes(header("CUCR", 1, 0, 5));
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("empty array") && Contains("0 x 5"));
  f.write_bytes(header("CUCR", 1, 5, 0));
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("empty array") && Contains("5 x 0"));
}

TEST_CASE("data shorter than the header says is rejected") {
  TempFile f("truncated.bin");
  auto bytes = header("CUCR", 1, 2, 2);  // four floats announced
  bytes.resize(bytes.size() + 12);      // three given
  f.write_bytes(bytes);
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path),
                      Contains(f.path) && Contains("truncated") && Contains("2 x 2 float32") &&
                          Contains("16 bytes") && Contains("only 12"));
}

TEST_CASE("a header whose size overflows 64 bits is rejected as truncated") {
  // 2^31 x 2^30 doubles are 2^64 bytes, which wraps to 0 in 64-bit arithmetic.
  TempFile f("overflow.bin");
  f.write_bytes(header("CUCR", 2, 1u << 31, 1u << 30));
  REQUIRE_THROWS_WITH(course::read_single_array<double>(f.path), Contains("truncated"));
  // The largest header of all: 4 billion squared 8-byte values.
  f.write_bytes(header("CUCR", 6, 0xFFFFFFFFu, 0xFFFFFFFFu));
  REQUIRE_THROWS_WITH(course::read_single_array<std::uint64_t>(f.path), Contains("truncated"));
}

TEST_CASE("bytes after the last array are rejected by expect_end") {
  TempFile f("trailing.bin");
  auto bytes = header("CUCR", 1, 2, 2);
  bytes.resize(bytes.size() + 16 + 3);  // four floats and three stray bytes
  f.write_bytes(bytes);
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains(f.path) && Contains("3 unexpected bytes"));
  // Without the check the array itself reads fine.
  course::BinaryReader r(f.path);
  REQUIRE(r.read<float>().values.size() == 4);
  REQUIRE_THROWS_AS(r.expect_end(), UsageError);
  bytes.resize(bytes.size() - 3);
  f.write_bytes(bytes);
  REQUIRE(course::read_single_array<float>(f.path).values == std::vector<float>(4, 0.0f));
}

TEST_CASE("reading values of another type than the file holds is rejected") {
  TempFile f("mismatch.bin");
  course::write_single_vector<std::int32_t>(f.path, {1, 2, 3});
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path),
                      Contains(f.path) && Contains("holds int32") && Contains("expected float32"));
  REQUIRE_THROWS_WITH(course::read_single_array<std::uint32_t>(f.path), Contains("expected uint32"));
  course::write_single_vector<double>(f.path, {1.0});
  REQUIRE_THROWS_WITH(course::read_single_array<float>(f.path), Contains("holds float64") && Contains("expected float32"));
  REQUIRE_THROWS_WITH(course::read_single_array<std::int64_t>(f.path), Contains("expected int64"));
}

TEST_CASE("writing an empty array or to an unwritable place is rejected") {
  REQUIRE_THROWS_WITH(course::BinaryWriter("/nonexistent/dir/x.bin"), Contains("cannot open for writing"));
  TempFile f("write_empty.bin");
  course::BinaryWriter w(f.path);
  std::vector<float> none;
  REQUIRE_THROWS_WITH(w.write(none), Contains("empty array"));
  float one = 1.0f;
  REQUIRE_THROWS_AS(w.write(&one, 0, 1), UsageError);
  REQUIRE_THROWS_WITH(w.write(&one, std::size_t(1) << 32, 1), Contains("32-bit"));
}
