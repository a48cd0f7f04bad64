// Times exercise 04-B (transitive closure) at n = 2048 and prints one course measurement; built
// against your code (exercise04_closure_bench) and against the solution.
#include <memory>

#include "closure.h"
#include "exercise_support.h"

int main(int argc, char** argv) {
  return exercise04::bench_main(argc, argv, "transitive closure", [](const std::vector<std::int32_t>& graph,
                                                                     std::size_t n) {
    std::vector<std::uint8_t> adjacency(n * n);
    std::vector<std::int32_t> unit(n * n);
    for (std::size_t e = 0; e < n * n; ++e) {
      const bool edge = e / n != e % n && graph[e] != floyd_warshall::kNoEdge;
      adjacency[e] = edge;
      unit[e] = e / n == e % n ? 0 : (edge ? 1 : floyd_warshall::kNoEdge);
    }
    struct Buffers {
      course::DeviceBuffer<std::uint8_t> adjacency, reach;
      course::DeviceBuffer<unsigned char> scratch;
    };
    auto b = std::make_shared<Buffers>(Buffers{course::DeviceBuffer<std::uint8_t>(n * n, "adjacency"),
                                               course::DeviceBuffer<std::uint8_t>(n * n, "reach"),
                                               course::DeviceBuffer<unsigned char>(exercise04::closure_scratch_bytes(n))});
    b->adjacency.upload(adjacency);
    exercise04::Benchmark bench;
    bench.run = [b, n](cudaStream_t s) {
      exercise04::transitive_closure(b->adjacency.data(), b->reach.data(), n, b->scratch.data(), s);
    };
    bench.poison = [b](cudaStream_t s) { b->reach.poison(s); };
    bench.check = [b, n, unit] {
      const auto dist = floyd_warshall::reference_distances(unit, n);
      std::vector<std::uint8_t> expected(n * n);
      for (std::size_t e = 0; e < n * n; ++e) expected[e] = dist[e] != floyd_warshall::kNoEdge;
      const auto got = b->reach.to_host();
      return course::compare_exact(got.data(), expected.data(), n * n);
    };
    return bench;
  });
}
