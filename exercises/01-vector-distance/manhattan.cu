// Exercise 01-A: Manhattan (L1) distances with shared-memory tiles. YOUR CODE GOES HERE.
//
// c[i][j] = sum over x of |a[i][x] - b[j][x]| (see manhattan.h). Build on lesson 01, step 05: a block
// of 16 x 16 threads computes a 16 x 16 tile of C, thread (ty, tx) the distance between row
// row0 + ty of A and row col0 + tx of B. The rows of A and B the block needs pass through shared
// memory 16 elements at a time; fill the tiles with zeros past the end of A, B or the vectors
// (|0 - 0| adds nothing), and do not let threads outside C store.
//
// Grade your work:   ./course grade 01 manhattan
// The tests try 1 x 1 x 1 up to 1000 x 1000 x 1000, lopsided shapes such as 1 x 4097 x 3, vectors far
// from the origin and the default 4096 x 4096 x 4096, several seeds, and compare with a double-precision
// reference within lesson 01's tolerance, 4 x 2^-24 x sqrt(N) x C.
//
// Traps:
//   - Every thread of the block loads its share of both tiles and reaches both __syncthreads(), even
//     a thread whose C element is outside C: only its store is skipped.
//   - The tile of B is read by column: pad its rows to 17 (step 05) or the reads conflict in banks.
//   - M, K and N need not be multiples of 16: the tiles past the end are zeros, not out-of-bounds reads.
// Target: your time within 1.2x of the solution's on your GPU (on an H100 the solution takes 17.5 ms at
// size 4096x4096x4096); `./course grade` prints the ratio and says whether you met it (advisory: the
// grade does not depend on it).
#include "manhattan.h"

#include "course/check.h"
#include "course/errors.h"

namespace exercise01 {
namespace {

constexpr int kTile = 16;

// Block b computes the tile at row band b / tiles_across and column band b % tiles_across.
__global__ void manhattan_tiles(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                                std::size_t tiles_across) {
  // TODO 1: shared tiles of A and B (pad B's to 17 columns: why? see step 05).
  // TODO 2: row0 and col0 from blockIdx.x and tiles_across; a running sum.
  // TODO 3: for each slice of 16 elements: load one element of each tile (zero outside), barrier,
  //         add |a - b| over the 16 elements, barrier.
  // TODO 4: store the sum if (row0 + ty, col0 + tx) lies inside C.
}

}  // namespace

void manhattan_distances(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                         cudaStream_t stream) {
  const std::size_t tiles_across = (k + kTile - 1) / kTile, tiles = (m + kTile - 1) / kTile * tiles_across;
  if (tiles > 2147483647u) throw course::UsageError("m x k needs more than 2^31 - 1 tiles");
  manhattan_tiles<<<static_cast<unsigned>(tiles), dim3(kTile, kTile), 0, stream>>>(a, b, c, m, k, n, tiles_across);
  CUDA_CHECK_LAUNCH();
}

}  // namespace exercise01
