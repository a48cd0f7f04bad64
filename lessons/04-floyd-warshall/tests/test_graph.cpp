// Tests of lesson 04's graph generator, input validation, sentinel and references (no GPU needed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "course/errors.h"
#include "floyd_warshall.h"

using Catch::Matchers::Contains;
using floyd_warshall::kNoEdge;

TEST_CASE("two no-edge sentinels add without overflow and never win a min") {
  const std::int32_t sum = kNoEdge + kNoEdge;  // would be undefined behaviour if it overflowed
  REQUIRE(sum > kNoEdge);
  REQUIRE(std::min(kNoEdge, sum) == kNoEdge);
  REQUIRE(std::min(kNoEdge, kNoEdge + 0) == kNoEdge);  // a zero-weight edge to nowhere stays nowhere
}

TEST_CASE("the generator is seeded, has a zero diagonal and weights in range") {
  auto a = floyd_warshall::make_graph(floyd_warshall::graph_options(300, 1));
  REQUIRE(a == floyd_warshall::make_graph(floyd_warshall::graph_options(300, 1)));
  REQUIRE(a != floyd_warshall::make_graph(floyd_warshall::graph_options(300, 2)));
  std::size_t edges = 0;
  for (std::size_t i = 0; i < 300; ++i)
    for (std::size_t j = 0; j < 300; ++j) {
      const std::int32_t w = a[i * 300 + j];
      if (i == j) REQUIRE(w == 0);
      else if (w != kNoEdge) {
        ++edges;
        REQUIRE(w >= 1);
        REQUIRE(w <= 1000);
      }
    }
  REQUIRE(edges > 300);  // the chains alone give one edge per vertex, bar one per part
  REQUIRE_NOTHROW(floyd_warshall::validate_graph(a, 300, "generated"));
}

TEST_CASE("the generator leaves some pairs unreachable when there are several parts") {
  const std::size_t n = 200;
  const auto d =
      floyd_warshall::reference_distances(floyd_warshall::make_graph(floyd_warshall::graph_options(n, 3)), n);
  REQUIRE(std::count(d.begin(), d.end(), kNoEdge) > static_cast<long>(n));
  auto single = floyd_warshall::graph_options(n, 3);
  single.parts = 1;
  single.density = 1.0;
  const auto complete = floyd_warshall::reference_distances(floyd_warshall::make_graph(single), n);
  REQUIRE(std::count(complete.begin(), complete.end(), kNoEdge) == 0);
}

TEST_CASE("bad generator options are rejected") {
  auto o = floyd_warshall::graph_options(10, 1);
  o.density = 1.5;
  REQUIRE_THROWS_AS(floyd_warshall::make_graph(o), std::invalid_argument);
  o = floyd_warshall::graph_options(10, 1);
  o.parts = 0;
  REQUIRE_THROWS_AS(floyd_warshall::make_graph(o), std::invalid_argument);
  o = floyd_warshall::graph_options(40000, 1);
  o.max_weight = 1 << 20;  // 40000 edges of 2^20 would pass kNoEdge
  REQUIRE_THROWS_AS(floyd_warshall::make_graph(o), std::invalid_argument);
}

TEST_CASE("input validation names the first bad weight") {
  std::vector<std::int32_t> g{0, 5, kNoEdge, 0};
  REQUIRE_NOTHROW(floyd_warshall::validate_graph(g, 2, "g.bin"));
  g[3] = 1;
  REQUIRE_THROWS_WITH(floyd_warshall::validate_graph(g, 2, "g.bin"), Contains("g.bin") && Contains("[1][1]") && Contains("diagonal"));
  g[3] = 0;
  g[1] = -3;
  REQUIRE_THROWS_WITH(floyd_warshall::validate_graph(g, 2, "g.bin"), Contains("negative"));
  std::vector<std::int32_t> three(9, 0);
  three[1] = kNoEdge - 1;  // two such edges in a row would pass the sentinel
  REQUIRE_THROWS_WITH(floyd_warshall::validate_graph(three, 3, "g.bin"), Contains("too large"));
  three[1] = (kNoEdge - 1) / 2;
  REQUIRE_NOTHROW(floyd_warshall::validate_graph(three, 3, "g.bin"));
}

TEST_CASE("the reference agrees with Dijkstra's algorithm row by row") {
  for (std::uint64_t seed : {1, 2}) {
    const std::size_t n = 150;
    const auto graph = floyd_warshall::make_graph(floyd_warshall::graph_options(n, seed));
    const auto all = floyd_warshall::reference_distances(graph, n);
    for (std::size_t source : {std::size_t(0), std::size_t(77), n - 1}) {
      const auto row = floyd_warshall::distances_from(graph, n, source);
      INFO("seed " << seed << ", source " << source);
      REQUIRE(std::equal(row.begin(), row.end(), all.begin() + source * n));
    }
  }
}

TEST_CASE("the reference handles one vertex and a graph without edges") {
  REQUIRE(floyd_warshall::reference_distances({0}, 1) == std::vector<std::int32_t>{0});
  std::vector<std::int32_t> empty{0, kNoEdge, kNoEdge, 0};
  REQUIRE(floyd_warshall::reference_distances(empty, 2) == empty);
}
