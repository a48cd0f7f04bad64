// Lesson 04 exercises: their problems as the course's exercise harness sees them (course/exercise.h),
// for the grading tests and the benchmarks. You do not need to read or change this file to do the
// exercises.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "closure.h"
#include "course/buffers.h"
#include "course/exercise.h"
#include "floyd_warshall.h"
#include "next_hop.h"

namespace exercise04 {

/// A seeded graph of lesson 04 with n vertices (4 parts, 5% density, weights 1..1000).
inline std::vector<std::int32_t> graph_for(std::size_t n, std::uint64_t seed, int parts = 4) {
  floyd_warshall::GraphOptions o;
  o.vertices = n;
  o.seed = seed;
  o.parts = parts;
  return floyd_warshall::make_graph(o);
}

/// An n x n matrix of a graph's vertices, row-major: entry i * n + j is about the pair i -> j.
template <class T>
struct Matrix {
  std::vector<T> entries;
  std::size_t n = 0;
};

/// What both exercises share: a problem over every pair of n vertices (2048 in the benchmark), whose
/// work is n^3 steps of the Floyd-Warshall scheme. A failure names the worst pair as [from][to].
template <class Entry>
struct AllPairs {
  static constexpr const char* kLesson = "04";
  static constexpr int kReps = 5;
  using Input = Matrix<Entry>;
  static void declare(course::CommandLine& cli) {
    cli.add_size("n", floyd_warshall::kDefaultVertices, "number of vertices", 1, 46340);
  }
  static void count(const Input& in, course::Measurement& m) {
    m.size = "n=" + std::to_string(in.n);
    m.operations = static_cast<double>(in.n) * in.n * in.n;
    m.rate_unit = "Gop/s";
  }
  /// The bytes any solution must move: the n x n input read once (the judge's floor on a reported time).
  static double compulsory_bytes(const Input& in) { return static_cast<double>(in.n) * in.n * sizeof(Entry); }
};

/// The student's path() for many pairs at once, as the grading test asks for them: one call of the
/// student's function per pair. Under ./course grade-class it runs in the student's contestant
/// (course::call_student), the next hops sent once for all the pairs.
struct PathsCall {
  static constexpr std::uint32_t kNumber = 1;
  struct Input {
    std::vector<std::int32_t> next;  ///< n x n next hops
    std::uint64_t n = 0;
    std::vector<std::int32_t> from, to;  ///< the pairs
  };
  using Output = std::vector<std::vector<std::int32_t>>;  ///< one path per pair
  static Output call(const Input& in) {
    Output paths;
    for (std::size_t p = 0; p < in.from.size() && p < in.to.size(); ++p)
      paths.push_back(path(in.next.data(), static_cast<std::size_t>(in.n), in.from[p], in.to[p]));
    return paths;
  }
  /// The most bytes the paths take on the wire: every path at most n vertices (a longer one is wrong,
  /// and refused unread).
  static std::size_t output_limit(const Input& in) { return 8 + in.from.size() * (8 + 4 * static_cast<std::size_t>(in.n)); }
};

/// The distances and the next hops of every pair: the answer of exercise 04-A.
struct PathsFound {
  std::vector<std::int32_t> dist, next;
};

/// Exercise 04-A: shortest distances of a weighted graph and, for every pair, the next vertex on a
/// shortest path.
struct NextHopExercise : AllPairs<std::int32_t> {
  static constexpr const char* kTitle = "distances with next hops";
  using Output = PathsFound;
  using HostCalls = std::tuple<PathsCall>;

  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    const std::size_t n = cli.size("n");
    return {graph_for(n, seed), n};
  }
  /// The shortest distances (lesson 04's reference).
  static std::vector<std::int32_t> reference(const Input& graph) {
    return floyd_warshall::reference_distances(graph.entries, graph.n);
  }
  /// The answer: the distances, then the next hops, n x n each.
  static Output read_answer(const Input& graph, course::AnswerReader& answer) {
    PathsFound got;
    got.dist = answer.take_vector<std::int32_t>(graph.n * graph.n);
    got.next = answer.take_vector<std::int32_t>(graph.n * graph.n);
    return got;
  }
  /// The benchmark checks the distances; the grading test walks the paths as well.
  static course::CheckResult check(const Input& graph, const Output& got) {
    const std::vector<std::int32_t> expected = reference(graph);
    return course::checked(course::compare_exact(got.dist.data(), expected.data(), graph.n * graph.n), graph.n);
  }

  /// The graph, the distances and the next hops in device memory; run() calls
  /// shortest_paths_with_next_hops.
  class OnDevice {
   public:
    explicit OnDevice(const Input& graph)
        : n_(graph.n), graph_(n_ * n_, "graph"), dist_(n_ * n_, "distances"), next_(n_ * n_, "next hops") {
      graph_.upload(graph.entries);
    }
    void poison(cudaStream_t stream) {
      dist_.poison(stream);
      next_.poison(stream);
    }
    void run(cudaStream_t stream) {
      shortest_paths_with_next_hops(graph_.data(), dist_.data(), next_.data(), n_, stream);
    }
    course::AnswerSpans answer() const { return {dist_.whole(), next_.whole()}; }

   private:
    std::size_t n_;
    course::DeviceBuffer<std::int32_t> graph_, dist_, next_;
  };
};

/// Exercise 04-B: transitive closure, which vertices reach which.
struct ClosureExercise : AllPairs<std::uint8_t> {
  static constexpr const char* kTitle = "transitive closure";
  using Output = std::vector<std::uint8_t>;  ///< reach, n x n

  /// 1 where the weighted graph has an edge i -> j (i != j), 0 elsewhere.
  static std::vector<std::uint8_t> adjacency_of(const std::vector<std::int32_t>& graph, std::size_t n) {
    std::vector<std::uint8_t> a(n * n, 0);
    for (std::size_t e = 0; e < n * n; ++e) a[e] = e / n != e % n && graph[e] != floyd_warshall::kNoEdge;
    return a;
  }
  /// The benchmark's adjacency: the edges of a seeded lesson 04 graph.
  static Input generate(const course::CommandLine& cli, std::uint64_t seed) {
    const std::size_t n = cli.size("n");
    return {adjacency_of(graph_for(n, seed), n), n};
  }
  /// The reference: j is reachable from i exactly when the shortest distance with unit weights is finite.
  static Output reference(const Input& adjacency) {
    const std::size_t n = adjacency.n;
    std::vector<std::int32_t> unit(n * n);
    for (std::size_t e = 0; e < n * n; ++e)
      unit[e] = e / n == e % n ? 0 : (adjacency.entries[e] ? 1 : floyd_warshall::kNoEdge);
    const std::vector<std::int32_t> dist = floyd_warshall::reference_distances(unit, n);
    Output reach(n * n);
    for (std::size_t e = 0; e < n * n; ++e) reach[e] = dist[e] != floyd_warshall::kNoEdge;
    return reach;
  }
  /// The answer: reach, n x n.
  static Output read_answer(const Input& adjacency, course::AnswerReader& answer) {
    return answer.take_vector<std::uint8_t>(adjacency.n * adjacency.n);
  }
  static course::CheckResult check(const Input& adjacency, const Output& got) {
    const Output expected = reference(adjacency);
    return course::checked(course::compare_exact(got.data(), expected.data(), expected.size()), adjacency.n);
  }

  /// The adjacency, the reach and the student's scratch in device memory; run() calls
  /// transitive_closure.
  class OnDevice {
   public:
    explicit OnDevice(const Input& adjacency)
        : n_(adjacency.n),
          adjacency_(n_ * n_, "adjacency"),
          reach_(n_ * n_, "reach"),
          scratch_(closure_scratch_bytes(n_), "scratch") {
      adjacency_.upload(adjacency.entries);
    }
    void poison(cudaStream_t stream) { reach_.poison(stream); }
    void run(cudaStream_t stream) { transitive_closure(adjacency_.data(), reach_.data(), n_, scratch_.data(), stream); }
    course::AnswerSpans answer() const { return {reach_.whole()}; }

   private:
    std::size_t n_;
    course::DeviceBuffer<std::uint8_t> adjacency_, reach_;
    course::DeviceBuffer<unsigned char> scratch_;
  };
};

}  // namespace exercise04

namespace course::wire {
template <>
struct Fields<exercise04::PathsCall::Input>
    : FieldsAre<&exercise04::PathsCall::Input::next,
                &exercise04::PathsCall::Input::n,
                &exercise04::PathsCall::Input::from,
                &exercise04::PathsCall::Input::to> {};
template <class T>
struct Fields<exercise04::Matrix<T>> : FieldsAre<&exercise04::Matrix<T>::entries, &exercise04::Matrix<T>::n> {};
}  // namespace course::wire
