// Lesson 04, step 11: phase 2 as a min-plus product. Step 11 explains why it is exact; steps 12 and
// 14 launch the same panels, and step 13 the same tiles with its own kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "course/check.h"
#include "10_double_buffered_copies.cuh"

namespace floyd_warshall {

// The tiles of row kb and column kb, except the diagonal tile: grid (tiles - 1) x 2. Block x takes
// tile x of the row (blockIdx.y == 0) or of the column (blockIdx.y == 1), counting past the diagonal.
struct PanelTiles {
  __device__ static bool pick(int kb, int& bi, int& bj) {
    const int x = static_cast<int>(blockIdx.x), other = x < kb ? x : x + 1;
    bi = blockIdx.y == 0 ? kb : other;
    bj = blockIdx.y == 0 ? other : kb;
    return true;
  }
};

// Phase 2 of round kb: the panels, by the phase-3 kernel of steps 08 to 10. Needs phase 1 of round kb done.
template <int kTile>
void launch_panels(std::int32_t* d, int padded, int kb, cudaStream_t stream) {
  const int tiles = padded / kTile;
  if (tiles == 1) return;  // no panels
  min_plus_registers<PanelTiles, 2, kTile>
      <<<dim3(tiles - 1, 2), MicroTileBlock<kTile>::kThreads, 0, stream>>>(d, padded, kb);
  CUDA_CHECK_LAUNCH();
}

}  // namespace floyd_warshall
