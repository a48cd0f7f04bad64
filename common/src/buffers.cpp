#include "course/buffers.h"

#include <cstdio>
#include <string>

namespace course {

namespace {
std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}
}  // namespace

void ensure_device_memory(std::size_t bytes, const char* what) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (bytes > free_bytes)
    throw UsageError(std::string(what) + " needs " + gib(bytes) + " of GPU memory but only " +
                     gib(free_bytes) + " of " + gib(total_bytes) + " is free; choose a smaller size");
}

}  // namespace course
