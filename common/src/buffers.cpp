#include "course/buffers.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace course {

namespace {
std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}
}  // namespace

std::size_t usable_device_memory(std::size_t* total) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // COURSE_GPU_MEMORY_MIB pretends the GPU has only that much memory: a way to see on a large GPU what
  // a small one would do (the runner's shrinking, the one-line refusals).
  if (const char* limit = std::getenv("COURSE_GPU_MEMORY_MIB")) {
    char* end = nullptr;
    const unsigned long long mib = std::strtoull(limit, &end, 10);
    if (end != limit && *end == '\0') {
      const std::size_t pretend = static_cast<std::size_t>(mib) << 20;
      const std::size_t used = total_bytes - free_bytes;
      total_bytes = std::min(total_bytes, pretend);
      free_bytes = total_bytes > used ? std::min(free_bytes, total_bytes - used) : 0;
    }
  }
  if (total != nullptr) *total = total_bytes;
  return free_bytes;
}

void copy_with_threads(void* target, const void* source, std::size_t bytes) {
  constexpr std::size_t kPiece = std::size_t(256) << 10;  // 256 KiB per task: large enough to stream
  const long long pieces = static_cast<long long>((bytes + kPiece - 1) / kPiece);
#pragma omp parallel for schedule(static)
  for (long long p = 0; p < pieces; ++p) {
    const std::size_t offset = static_cast<std::size_t>(p) * kPiece;
    std::memcpy(static_cast<char*>(target) + offset, static_cast<const char*>(source) + offset,
                std::min(kPiece, bytes - offset));
  }
}

void ensure_device_memory(std::size_t bytes, const char* what) {
  std::size_t total_bytes = 0;
  const std::size_t free_bytes = usable_device_memory(&total_bytes);
  if (bytes > free_bytes)
    throw UsageError(std::string(what) + " needs " + gib(bytes) + " of GPU memory, more than the " + gib(free_bytes) +
                     " free of " + gib(total_bytes) + ": " + kDoesNotFit + "; choose a smaller size");
}

}  // namespace course
