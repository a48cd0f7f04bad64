// Tests of one GPU step of lesson 04, built once per step (lesson04_NN_..._test): the distances must
// equal the CPU reference exactly on awkward sizes, several seeds, and the graphs where shortest-path
// codes typically go wrong.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "course/test_sizes.h"
#include "floyd_warshall.h"

using floyd_warshall::kNoEdge;
using floyd_warshall::kThisStep;

namespace {


void require_step_matches(const std::vector<std::int32_t>& graph, std::size_t n,
                          const floyd_warshall::LaunchPlan& requested = {}) {
  const auto expected = floyd_warshall::reference_distances(graph, n);
  const auto got = floyd_warshall::run_gpu_once(kThisStep, graph, n, requested);
  std::size_t wrong = 0, first = 0;
  for (std::size_t e = 0; e < n * n; ++e)
    if (got[e] != expected[e] && wrong++ == 0) first = e;
  INFO("step " << kThisStep.number << ", n = " << n << ", threads " << requested.threads << ", blocks "
               << requested.blocks << (requested.tile ? ", tile " + std::to_string(requested.tile) : "")
               << (requested.chunk ? ", chunk " + std::to_string(requested.chunk) : "")
               << (requested.stages ? ", stages " + std::to_string(requested.stages) : "")
               << (requested.rows ? ", rows " + std::to_string(requested.rows) : "")
               << (requested.tiles_per_block ? ", tiles a block " + std::to_string(requested.tiles_per_block) : "")
               << ": " << wrong
               << " wrong distances; first at [" << first / n << "][" << first % n << "]: got "
               << got[first] << ", expected " << expected[first]);
  REQUIRE(wrong == 0);
}

std::vector<std::size_t> sizes_for_this_step() {
  std::vector<std::size_t> sizes;
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), std::size_t(64),
                        std::size_t(1000), std::size_t(2049)})
    if (n <= kThisStep.largest_test_vertices) sizes.push_back(n);
  return sizes;
}


// Which way the chain of require_option_matches runs: 0 -> 1 -> ... (weights 1 to 5) or the other way
// (weights 1 to 7).
enum class Chain { kForward, kBackward };

// A launch option (--tile, --chunk, --stages) gives the CPU's distances on seeded graphs up to n = 1000
// and on one chain of n = 300 (fewer where the step is tested smaller), whose every distance runs
// through every round.
void require_option_matches(const floyd_warshall::LaunchPlan& requested, std::uint64_t seed, Chain way) {
  for (std::size_t n : sizes_for_this_step())
    if (n <= 1000)
      require_step_matches(floyd_warshall::make_graph(floyd_warshall::graph_options(n, seed)), n, requested);
  const std::size_t n = std::min<std::size_t>(300, kThisStep.largest_test_vertices);
  auto chain = floyd_warshall::graph_without_edges(n);
  if (way == Chain::kForward)
    for (std::size_t v = 0; v + 1 < n; ++v) chain[v * n + v + 1] = static_cast<std::int32_t>(1 + v % 5);
  else
    for (std::size_t v = n - 1; v > 0; --v) chain[v * n + v - 1] = static_cast<std::int32_t>(1 + v % 7);
  require_step_matches(chain, n, requested);
}

}  // namespace

TEST_CASE("matches the CPU on awkward sizes and several seeds") {
  for (std::size_t n : sizes_for_this_step())
    for (auto seed : course::test_seeds()) {
      if (n > 100 && seed > 1) continue;  // one seed is enough for the big ones
      require_step_matches(floyd_warshall::make_graph(floyd_warshall::graph_options(n, seed)), n);
    }
}

TEST_CASE("matches the CPU at the default size") {
  const std::size_t n = std::min(kThisStep.default_vertices, kThisStep.largest_test_vertices);
  require_step_matches(floyd_warshall::make_graph(floyd_warshall::graph_options(n, 5)), n);
}

TEST_CASE("a graph without edges: everything stays unreachable") {
  for (std::size_t n : sizes_for_this_step()) {
    const auto graph = floyd_warshall::graph_without_edges(n);
    const auto got = floyd_warshall::run_gpu_once(kThisStep, graph, n);
    INFO("n = " << n);
    REQUIRE(got == graph);  // kNoEdge + kNoEdge never wrapped round to something small
  }
}

TEST_CASE("unreachable parts, dense parts and zero weights") {
  const std::size_t n = std::min<std::size_t>(200, kThisStep.largest_test_vertices);
  auto o = floyd_warshall::graph_options(n, 9);
  o.parts = 7;  // many pairs unreachable
  require_step_matches(floyd_warshall::make_graph(o), n);
  o.parts = 1;
  o.density = 1.0;  // complete graph
  require_step_matches(floyd_warshall::make_graph(o), n);
  auto zero = floyd_warshall::make_graph(floyd_warshall::graph_options(n, 10));
  for (auto& w : zero)
    if (w != kNoEdge && w % 3 == 0) w = 0;  // zero-weight edges make many ties
  require_step_matches(zero, n);
}

TEST_CASE("a single chain: every distance runs through all the vertices before it") {
  const std::size_t n = std::min<std::size_t>(300, kThisStep.largest_test_vertices);
  auto chain = floyd_warshall::graph_without_edges(n);
  for (std::size_t v = 0; v + 1 < n; ++v) chain[v * n + v + 1] = static_cast<std::int32_t>(1 + v % 7);
  require_step_matches(chain, n);
}

TEST_CASE("the largest allowed weights never overflow") {
  const std::size_t n = std::min<std::size_t>(33, kThisStep.largest_test_vertices);
  const std::int32_t heaviest = static_cast<std::int32_t>((kNoEdge - 1) / static_cast<std::int64_t>(n - 1));
  auto heavy = floyd_warshall::graph_without_edges(n);
  for (std::size_t v = 0; v + 1 < n; ++v) heavy[v * n + v + 1] = heaviest;  // the longest path nearly reaches kNoEdge
  floyd_warshall::validate_graph(heavy, n, "test graph");
  require_step_matches(heavy, n);
  const auto got = floyd_warshall::run_gpu_once(kThisStep, heavy, n);
  REQUIRE(got[n - 1] == heaviest * static_cast<std::int32_t>(n - 1));
  REQUIRE(*std::min_element(got.begin(), got.end()) >= 0);
}

TEST_CASE("any launch configuration gives the same distances") {
  const std::size_t n = std::min<std::size_t>(257, kThisStep.largest_test_vertices);
  const auto graph = floyd_warshall::make_graph(floyd_warshall::graph_options(n, 12));
  for (int threads : {32, 96, 1024})
    for (int blocks : {0, 1, 7}) {
      floyd_warshall::LaunchPlan requested;
      requested.threads = threads;
      requested.blocks = blocks;
      require_step_matches(graph, n, requested);
    }
}

TEST_CASE("rounds of 64 and of 128 (--tile 64, --tile 128) give the same distances") {
  // Steps 08 to 13 take the option: their kernels on tiles of 64 (phase 3 in blocks of 64 threads) or
  // of 128, whatever the width they would choose for n. The other steps ignore it and must still be right.
  for (int tile : {64, 128}) {
    floyd_warshall::LaunchPlan requested;
    requested.tile = tile;
    require_option_matches(requested, 14, Chain::kForward);
  }
}

namespace {

// Every width, chunk and stage count of step 13 with `rows` and `tiles_per_block` (0: the step's
// choice); seeds from first_seed on. Three stages run the chain the other way.
void require_every_slice_shape_matches(int rows, int tiles_per_block, std::uint64_t first_seed) {
  for (int tile : {64, 128})
    for (int chunk : {16, 32})
      for (int stages : {2, 3}) {
        floyd_warshall::LaunchPlan requested;
        requested.tile = tile;
        requested.chunk = chunk;
        requested.stages = stages;
        requested.rows = rows;
        requested.tiles_per_block = tiles_per_block;
        require_option_matches(requested, first_seed + static_cast<std::uint64_t>(stages),
                               stages == 3 ? Chain::kBackward : Chain::kForward);
      }
}

}  // namespace

TEST_CASE("slices of 16 and 32 in 2 and 3 stages (--chunk, --stages) give the same distances") {
  // Step 13 takes the options, at either width; the other steps ignore them and must still be right.
  require_every_slice_shape_matches(0, 0, 16);
}

TEST_CASE("micro-tiles of 16 rows and several tiles a block (--rows, --tiles-per-block) give the same distances") {
  // Step 13 takes the options with every width, chunk and stage count; the other steps ignore them.
  // Several tiles a block run with 16 rows; 4 at every shape, 2 and 8 at the step's own.
  for (int tiles_per_block : {1, 4}) require_every_slice_shape_matches(16, tiles_per_block, 20);
  for (int tiles_per_block : {2, 8}) {
    floyd_warshall::LaunchPlan requested;
    requested.tiles_per_block = tiles_per_block;
    require_option_matches(requested, 30, Chain::kForward);
  }
}
