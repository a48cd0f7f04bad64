// Lesson 04, step 14: what its tests call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpus_floyd_warshall {

/// The distances of @p graph (n x n, row-major) on GPUs 0 .. gpus - 1 (0: every GPU), step 14's way: a
/// band of tile rows on each GPU, the pivot row broadcast every round (ahead of phase 3, or in turn with
/// @p in_turn), in rounds of @p tile (64 or 128; 0: the step's choice); as GPU 0 holds them afterwards.
std::vector<std::int32_t> run_on_gpus(const std::vector<std::int32_t>& graph, std::size_t n, int gpus, int tile = 0,
                                      bool in_turn = false);

}  // namespace gpus_floyd_warshall
