// Lesson 03, step 04's building block, used by steps 05 to 07 (steps 08 and 09 take only aligned_bytes):
// scan-then-propagate across tiles.
//
// A block can scan its own tile, but not the elements of the tiles before it. So the scan runs in three
// parts:
//   1. every tile is scanned on its own (the step's own kernel, `scan_tiles`), which also writes the
//      tile's total (its value at the end, and whether a segment starts in it) and the position of its
//      first head;
//   2. the totals, one per tile, are scanned the same way (recursively, until one tile holds them all):
//      afterwards total b is the running value at the end of tile b;
//   3. propagate: in tile b, the elements before its first head continue the segment that was running
//      at the end of tile b - 1, so they get op(total b - 1, element). Elements after a head are final
//      already, and are not touched.
// How much step 3 rewrites depends on the tile and the segments. With segments of about 1000 elements,
// the README's counters (2^24 elements) show it moving several times less with step 07's tiles of
// 4096 than with step 04's tiles of 512; with one giant segment it rewrites every element.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "course/check.h"

namespace segscan {

/// Where a tile scan leaves what the next level needs: per tile, its total and its first head.
template <class T>
struct TileTotals {
  T* values = nullptr;              ///< the tile's running value at its end
  std::uint8_t* flags = nullptr;    ///< 1 if a segment starts in the tile
  std::uint32_t* first_head = nullptr;  ///< position of the first head in the tile (the tile size if none)
};

/// Bytes rounded up to 256, so that every array carved out of scratch is well aligned.
inline std::size_t aligned_bytes(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

/// Scratch for one level of totals: `tiles` values, flags and first heads.
inline std::size_t totals_bytes(std::size_t tiles, std::size_t value_size) {
  return aligned_bytes(tiles * value_size) + aligned_bytes(tiles) + aligned_bytes(tiles * sizeof(std::uint32_t));
}

/// Scratch for every level of totals, for n elements in tiles of `tile` elements.
inline std::size_t scan_then_propagate_scratch(std::size_t n, std::size_t tile, std::size_t value_size) {
  std::size_t bytes = 0;
  while (n > tile) {
    n = (n + tile - 1) / tile;
    bytes += totals_bytes(n, value_size);
  }
  return bytes;
}

/// Step 3: block b - 1 of the grid updates tile b, up to its first head.
template <class T, class Op>
__global__ void propagate(T* result, std::size_t n, std::size_t tile, const T* totals,
                          const std::uint32_t* first_head) {
  const std::size_t b = blockIdx.x + std::size_t{1};
  const std::size_t start = b * tile;
  const std::size_t stop = start + first_head[b] < n ? start + first_head[b] : n;
  const T carry = totals[b - 1];
  for (std::size_t i = start + threadIdx.x; i < stop; i += blockDim.x) result[i] = Op()(carry, result[i]);
}

/// The three parts. `scan_tiles(values, flags, result, n, totals, stream)` launches the step's tile scan
/// over n elements; `totals` is empty (null pointers) when there is only one tile. `result` may be
/// `values` (the totals are scanned in place). `scratch` holds scan_then_propagate_scratch() bytes.
template <class T, class Op, class ScanTiles>
void scan_then_propagate(const T* values, const std::uint8_t* flags, T* result, std::size_t n, std::size_t tile,
                         const ScanTiles& scan_tiles, unsigned char* scratch, cudaStream_t stream) {
  if (n <= tile) {
    scan_tiles(values, flags, result, n, TileTotals<T>{}, stream);
    return;
  }
  const std::size_t tiles = (n + tile - 1) / tile;
  TileTotals<T> totals;
  totals.values = reinterpret_cast<T*>(scratch);
  totals.flags = scratch + aligned_bytes(tiles * sizeof(T));
  totals.first_head = reinterpret_cast<std::uint32_t*>(totals.flags + aligned_bytes(tiles));
  scan_tiles(values, flags, result, n, totals, stream);
  scan_then_propagate<T, Op>(totals.values, totals.flags, totals.values, tiles, tile, scan_tiles,
                             scratch + totals_bytes(tiles, sizeof(T)), stream);
  propagate<T, Op><<<static_cast<unsigned>(tiles - 1), 256, 0, stream>>>(result, n, tile, totals.values,
                                                                          totals.first_head);
  CUDA_CHECK_LAUNCH();
}

}  // namespace segscan
