/// @file splitmix.h
/// @brief The splitmix64 finaliser, a bijective mix of 64 bits, on the host and on the GPU: the course's
/// random data (course::CounterRng) and the judge's answer hash (course::answer_hash) are made of it.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define COURSE_HOST_DEVICE __host__ __device__
#else
#define COURSE_HOST_DEVICE
#endif

namespace course {

/// The splitmix64 finaliser of @p x.
COURSE_HOST_DEVICE inline std::uint64_t splitmix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

}  // namespace course
