// Lesson 03, step 02: CPU, every core, with OpenMP.
//
// What changed: step 01 carries one running value from the first element to the last, so only one
// core can work. Here the array is cut into one contiguous chunk per thread, and the scan takes three
// parts, inside one parallel region:
//   1. every thread scans its own chunk as step 01 does, but starting from the operator's identity, as
//      if nothing came before the chunk. Elements after the chunk's first head are final already: a
//      segment that starts inside the chunk owes nothing to the chunks before it. The thread keeps the
//      chunk's carry (its running value at the end, and whether a head lies in it) and where the
//      chunk's first head is;
//   2. one thread walks the carries in chunk order, one per chunk, to find what enters each chunk: the
//      running value at the end of the chunk before, restarted wherever a chunk holds a head. This is
//      the segmented scan again, over a handful of values;
//   3. every thread combines what enters its chunk with the elements before the chunk's first head:
//      op(enters, result[i]), each element on its own. That loop has no chain from one element to the
//      next, so `#pragma omp simd` lets the compiler use vector instructions for it (GCC 12 does, at the
//      build's baseline x86-64 flags, for every type and operator but max and min of 64-bit integers,
//      which SSE2 has no instruction to compare).
// It is the GPU's scan-then-propagate (step 04) on a few cores: chunks instead of tiles, a loop over
// the carries instead of a scan of the tiles' totals.
//
// Why it is faster: every core runs its own chain of operator applications, each waiting only for
// the one before it in its own chunk, so the chains run side by side; the loop over the carries costs
// one application per thread.
//
// What it costs: part 3 reads and writes again what lies before each chunk's first head. With segments
// of about 1000 elements that is a small part of each chunk, but with one segment over the whole array
// (`--segments single`) it is every chunk after the first: every element but those of the first chunk
// is written twice. And the operator is applied in another order than step 01's. Integers, max and min
// do not care: they come out exactly as step 01's. Float and double sums and products round
// differently, and stay within the lesson's tolerance (segmented_scan.h), which does not assume step
// 01's order: a sum or product of the k terms up to an element, grouped in any way, takes k - 1
// roundings (starting a chunk from the identity adds none: 0 + x and 1 x are exact); the product's
// allowance is the worst case of those, and the sum's assumes only that their errors are independent,
// as it must for every GPU step's tree order too.
//
// It is the fair CPU baseline: the ladder shows every GPU step's speed-up over it as well as over
// step 01. `--cpu-threads N` runs it on N threads (N chunks); on one thread it is a single chunk, step
// 01's loop, so the table "step 02 on every core and on one thread" shows what the cores give.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "course/device.h"
#include "segmented_scan.h"

namespace {

template <class T, class Op>
void scan_all_cores(const T* values, const std::uint8_t* flags, T* result, std::size_t n) {
  if (n == 0) return;
  const Op op;
  // One chunk per thread (never an empty one): chunk c is [n c / chunks, n (c + 1) / chunks).
  const std::size_t chunks = std::min<std::size_t>(n, static_cast<std::size_t>(course::cpu_threads()));
  auto start = [&](std::size_t c) { return n * c / chunks; };
  std::vector<T> carry(chunks), enters(chunks);
  std::vector<std::size_t> first_head(chunks);  // the chunk's end when it holds no head
  const long long count = static_cast<long long>(chunks);

#pragma omp parallel
  {
    // 1. Each chunk on its own: up to its first head from the identity, as if nothing came before,
    //    then step 01's loop, whose results are final.
#pragma omp for schedule(static)
    for (long long cc = 0; cc < count; ++cc) {
      const std::size_t c = static_cast<std::size_t>(cc), end = start(c + 1);
      std::size_t i = start(c);
      T running = Op::template identity<T>();
      for (; i < end && !(i == 0 || flags[i]); ++i) result[i] = running = op(running, values[i]);
      first_head[c] = i;
      for (; i < end; ++i) result[i] = running = i == 0 || flags[i] ? values[i] : op(running, values[i]);
      carry[c] = running;
    }
    // 2. What enters each chunk, in chunk order, on one thread (the barrier at the end of `single`
    //    makes it visible to all).
#pragma omp single
    {
      T running = Op::template identity<T>();
      for (std::size_t c = 0; c < chunks; ++c) {
        enters[c] = running;
        running = first_head[c] < start(c + 1) ? carry[c] : op(running, carry[c]);
      }
    }
    // 3. Each chunk's elements before its first head continue the segment that entered it.
#pragma omp for schedule(static)
    for (long long cc = 0; cc < count; ++cc) {
      const std::size_t c = static_cast<std::size_t>(cc), begin = start(c), end = first_head[c];
      const T before = enters[c];
#pragma omp simd
      for (std::size_t i = begin; i < end; ++i) result[i] = op(before, result[i]);
    }
  }
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    scan_all_cores<T, decltype(op)>(static_cast<const T*>(values), flags, static_cast<T*>(result), n);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"02", "CPU, all cores (OpenMP)", "cpu", run, nullptr, nullptr, 0, true};
