// Tests of lesson 04's step 14 (lesson04_14_gpus_broadcast_pivot_rows_test): the distances from a band of
// tile rows on each GPU, with the pivot row broadcast every round, must equal the CPU reference exactly,
// on one GPU and on every GPU of the machine, in rounds of 64 and of 128, overlapped and in turn (on a
// machine of one GPU the two are the same test; the CTest test "lesson04.14_gpus_broadcast_pivot_rows:
// ... on 2 GPUs" runs the program on two, or is skipped).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "14_gpus_broadcast_pivot_rows.h"
#include "course/gpus.h"
#include "floyd_warshall.h"

namespace {

void require_matches(const std::vector<std::int32_t>& graph, std::size_t n, int gpus, int tile, bool in_turn) {
  const std::vector<std::int32_t> expected = floyd_warshall::reference_distances(graph, n);
  const std::vector<std::int32_t> got = gpus_floyd_warshall::run_on_gpus(graph, n, gpus, tile, in_turn);
  std::size_t wrong = 0, first = 0;
  for (std::size_t e = 0; e < n * n; ++e)
    if (got[e] != expected[e] && wrong++ == 0) first = e;
  INFO("n = " << n << " on " << (gpus == 0 ? course::gpu_count() : gpus) << " GPUs, rounds of " << tile
              << (in_turn ? ", in turn" : ", overlapped") << ": " << wrong << " wrong distances; first at ["
              << first / n << "][" << first % n << "]: got " << got[first] << ", expected " << expected[first]);
  REQUIRE(wrong == 0);
}


}  // namespace

TEST_CASE("equals the CPU's distances on one GPU and on every GPU, both schedules, both widths") {
  // Sizes that pad (the last band ends in padding vertices), bands that differ by a tile row, and one
  // tile row per GPU where the machine has as many.
  const int every = course::gpu_count();
  for (int tile : {64, 128})
    for (std::size_t n : {std::size_t(1), std::size_t(100), std::size_t(333), std::size_t(1000), std::size_t(2049)})
      for (int gpus : {1, 0}) {
        const std::size_t tile_rows = (n + tile - 1) / tile;
        if (gpus == 0 && tile_rows < static_cast<std::size_t>(every)) continue;  // refused: see below
        const std::vector<std::int32_t> graph = floyd_warshall::make_graph(floyd_warshall::graph_options(n, n + tile));
        for (bool in_turn : {false, true}) require_matches(graph, n, gpus, tile, in_turn);
      }
}

TEST_CASE("a chain through every vertex, whose every distance crosses every round and every band") {
  // 0 -> 1 -> ... -> n - 1 and nothing else: d[i][j] = the sum of the chain's weights from i to j, so
  // a pivot row that reached a GPU late, or a band that missed a round, leaves a wrong distance.
  const std::size_t n = 700;
  std::vector<std::int32_t> graph = floyd_warshall::graph_without_edges(n);
  for (std::size_t v = 0; v + 1 < n; ++v) graph[v * n + v + 1] = static_cast<std::int32_t>(1 + v % 5);
  for (int gpus : {1, 0})
    for (bool in_turn : {false, true}) require_matches(graph, n, gpus, 64, in_turn);
}

TEST_CASE("refuses more GPUs than tile rows, and more GPUs than the machine has, in one line") {
  const int every = course::gpu_count();
  REQUIRE_THROWS_WITH(gpus_floyd_warshall::run_on_gpus(floyd_warshall::graph_without_edges(10), 10, every + 1),
                      "--gpus " + std::to_string(every + 1) + ": this machine has " + std::to_string(every) +
                          (every == 1 ? " GPU" : " GPUs"));
  if (every > 1)
    REQUIRE_THROWS_WITH(gpus_floyd_warshall::run_on_gpus(floyd_warshall::graph_without_edges(10), 10, 2, 64),
                        "--gpus 2: n = 10 makes 1 tile row of 64, fewer than the GPUs (each needs at least one)");
}
