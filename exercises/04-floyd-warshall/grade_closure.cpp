// Grading test of exercise 04-B (transitive closure). Built twice: against
// solutions/04-floyd-warshall/closure.cu (every case must pass) and against your
// exercises/04-floyd-warshall/closure.cu.
// Run it with:   ./course grade 04 closure
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "closure.h"
#include "exercise_support.h"

using exercise04::ClosureExercise;

namespace {

void require_closure(const std::vector<std::uint8_t>& adjacency, std::size_t n) {
  const ClosureExercise::Input input{adjacency, n};
  const std::vector<std::uint8_t> expected = ClosureExercise::reference(input);
  const std::vector<std::uint8_t> reach = course::run_once<ClosureExercise>(input);

  std::size_t wrong = 0, first = 0;
  for (std::size_t e = 0; e < n * n; ++e)
    if (reach[e] != expected[e] && wrong++ == 0) first = e;
  INFO("n = " << n << ": " << wrong << " wrong entries; first at [" << first / n << "][" << first % n << "]: got "
              << int(reach[first]) << ", expected " << int(expected[first]));
  REQUIRE(wrong == 0);
}

}  // namespace

TEST_CASE("closure: awkward sizes and several seeds") {
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(31), std::size_t(33), std::size_t(1000)})
    for (std::uint64_t seed : {1, 2})
      require_closure(ClosureExercise::adjacency_of(exercise04::graph_for(n, seed), n), n);
}

TEST_CASE("closure: the default size") {
  require_closure(ClosureExercise::adjacency_of(exercise04::graph_for(2048, 3), 2048), 2048);
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
  require_closure(ClosureExercise::adjacency_of(exercise04::graph_for(300, 6, 10), 300), 300);
}

TEST_CASE("closure: one long chain reaches everything after it") {
  for (std::size_t n : {std::size_t(97), std::size_t(256)}) {
    std::vector<std::uint8_t> chain(n * n, 0);
    for (std::size_t v = 0; v + 1 < n; ++v) chain[v * n + v + 1] = 1;
    require_closure(chain, n);
  }
}
