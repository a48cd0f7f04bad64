// Lesson 04, Floyd-Warshall: what every step of the lesson shares on the host side.
//
// All-pairs shortest paths on a dense directed graph of n vertices. The graph is an n x n matrix of
// int32 weights in row-major order: graph[i * n + j] is the weight of the edge i -> j, kNoEdge where
// there is none, and 0 on the diagonal. Each step turns it into the matrix of shortest distances
// (kNoEdge where j cannot be reached from i). Every step file defines one `Step`, kThisStep; the
// lesson's main (step_main.cpp) hands it to the course's step skeleton with the `Lesson` below
// (arguments, graphs, the CPU reference, timing, verification, report); the tests run it through
// run_gpu_once(). Step 03 runs its own host side on one page, with the pieces below (load_input,
// Lesson::describe, report_gpu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "course/device.h"
#include "course/step_program.h"
#include "course/verify.h"

namespace floyd_warshall {

/// "No edge", and "unreachable" in the result: 2^30 - 1. Every step computes min(d, a + b) with a, b
/// and d at most kNoEdge, so a + b is at most 2^31 - 2 and never overflows an int32: the classic
/// INT_MAX + w bug cannot happen. A missing edge stays at least kNoEdge in every sum, so it never
/// improves a distance.
constexpr std::int32_t kNoEdge = (1 << 30) - 1;
static_assert(2LL * kNoEdge <= std::numeric_limits<std::int32_t>::max(), "two sentinels must add without overflow");

/// Default problem size (the size the original study timed).
constexpr std::size_t kDefaultVertices = 2048;

/// How the seeded generator draws a graph.
struct GraphOptions {
  std::size_t vertices = kDefaultVertices;  ///< n
  double density = 0.05;                    ///< chance of each possible edge inside a part
  std::int32_t max_weight = 1000;           ///< weights are drawn from [1, max_weight]
  int parts = 4;                            ///< vertices fall into this many parts with no edges between them
  std::uint64_t seed = 1;                   ///< generator seed
};

/// The generator's defaults with n vertices and @p seed (what the tests draw their graphs with).
inline GraphOptions graph_options(std::size_t n, std::uint64_t seed) {
  GraphOptions o;
  o.vertices = n;
  o.seed = seed;
  return o;
}

/// A seeded random graph: vertex v belongs to part hash(v) mod parts, edges only join vertices of the
/// same part (so some pairs are unreachable), each present with probability `density`, weights
/// uniform in [1, max_weight]; a chain through each part's vertices in index order makes long
/// shortest paths likely. Throws std::invalid_argument for bad options.
std::vector<std::int32_t> make_graph(const GraphOptions& options);

/// A graph of n vertices without a single edge: 0 on the diagonal, kNoEdge everywhere else.
std::vector<std::int32_t> graph_without_edges(std::size_t n);

/// Checks that `graph` is a valid input: zero diagonal, every weight in [0, kNoEdge], and weights
/// small enough that no path of n - 1 edges can reach kNoEdge. Throws course::UsageError naming the
/// first problem (`source` names the file in the message).
void validate_graph(const std::vector<std::int32_t>& graph, std::size_t n, const std::string& source);

/// The reference: Floyd-Warshall on the CPU, rows split over the cores with OpenMP.
std::vector<std::int32_t> reference_distances(const std::vector<std::int32_t>& graph, std::size_t n);

/// Shortest distances from one vertex, by Dijkstra's algorithm on the dense matrix (an independent
/// check of single rows for sizes where the full reference would take too long).
std::vector<std::int32_t> distances_from(const std::vector<std::int32_t>& graph, std::size_t n, std::size_t source);

/// How a GPU step launches for a given n: chosen once, outside the timed region.
struct LaunchPlan {
  int threads = 0;                ///< threads per block
  int blocks = 0;                 ///< blocks per grid (for steps that choose it)
  std::size_t padded = 0;         ///< n rounded up to the step's tile size (steps that pad)
  std::size_t scratch_bytes = 0;  ///< device scratch the step needs
  int tile = 0;                   ///< vertices per round (--tile, steps 08 to 14; 0: the step's choice)
  int chunk = 0;                  ///< --chunk (step 13): k values per copied slice of phase 3, 16 or 32 (0: the step's choice)
  int stages = 0;                 ///< --stages (step 13): shared-memory stages of phase 3, 2 or 3 (0: the step's choice)
  int rows = 0;                   ///< --rows (step 13): rows of a thread's micro-tile, 8 or 16 (0: the step's choice)
  int tiles_per_block = 0;        ///< --tiles-per-block (step 13): phase-3 tiles a block takes, 1 to 8 (0: the step's choice)
};

/// One rung of the ladder.
struct Step {
  const char* number;  ///< "07"
  const char* title;   ///< "blocked, shared-memory tiles"
  const char* kind;    ///< "cpu" or "gpu"

  /// CPU steps: distances of graph (n x n) into dist.
  void (*run_cpu)(const std::int32_t* graph, std::int32_t* dist, std::size_t n);

  /// GPU steps: picks the launch for n vertices; `requested` carries --threads/--blocks (0 = the
  /// step's choice).
  LaunchPlan (*plan)(std::size_t n, const course::DeviceFacts& device, const LaunchPlan& requested);

  /// GPU steps: enqueues into stream the distances of graph (device, n x n) into dist (device, n x n,
  /// poisoned by the caller). `scratch` holds plan.scratch_bytes bytes. Every launch is checked.
  void (*run_gpu)(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan& plan,
                  void* scratch, cudaStream_t stream);

  /// The size the program runs by default (smaller for the one-thread step).
  std::size_t default_vertices;
  /// The largest n the tests give this step (a single GPU thread cannot do n^3 work quickly).
  std::size_t largest_test_vertices;
  /// CPU steps: whether the step uses every core (reported as "CPU, N threads").
  bool all_cores = false;
  /// Whether the step takes --tile 64|128 (LaunchPlan::tile): the width of its rounds (steps 08 to 14).
  bool takes_tile = false;
  /// Whether the step takes --gpus K, --scaling and --in-turn (it runs on several GPUs): step 14.
  bool on_gpus = false;
  /// Whether the step takes --chunk 16|32, --stages 2|3, --rows 8|16 and --tiles-per-block 1|2|4|8
  /// (LaunchPlan::chunk, stages, rows, tiles_per_block): step 13.
  bool takes_slices = false;
};

/// The step a program or test was built with (each step file defines it).
extern const Step kThisStep;

/// What a step program was asked to do.
struct Request : course::StepRequest {
  GraphOptions graph;          ///< --n (or the step's default), --density, --max-weight, --parts, --seed
  std::string check = "auto";  ///< --check: full, sample or auto
  LaunchPlan requested;        ///< GPU steps: --threads, --blocks, --tile, --chunk, --stages, --rows, --tiles-per-block (0: the step's choice)
  long long gpus = 0;          ///< --gpus (step 14): how many GPUs, 0 for every GPU of the machine
  bool scaling = false;        ///< --scaling (step 14): the table of 1, 2, 4, ... GPUs instead of one run
  bool in_turn = false;        ///< --in-turn (step 14): each round's broadcast waited for, not overlapped
};

/// Lesson 04 as the course's step skeleton sees it (course/step_program.h): its options, its
/// measurement, and one run of a step. Every step program is course::step_main<Lesson>.
struct Lesson {
  using Step = floyd_warshall::Step;
  using Request = floyd_warshall::Request;
  static constexpr const char* kNumber = "04";
  static constexpr const char* kProblem = "Floyd-Warshall";
  static constexpr const char* kSummary = "All-pairs shortest paths of a seeded random graph.";
  static constexpr int kCpuReps = 2, kGpuReps = 10;
  static constexpr int kCpuWarmup = 0;  // one long CPU run needs no warm-up
  static constexpr const char* kSetByInput[] = {"n", "density", "max-weight", "parts"};
  static bool every_core(const Step& step) { return step.all_cores; }
  /// The graph's options (--n defaults to the step's size) and --check; --threads and --blocks for GPU
  /// steps; --tile for the steps that take it.
  static void declare(course::CommandLine& cli, const Step& step);
  static void read(const course::CommandLine& cli, const Step& step, Request& request);
  /// The step, the size, the add-mins (n^3) and the least traffic (the matrix read once, written once).
  static course::Measurement describe(const Step& step, const Request& request);
  /// Loads the graph, times the step (its distances poisoned before every run), checks and reports.
  static int run(const Step& step, Request& request);
};

/// A step's input: the graph (n x n, row-major) and n.
struct Input {
  std::vector<std::int32_t> graph;
  std::size_t n = 0;
};

/// The input: the graph of --input (square, and checked by validate_graph), or a seeded graph drawn
/// with request.graph. Throws course::UsageError for a bad file or weights too large for n.
Input load_input(const Request& request);

/// Finishes a GPU step's measurement: checks `dist` exactly (against the CPU reference, or rows by
/// Dijkstra, as --check says), adds the GPU and its integer ceiling, prints the report and writes
/// --output. Returns the program's exit code (0 only on PASS). A step on @p gpus GPUs (step 14) names
/// them, says how it launched (@p launch) and counts every GPU's issue rate in its ceiling.
int report_gpu(course::Measurement m, const Input& in, const std::vector<std::int32_t>& dist,
               const Request& request, int gpus = 1, const std::string& launch = "");

/// The check --check (`how`) asks for: every distance against the CPU reference, or sampled rows by
/// Dijkstra; a verdict on @p got, the distances of @p graph.
course::Verdict check_distances(const std::vector<std::int32_t>& graph, std::size_t n,
                                const std::vector<std::int32_t>& got, const std::string& how);

/// Runs a GPU step once on `graph` and returns the distances (the output poisoned first). Used by the
/// tests. Throws course::CudaError on any CUDA failure.
std::vector<std::int32_t> run_gpu_once(const Step& step, const std::vector<std::int32_t>& graph, std::size_t n,
                                       const LaunchPlan& requested = {});

}  // namespace floyd_warshall
