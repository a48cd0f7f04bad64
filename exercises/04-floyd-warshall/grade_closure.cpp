// Grading test of exercise 04-B (transitive closure). Built twice: against
// solutions/04-floyd-warshall/closure.cu (every case must pass) and against your
// exercises/04-floyd-warshall/closure.cu.
// Run it with:   ./course grade 04 closure
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "closure.h"
#include "course/buffers.h"
#include "exercise_support.h"

using floyd_warshall::kNoEdge;

namespace {

// 1 where the weighted graph has an edge i -> j (i != j), 0 elsewhere.
std::vector<std::uint8_t> adjacency_of(const std::vector<std::int32_t>& graph, std::size_t n) {
  std::vector<std::uint8_t> a(n * n, 0);
  for (std::size_t e = 0; e < n * n; ++e) a[e] = e / n != e % n && graph[e] != kNoEdge;
  return a;
}

void require_closure(const std::vector<std::uint8_t>& adjacency, std::size_t n) {
  // The reference: j is reachable from i exactly when the shortest distance with unit weights is finite.
  std::vector<std::int32_t> unit(n * n, kNoEdge);
  for (std::size_t e = 0; e < n * n; ++e) unit[e] = e / n == e % n ? 0 : (adjacency[e] ? 1 : kNoEdge);
  const std::vector<std::int32_t> dist = floyd_warshall::reference_distances(unit, n);

  course::DeviceBuffer<std::uint8_t> d_adjacency(n * n), d_reach(n * n);
  course::DeviceBuffer<unsigned char> scratch(exercise04::closure_scratch_bytes(n));
  d_adjacency.upload(adjacency);
  d_reach.poison();
  exercise04::transitive_closure(d_adjacency.data(), d_reach.data(), n, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<std::uint8_t> reach = d_reach.to_host();

  std::size_t wrong = 0, first = 0;
  for (std::size_t e = 0; e < n * n; ++e)
    if (reach[e] != (dist[e] != kNoEdge ? 1 : 0) && wrong++ == 0) first = e;
  INFO("n = " << n << ": " << wrong << " wrong entries; first at [" << first / n << "][" << first % n << "]: got "
              << int(reach[first]) << ", expected " << (dist[first] != kNoEdge ? 1 : 0));
  REQUIRE(wrong == 0);
}

}  // namespace

TEST_CASE("closure: awkward sizes and several seeds") {
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), std::size_t(1000)})
    for (std::uint64_t seed : {1, 2}) require_closure(adjacency_of(exercise04::graph_for(n, seed), n), n);
}

TEST_CASE("closure: the default size") {
  require_closure(adjacency_of(exercise04::graph_for(2048, 3), 2048), 2048);
}

TEST_CASE("closure: no edges, so every vertex reaches only itself") {
  for (std::size_t n : {std::size_t(1), std::size_t(64), std::size_t(65)})
    require_closure(std::vector<std::uint8_t>(n * n, 0), n);
}

TEST_CASE("closure: complete graphs and graphs in unconnected parts") {
  for (std::size_t n : {std::size_t(2), std::size_t(100)}) {
    std::vector<std::uint8_t> complete(n * n, 1);
    for (std::size_t v = 0; v < n; ++v) complete[v * n + v] = 0;
    require_closure(complete, n);
  }
  require_closure(adjacency_of(exercise04::graph_for(300, 6, 10), 300), 300);
}

TEST_CASE("closure: one long chain reaches everything after it") {
  for (std::size_t n : {std::size_t(97), std::size_t(256)}) {
    std::vector<std::uint8_t> chain(n * n, 0);
    for (std::size_t v = 0; v + 1 < n; ++v) chain[v * n + v + 1] = 1;
    require_closure(chain, n);
  }
}
