// Tests of lesson 04's CPU step against the reference (and the reference against Dijkstra's algorithm,
// in test_graph.cpp).
#include <catch2/catch.hpp>

#include <vector>

#include "course/test_sizes.h"
#include "floyd_warshall.h"

TEST_CASE("matches the reference on awkward sizes and several seeds") {
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), std::size_t(300)})
    for (auto seed : course::test_seeds()) {
      floyd_warshall::GraphOptions o;
      o.vertices = n;
      o.seed = seed;
      const auto graph = floyd_warshall::make_graph(o);
      std::vector<std::int32_t> dist(n * n, -1);
      floyd_warshall::kThisStep.run_cpu(graph.data(), dist.data(), n);
      INFO("n = " << n << ", seed " << seed);
      REQUIRE(dist == floyd_warshall::reference_distances(graph, n));
    }
}
