/// @file binary_file.h
/// @brief The course's binary file format for inputs and outputs.
///
/// A file holds one or more arrays, one after another. Each array is a 16-byte header followed by its
/// raw data in row-major order, little-endian:
///
/// | bytes | field        | meaning                                        |
/// |-------|--------------|------------------------------------------------|
/// | 0-3   | magic        | the characters `CUCR`                          |
/// | 4-7   | element type | an ElementType code (uint32)                   |
/// | 8-11  | rows         | number of rows, at least 1 (uint32)            |
/// | 12-15 | columns      | number of columns, at least 1 (uint32)         |
///
/// A vector is stored as one row. Readers check everything: the magic, a known element type matching
/// what the program expects, non-zero dimensions, that the data is all there, and (with
/// BinaryReader::expect_end()) that nothing follows it. Every problem is a course::UsageError that
/// names the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

namespace course {

/// Element types a file can hold.
enum class ElementType : std::uint32_t {
  Float32 = 1,
  Float64 = 2,
  Int32 = 3,
  UInt32 = 4,
  Int64 = 5,
  UInt64 = 6,
};

/// Size in bytes of one element of @p type (0 for an unknown code).
std::size_t element_size(ElementType type);
/// Name of @p type ("float32", ...), or "unknown" for a code that is not an ElementType.
const char* element_type_name(ElementType type);

/// The ElementType of a C++ arithmetic type (any 32- or 64-bit integer, float, double).
template <class T>
constexpr ElementType element_type_of() {
  static_assert(std::is_arithmetic<T>::value && (sizeof(T) == 4 || sizeof(T) == 8),
                "the course format holds 32- and 64-bit integers, float and double");
  if constexpr (std::is_floating_point<T>::value) {
    return sizeof(T) == 4 ? ElementType::Float32 : ElementType::Float64;
  } else if constexpr (std::is_signed<T>::value) {
    return sizeof(T) == 4 ? ElementType::Int32 : ElementType::Int64;
  } else {
    return sizeof(T) == 4 ? ElementType::UInt32 : ElementType::UInt64;
  }
}

/// The 16-byte header of one array.
struct ArrayHeader {
  ElementType type = ElementType::Float32;  ///< element type
  std::uint32_t rows = 0;                   ///< rows (1 for a vector)
  std::uint32_t columns = 0;                ///< columns (the length, for a vector)
  /// rows x columns
  std::size_t count() const { return static_cast<std::size_t>(rows) * columns; }
};

/// An array read from a file: its shape and its values.
template <class T>
struct Array {
  std::uint32_t rows = 0;     ///< rows
  std::uint32_t columns = 0;  ///< columns
  std::vector<T> values;      ///< rows x columns values, row-major
};

/// Reads arrays one after another from a course binary file, validating each.
class BinaryReader {
 public:
  /// Opens @p path. @throws UsageError if it cannot be opened.
  explicit BinaryReader(const std::string& path);

  /// Reads and validates the next header without reading the data.
  /// @throws UsageError on a short file, a wrong magic, an unknown type or a zero dimension
  ArrayHeader read_header();

  /// Reads the next array, which must hold elements of type @p T.
  /// @throws UsageError on any header problem, a type mismatch, or data shorter than the header says
  template <class T>
  Array<T> read() {
    return read_data<T>(read_header());
  }

  /// Reads the data that follows header @p h (just returned by read_header()), which must be of type
  /// @p T. @throws UsageError on a type mismatch or a read error
  template <class T>
  Array<T> read_data(const ArrayHeader& h) {
    check_type(h, element_type_of<T>());
    Array<T> a;
    a.rows = h.rows;
    a.columns = h.columns;
    a.values.resize(h.count());
    read_payload(a.values.data(), h.count() * sizeof(T));
    return a;
  }

  /// True when every byte of the file has been read.
  bool at_end() const { return remaining_ == 0; }

  /// @throws UsageError if anything follows the last array read.
  void expect_end();

  const std::string& path() const { return path_; }  ///< the file's name

 private:
  void check_type(const ArrayHeader& h, ElementType wanted) const;
  void read_payload(void* data, std::size_t bytes);
  std::string path_;
  std::ifstream in_;
  std::uint64_t remaining_ = 0;
};

/// Writes arrays one after another to a course binary file.
class BinaryWriter {
 public:
  /// Creates (or truncates) @p path. @throws UsageError if it cannot be created.
  explicit BinaryWriter(const std::string& path);

  /// Appends one array of @p rows x @p columns values of type @p T.
  /// @throws UsageError if a dimension is zero or too large for the header, or on a write error
  template <class T>
  void write(const T* values, std::size_t rows, std::size_t columns) {
    write_raw(element_type_of<T>(), rows, columns, values);
  }
  /// Appends a vector as one row.
  template <class T>
  void write(const std::vector<T>& values) {
    write(values.data(), 1, values.size());
  }
  /// Flushes and closes; @throws UsageError on a write error.
  void close();

 private:
  void write_raw(ElementType type, std::size_t rows, std::size_t columns, const void* data);
  std::string path_;
  std::ofstream out_;
};

/// Reads a file that holds exactly one vector or matrix of @p T.
template <class T>
Array<T> read_single_array(const std::string& path) {
  BinaryReader reader(path);
  Array<T> a = reader.read<T>();
  reader.expect_end();
  return a;
}

/// Writes a file that holds exactly one vector (one row) of @p T.
template <class T>
void write_single_vector(const std::string& path, const std::vector<T>& values) {
  BinaryWriter writer(path);
  writer.write(values);
  writer.close();
}

}  // namespace course
