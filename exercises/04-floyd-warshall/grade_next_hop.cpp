// Grading test of exercise 04-A (path reconstruction). Built twice: against
// solutions/04-floyd-warshall/next_hop.cu (every case must pass) and against your
// exercises/04-floyd-warshall/next_hop.cu.
// Run it with:   ./course grade 04 next_hop
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "course/data.h"
#include "exercise_support.h"
#include "next_hop.h"

using exercise04::kNoVertex;
using exercise04::NextHopExercise;
using floyd_warshall::kNoEdge;

namespace {

// Runs the exercise on the GPU (outputs poisoned first), then checks the distances against the
// lesson's reference and the paths of `pairs` pairs (all of them when there are fewer).
void require_paths(const std::vector<std::int32_t>& graph, std::size_t n, std::size_t pairs = 3000) {
  const NextHopExercise::Input input{graph, n};
  const exercise04::PathsFound got = course::run_once<NextHopExercise>(input);
  const std::vector<std::int32_t>& dist = got.dist;
  const std::vector<std::int32_t>& next = got.next;
  const std::vector<std::int32_t> expected = NextHopExercise::reference(input);

  std::size_t wrong = 0, first = 0;
  for (std::size_t e = 0; e < n * n; ++e)
    if (dist[e] != expected[e] && wrong++ == 0) first = e;
  INFO("n = " << n << ": " << wrong << " wrong distances; first at [" << first / n << "][" << first % n << "]: got "
              << dist[first] << ", expected " << expected[first]);
  REQUIRE(wrong == 0);

  const course::CounterRng pick(n);
  const bool every_pair = n * n <= pairs;
  exercise04::PathsCall::Input asked{next, n, {}, {}};
  for (std::size_t p = 0; p < (every_pair ? n * n : pairs); ++p) {
    const std::size_t e = every_pair ? p : pick.bits(p) % (n * n);
    asked.from.push_back(static_cast<std::int32_t>(e / n));
    asked.to.push_back(static_cast<std::int32_t>(e % n));
  }
  const exercise04::PathsCall::Output routes = course::call_student<exercise04::PathsCall>(asked);
  REQUIRE(routes.size() == asked.from.size());
  for (std::size_t p = 0; p < asked.from.size(); ++p) {
    const std::int32_t from = asked.from[p], to = asked.to[p];
    const std::size_t e = static_cast<std::size_t>(from) * n + static_cast<std::size_t>(to);
    const std::vector<std::int32_t>& route = routes[p];
    INFO("path from " << from << " to " << to << " (shortest distance " << expected[e] << "), next hop "
                      << next[e] << ", your path has " << route.size() << " vertices");
    if (expected[e] == kNoEdge) {
      REQUIRE(next[e] == kNoVertex);
      REQUIRE(route.empty());
      continue;
    }
    REQUIRE_FALSE(route.empty());
    REQUIRE(route.front() == from);
    REQUIRE(route.back() == to);
    REQUIRE(route.size() <= n);
    std::int64_t length = 0;
    for (std::size_t s = 0; s + 1 < route.size(); ++s) {
      INFO("step " << s << ": " << route[s] << " -> " << route[s + 1]);
      REQUIRE((route[s + 1] >= 0 && static_cast<std::size_t>(route[s + 1]) < n));  // a vertex of the graph
      const std::int32_t w = graph[static_cast<std::size_t>(route[s]) * n + route[s + 1]];
      REQUIRE(w != kNoEdge);  // every step must be an edge of the graph
      length += w;
    }
    REQUIRE(length == expected[e]);
  }
}

}  // namespace

TEST_CASE("next_hop: awkward sizes and several seeds") {
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), std::size_t(1000)})
    for (std::uint64_t seed : {1, 2}) require_paths(exercise04::graph_for(n, seed), n);
}

TEST_CASE("next_hop: the default size") { require_paths(exercise04::graph_for(2048, 3), 2048); }

TEST_CASE("next_hop: unreachable vertices and a graph without edges") {
  require_paths(exercise04::graph_for(200, 4, 9), 200);
  require_paths(floyd_warshall::graph_without_edges(40), 40);
}

TEST_CASE("next_hop: zero-weight edges and ties") {
  auto g = exercise04::graph_for(300, 5, 1);
  for (auto& w : g)
    if (w != kNoEdge && w % 4 == 0) w = 0;
  require_paths(g, 300);
}

TEST_CASE("next_hop: one long chain, and a direct edge longer than the detour") {
  const std::size_t n = 129;
  auto chain = floyd_warshall::graph_without_edges(n);
  for (std::size_t v = 0; v + 1 < n; ++v) chain[v * n + v + 1] = 2;
  chain[0 * n + n - 1] = 1000;  // the chain (256) is shorter than the direct edge
  require_paths(chain, n);
}
