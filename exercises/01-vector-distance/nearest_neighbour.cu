// Exercise 01-B: nearest neighbours, fused into the tiled distance kernel. YOUR CODE GOES HERE.
//
// For every row i of A, the nearest row j of B and its squared distance, ties to the smaller j (see
// nearest_neighbour.h), without ever storing the m x k distances. Start from lesson 01, step 05: each
// thread of a 16 x 16 block computes one distance of a 16 x 16 tile. Then, instead of storing it:
//   - pack it with its column as one 64-bit number, (distance << 32) | j. Comparing packed numbers
//     compares distances first and, when they are equal, j: the smallest packed number is the answer.
//     (Distances are never negative, so as unsigned 32-bit numbers they keep their order.)
//   - find the smallest among the 16 threads of the tile's row with __shfl_xor_sync (offsets 8, 4, 2,
//     1: in a 16 x 16 block, a row of threads is one half of a warp);
//   - fold it into best[i] with atomicMin, where the other blocks on the same rows fold theirs.
// The host code below clears best (all bits set: "nothing yet") and unpacks it at the end.
//
// Grade your work:   ./course grade 01 nearest_neighbour
// The tests try awkward and lopsided shapes, rows of B that are copies of each other (ties), rows of A
// that appear in B (distance 0), all-equal values, and 4096 x 4096 x 4096, against the CPU, exactly.
//
// Traps:
//   - A thread whose j is past K still takes part in the shuffles (full mask), with the packed value
//     "nothing yet" (all bits set), so it can never win.
//   - Shift the distance into the high 32 bits as an unsigned 64-bit number: shifting the int32 itself
//     overflows. Distances are never negative, so as unsigned numbers they keep their order.
//   - The half-warp's shuffle offsets are 8, 4, 2, 1: offset 16 would mix the two rows of a warp.
// Target: your time within 1.2x of the solution's on your GPU (on an H100 the solution takes 17.6 ms at
// size 4096x4096x4096); `./course grade` prints the ratio and says whether you met it (advisory: the
// grade does not depend on it).
#include "nearest_neighbour.h"

#include "course/check.h"
#include "course/errors.h"

namespace exercise01 {
namespace {

constexpr int kTile = 16;

// best[i] = min(best[i], the smallest packed (distance, j) of the block's columns for row i).
__global__ void nearest_in_tiles(const std::int32_t* a, const std::int32_t* b, unsigned long long* best, std::size_t m,
                                 std::size_t k, std::size_t n, std::size_t tiles_across) {
  // TODO 1: the distance of (row0 + ty, col0 + tx), as in step 05 (int32 values).
  // TODO 2: pack it with j (threads past the end of B take ~0ull, which never wins).
  // TODO 3: the smallest packed value among the 16 threads of the row, by shuffles.
  // TODO 4: one thread per row (tx == 0, inside A) calls atomicMin(best + i, packed).
}

// index[i] and distance[i] from best[i].
__global__ void unpack(const unsigned long long* best, std::uint32_t* index, std::int32_t* distance, std::size_t m) {
  // TODO 5: one thread per row: j is the low 32 bits, the distance the high 32 bits.
}

}  // namespace

std::size_t nearest_neighbour_scratch_bytes(std::size_t m, std::size_t) { return m * sizeof(unsigned long long); }

void nearest_neighbours(const std::int32_t* a, const std::int32_t* b, std::uint32_t* index, std::int32_t* distance,
                        std::size_t m, std::size_t k, std::size_t n, void* scratch, cudaStream_t stream) {
  unsigned long long* best = static_cast<unsigned long long*>(scratch);
  CUDA_CHECK(cudaMemsetAsync(best, 0xFF, m * sizeof(unsigned long long), stream));  // "nothing found yet"
  const std::size_t tiles_across = (k + kTile - 1) / kTile, tiles = (m + kTile - 1) / kTile * tiles_across;
  if (tiles > 2147483647u) throw course::UsageError("m x k needs more than 2^31 - 1 tiles");
  nearest_in_tiles<<<static_cast<unsigned>(tiles), dim3(kTile, kTile), 0, stream>>>(a, b, best, m, k, n, tiles_across);
  CUDA_CHECK_LAUNCH();
  unpack<<<static_cast<unsigned>((m + 255) / 256), 256, 0, stream>>>(best, index, distance, m);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
