// Times exercise 04-A (distances with next hops) at n = 2048 and prints one course measurement; built
// against your code (exercise04_next_hop_bench) and against the solution.
#include <memory>

#include "exercise_support.h"
#include "next_hop.h"

int main(int argc, char** argv) {
  return exercise04::bench_main(argc, argv, "distances with next hops", [](const std::vector<std::int32_t>& graph,
                                                                           std::size_t n) {
    struct Buffers {
      course::DeviceBuffer<std::int32_t> graph, dist, next;
    };
    auto b = std::make_shared<Buffers>(Buffers{course::DeviceBuffer<std::int32_t>(n * n, "graph"),
                                               course::DeviceBuffer<std::int32_t>(n * n, "distances"),
                                               course::DeviceBuffer<std::int32_t>(n * n, "next hops")});
    b->graph.upload(graph);
    exercise04::Benchmark bench;
    bench.run = [b, n](cudaStream_t s) {
      exercise04::shortest_paths_with_next_hops(b->graph.data(), b->dist.data(), b->next.data(), n, s);
    };
    bench.poison = [b](cudaStream_t s) {
      b->dist.poison(s);
      b->next.poison(s);
    };
    bench.check = [b, n, graph] {
      const auto expected = floyd_warshall::reference_distances(graph, n);
      const auto got = b->dist.to_host();
      return course::compare_exact(got.data(), expected.data(), n * n);
    };
    return bench;
  });
}
