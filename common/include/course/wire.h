/// @file wire.h
/// @brief The messages between `./course grade-class`'s judge and a student's program (the contestant):
/// how a problem's input travels to the contestant and its answer comes back. Everything the judge
/// reads here comes from a process that runs the student's code, so every read is bounded and checked:
/// a bad frame or a short payload throws WireError, never reads past what arrived.
///
/// A message is a frame: a 16-byte header (the magic "CJW1", the kind, the payload's length in bytes;
/// each little-endian as the machine stores it: both ends run on one machine) and the payload. In a
/// payload a number is its bytes, a vector its element count (8 bytes) then its elements, and a struct
/// its fields in order, as course::wire::Fields lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace course::wire {

/// A frame or payload that is not what the protocol allows, or a channel that ended or fell silent.
class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The first four bytes of every frame: "CJW1".
constexpr std::uint32_t kMagic = 0x31574A43u;
/// The size of a frame's header.
constexpr std::size_t kHeaderBytes = 16;

/// What a frame asks or answers. The judge sends the first four, the contestant the rest.
enum class Kind : std::uint32_t {
  Run = 1,      ///< judge: an input; run the student's function once on it and send the answer
  Load = 2,     ///< judge: a slot number and an input; keep it on the device for the timed runs
  Warmup = 3,   ///< judge: a slot and a count; run that many times, untimed
  Time = 4,     ///< judge: a hash key and the order of the slots; time one run on each
  Fetch = 5,    ///< judge: a slot; send its answer
  Call = 6,     ///< judge: a host call's number and input (course::call_student); send its output
  Answer = 11,  ///< contestant: the answer's bytes (as they were in device memory)
  Failure = 12, ///< contestant: one line, what went wrong
  Ready = 13,   ///< contestant: the Load or Warmup is done
  Done = 14,    ///< contestant: the timed runs are over: each run's time and its answer's hash
};

/// The kind's name, for messages ("Answer"), or "unknown kind N".
std::string kind_name(std::uint32_t kind);

/// One message.
struct Frame {
  Kind kind = Kind::Failure;           ///< what it asks or answers
  std::vector<unsigned char> payload;  ///< its bytes after the header
};

/// The header of a frame: kind and payload length.
/// @throws WireError for a wrong magic, an unknown kind or a length over @p max_payload
Frame read_header(const unsigned char* header, std::size_t max_payload, std::uint64_t* length);

/// The 16 header bytes of a frame of @p kind with @p length bytes of payload.
std::vector<unsigned char> header_of(Kind kind, std::uint64_t length);

/// Reads bytes from somewhere: fills exactly @p bytes into @p target, or throws WireError.
using ReadExactly = std::function<void(unsigned char* target, std::size_t bytes)>;

/// Reads one frame through @p read: the header, then a payload of at most @p max_payload bytes.
/// @throws WireError for a bad header, a payload over the limit, or a channel that ends early
Frame read_frame(const ReadExactly& read, std::size_t max_payload);

/// Splits @p bytes into frames, each of at most @p max_payload bytes of payload (what the judge does
/// to a contestant's stream, on a buffer: the fuzz test's entry).
/// @throws WireError as read_frame
std::vector<Frame> split_frames(const unsigned char* bytes, std::size_t size, std::size_t max_payload);

// --- payloads -----------------------------------------------------------------------------------------

/// Builds a payload.
class Writer {
 public:
  /// Appends @p bytes raw bytes.
  void raw(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    bytes_.insert(bytes_.end(), p, p + bytes);
  }
  std::vector<unsigned char>& bytes() { return bytes_; }  ///< what was written

 private:
  std::vector<unsigned char> bytes_;
};

/// Reads a payload front to back; every read past its end throws WireError.
class Reader {
 public:
  /// Reads the @p size bytes at @p data.
  Reader(const unsigned char* data, std::size_t size) : data_(data), size_(size) {}
  /// Reads a whole payload.
  explicit Reader(const std::vector<unsigned char>& payload) : Reader(payload.data(), payload.size()) {}
  /// Copies the next @p bytes into @p target.
  void raw(void* target, std::size_t bytes);
  /// Reads an element count, and refuses one whose elements of @p element_bytes each could not fit in
  /// what is left (so a lying count never allocates).
  std::size_t count(std::size_t element_bytes);
  std::size_t remaining() const { return size_ - position_; }  ///< bytes not read yet
  /// Throws WireError unless every byte was read.
  void expect_end() const;

 private:
  const unsigned char* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

/// The fields of a struct, in order, for the wire: specialise it with
///     template <class Self, class F> static void each(Self& s, F&& f) { f(s.first); f(s.second); }
/// (Self is the struct, const or not), or, for plain members, derive it from FieldsAre:
///     template <> struct Fields<Pair> : FieldsAre<&Pair::first, &Pair::second> {};
template <class T, class = void>
struct Fields;

/// Fields made of the members @p Members, in their order.
template <auto... Members>
struct FieldsAre {
  /// Calls @p f on each member of @p s, in order.
  template <class Self, class F>
  static void each(Self& s, F&& f) {
    (f(s.*Members), ...);
  }
};

template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};

/// Appends @p value to @p w.
template <class T>
void put(Writer& w, const T& value) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    w.raw(&value, sizeof value);
  } else if constexpr (IsVector<T>::value) {
    using Element = typename T::value_type;
    static_assert(!std::is_same_v<Element, bool>, "std::vector<bool> has no contiguous storage");
    const std::uint64_t n = value.size();
    w.raw(&n, sizeof n);
    if constexpr (std::is_arithmetic_v<Element>) {
      w.raw(value.data(), value.size() * sizeof(Element));
    } else {
      for (const Element& e : value) put(w, e);
    }
  } else {
    Fields<T>::each(value, [&](const auto& field) { put(w, field); });
  }
}

/// Reads @p value from @p r.
template <class T>
void get(Reader& r, T& value) {
  if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) {
    r.raw(&value, sizeof value);
  } else if constexpr (IsVector<T>::value) {
    using Element = typename T::value_type;
    // Each element takes at least one byte: a count over what is left is refused before allocating.
    const std::size_t n = r.count(std::is_arithmetic_v<Element> ? sizeof(Element) : 1);
    value.clear();
    if constexpr (std::is_arithmetic_v<Element>) {
      value.resize(n);
      r.raw(value.data(), n * sizeof(Element));
    } else {
      value.resize(n);
      for (Element& e : value) get(r, e);
    }
  } else {
    Fields<T>::each(value, [&](auto& field) { get(r, field); });
  }
}

/// @p value as a payload.
template <class T>
std::vector<unsigned char> encode(const T& value) {
  Writer w;
  put(w, value);
  return std::move(w.bytes());
}

/// The payload @p payload read as a @p T, every byte of it.
/// @throws WireError when it is shorter, longer, or holds a count that cannot be
template <class T>
T decode(const std::vector<unsigned char>& payload) {
  Reader r(payload);
  T value{};
  get(r, value);
  r.expect_end();
  return value;
}

}  // namespace course::wire
