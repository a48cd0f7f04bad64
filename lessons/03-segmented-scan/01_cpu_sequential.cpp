// Lesson 03, step 01: CPU, sequential.
//
// One running value, carried from left to right and restarted at every head: n - 1 applications of
// the operator, each waiting for the one before. Nothing could be simpler, and nothing does less work;
// the GPU steps do as much work or more, and win only by doing it in parallel. For short inputs the
// CPU wins: it starts at once, where a GPU scan, launched and waited for, takes some microseconds
// whatever its size (the README's table of sizes says up to which size the CPU is faster).
#include <cstdint>

#include "segmented_scan.h"

namespace {

template <class T, class Op>
void sequential_scan(const T* values, const std::uint8_t* flags, T* result, std::size_t n) {
  const Op op;
  T running{};
  for (std::size_t i = 0; i < n; ++i) {
    running = i == 0 || flags[i] ? values[i] : op(running, values[i]);
    result[i] = running;
  }
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    sequential_scan<T, decltype(op)>(static_cast<const T*>(values), flags, static_cast<T*>(result), n);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"01", "CPU sequential", "cpu", run, nullptr, nullptr, 0};
