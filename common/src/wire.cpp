#include "course/wire.h"

#include <cstring>

namespace course::wire {

std::string kind_name(std::uint32_t kind) {
  switch (static_cast<Kind>(kind)) {
    case Kind::Run: return "Run";
    case Kind::Load: return "Load";
    case Kind::Warmup: return "Warmup";
    case Kind::Time: return "Time";
    case Kind::Fetch: return "Fetch";
    case Kind::Call: return "Call";
    case Kind::Answer: return "Answer";
    case Kind::Failure: return "Failure";
    case Kind::Ready: return "Ready";
    case Kind::Done: return "Done";
  }
  return "unknown kind " + std::to_string(kind);
}

Frame read_header(const unsigned char* header, std::size_t max_payload, std::uint64_t* length) {
  std::uint32_t magic = 0, kind = 0;
  std::memcpy(&magic, header, 4);
  std::memcpy(&kind, header + 4, 4);
  std::memcpy(length, header + 8, 8);
  if (magic != kMagic) throw WireError("a message that does not begin as the protocol's do");
  if (kind_name(kind).rfind("unknown", 0) == 0) throw WireError("a message of " + kind_name(kind));
  if (*length > max_payload)
    throw WireError("a message of " + std::to_string(*length) + " bytes, more than the " + std::to_string(max_payload) +
                    " it may have");
  Frame frame;
  frame.kind = static_cast<Kind>(kind);
  return frame;
}

std::vector<unsigned char> header_of(Kind kind, std::uint64_t length) {
  std::vector<unsigned char> header(kHeaderBytes);
  const std::uint32_t magic = kMagic, k = static_cast<std::uint32_t>(kind);
  std::memcpy(header.data(), &magic, 4);
  std::memcpy(header.data() + 4, &k, 4);
  std::memcpy(header.data() + 8, &length, 8);
  return header;
}

Frame read_frame(const ReadExactly& read, std::size_t max_payload) {
  unsigned char header[kHeaderBytes];
  read(header, kHeaderBytes);
  std::uint64_t length = 0;
  Frame frame = read_header(header, max_payload, &length);
  frame.payload.resize(static_cast<std::size_t>(length));
  if (length > 0) read(frame.payload.data(), frame.payload.size());
  return frame;
}

std::vector<Frame> split_frames(const unsigned char* bytes, std::size_t size, std::size_t max_payload) {
  std::size_t position = 0;
  const ReadExactly from_buffer = [&](unsigned char* target, std::size_t n) {
    if (n > size - position) throw WireError("the stream ends inside a message");
    std::memcpy(target, bytes + position, n);
    position += n;
  };
  std::vector<Frame> frames;
  while (position < size) frames.push_back(read_frame(from_buffer, max_payload));
  return frames;
}

void Reader::raw(void* target, std::size_t bytes) {
  if (bytes > remaining())
    throw WireError("a payload " + std::to_string(size_) + " bytes long, shorter than its contents say");
  if (bytes > 0) std::memcpy(target, data_ + position_, bytes);
  position_ += bytes;
}

std::size_t Reader::count(std::size_t element_bytes) {
  std::uint64_t n = 0;
  raw(&n, sizeof n);
  if (element_bytes == 0 || n > remaining() / element_bytes)
    throw WireError("a count of " + std::to_string(n) + " elements, more than the " + std::to_string(remaining()) +
                    " bytes left in the payload hold");
  return static_cast<std::size_t>(n);
}

void Reader::expect_end() const {
  if (remaining() != 0) throw WireError("a payload with " + std::to_string(remaining()) + " bytes more than its contents");
}

}  // namespace course::wire
