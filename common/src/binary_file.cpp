#include "course/binary_file.h"

#include <cstring>
#include <filesystem>
#include <limits>

#include "course/errors.h"

namespace course {

namespace {
constexpr char kMagic[4] = {'C', 'U', 'C', 'R'};
constexpr std::size_t kHeaderBytes = 16;

std::uint32_t load_u32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
void store_u32(unsigned char* p, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
}  // namespace

std::size_t element_size(ElementType type) {
  switch (type) {
    case ElementType::Float32:
    case ElementType::Int32:
    case ElementType::UInt32:
      return 4;
    case ElementType::Float64:
    case ElementType::Int64:
    case ElementType::UInt64:
      return 8;
  }
  return 0;
}

const char* element_type_name(ElementType type) {
  switch (type) {
    case ElementType::Float32: return "float32";
    case ElementType::Float64: return "float64";
    case ElementType::Int32: return "int32";
    case ElementType::UInt32: return "uint32";
    case ElementType::Int64: return "int64";
    case ElementType::UInt64: return "uint64";
  }
  return "unknown";
}

BinaryReader::BinaryReader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) throw UsageError(path + ": is a folder, not a course binary file");
  if (!in_) throw UsageError(path + ": cannot open for reading");
  in_.seekg(0, std::ios::end);
  std::streamoff size = in_.tellg();
  in_.seekg(0, std::ios::beg);
  if (size < 0 || !in_) throw UsageError(path + ": cannot read (not a regular file?)");
  remaining_ = static_cast<std::uint64_t>(size);
}

ArrayHeader BinaryReader::read_header() {
  if (remaining_ < kHeaderBytes)
    throw UsageError(path_ + ": truncated: " + std::to_string(remaining_) +
                     " bytes where a 16-byte array header was expected");
  unsigned char raw[kHeaderBytes];
  if (!in_.read(reinterpret_cast<char*>(raw), kHeaderBytes)) throw UsageError(path_ + ": read error in header");
  remaining_ -= kHeaderBytes;
  if (std::memcmp(raw, kMagic, 4) != 0)
    throw UsageError(path_ + ": not a course binary file (the header does not start with CUCR)");
  ArrayHeader h;
  std::uint32_t code = load_u32(raw + 4);
  h.type = static_cast<ElementType>(code);
  if (element_size(h.type) == 0)
    throw UsageError(path_ + ": unknown element type code " + std::to_string(code));
  h.rows = load_u32(raw + 8);
  h.columns = load_u32(raw + 12);
  if (h.rows == 0 || h.columns == 0)
    throw UsageError(path_ + ": empty array (" + std::to_string(h.rows) + " x " + std::to_string(h.columns) + ")");
  // rows x columns fits in 64 bits, but times the element size it may not: compare counts, not bytes.
  const std::uint64_t count = static_cast<std::uint64_t>(h.rows) * h.columns;
  const std::uint64_t size = element_size(h.type);
  if (count > remaining_ / size) {
    const bool fits = count <= std::numeric_limits<std::uint64_t>::max() / size;
    throw UsageError(path_ + ": truncated: header says " + std::to_string(h.rows) + " x " +
                     std::to_string(h.columns) + " " + element_type_name(h.type) + " (" +
                     (fits ? std::to_string(count * size) : std::string("over 2^64")) + " bytes) but only " +
                     std::to_string(remaining_) + " bytes follow");
  }
  return h;
}

void BinaryReader::check_type(const ArrayHeader& h, ElementType wanted) const {
  if (h.type != wanted)
    throw UsageError(path_ + ": holds " + element_type_name(h.type) + " values, expected " +
                     element_type_name(wanted));
}

void BinaryReader::read_payload(void* data, std::size_t bytes) {
  if (bytes > remaining_) throw UsageError(path_ + ": truncated data");
  if (!in_.read(static_cast<char*>(data), static_cast<std::streamsize>(bytes)))
    throw UsageError(path_ + ": read error in data");
  remaining_ -= bytes;
}

void BinaryReader::expect_end() {
  if (remaining_ != 0)
    throw UsageError(path_ + ": " + std::to_string(remaining_) + " unexpected bytes after the data");
}

BinaryWriter::BinaryWriter(const std::string& path) : path_(path), out_(path, std::ios::binary | std::ios::trunc) {
  if (!out_) throw UsageError(path + ": cannot open for writing");
}

void BinaryWriter::write_raw(ElementType type, std::size_t rows, std::size_t columns, const void* data) {
  constexpr std::size_t limit = std::numeric_limits<std::uint32_t>::max();
  if (rows == 0 || columns == 0) throw UsageError(path_ + ": cannot write an empty array");
  if (rows > limit || columns > limit)
    throw UsageError(path_ + ": dimensions " + std::to_string(rows) + " x " + std::to_string(columns) +
                     " do not fit the 32-bit header fields");
  unsigned char raw[kHeaderBytes];
  std::memcpy(raw, kMagic, 4);
  store_u32(raw + 4, static_cast<std::uint32_t>(type));
  store_u32(raw + 8, static_cast<std::uint32_t>(rows));
  store_u32(raw + 12, static_cast<std::uint32_t>(columns));
  out_.write(reinterpret_cast<const char*>(raw), kHeaderBytes);
  out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(rows * columns * element_size(type)));
  if (!out_) throw UsageError(path_ + ": write error");
}

void BinaryWriter::close() {
  out_.close();
  if (!out_) throw UsageError(path_ + ": write error on close");
}

}  // namespace course
