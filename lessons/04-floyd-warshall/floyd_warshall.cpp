// Lesson 04, Floyd-Warshall: what the lesson's step programs share. The course's step skeleton
// (course/step_program.h) parses the command line; the lesson makes or reads the graph, runs the step
// (timed, with the output poisoned before every run), checks the distances exactly (they are integers)
// and reports.
#include "floyd_warshall.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/data.h"
#include "course/errors.h"
#include "course/verify.h"

namespace floyd_warshall {

std::vector<std::int32_t> make_graph(const GraphOptions& o) {
  if (o.vertices == 0) throw std::invalid_argument("a graph needs at least one vertex");
  if (!(o.density >= 0.0 && o.density <= 1.0)) throw std::invalid_argument("density must lie in [0, 1]");
  if (o.parts < 1) throw std::invalid_argument("a graph has at least one part");
  if (o.max_weight < 1 || static_cast<double>(o.max_weight) * (o.vertices - 1) >= kNoEdge)
    throw std::invalid_argument("max_weight must be at least 1 and keep every path below kNoEdge");
  const std::size_t n = o.vertices;
  const course::CounterRng part_of(o.seed ^ 0x5061727473ull), coin(o.seed), weight(o.seed + 0x9E37ull);
  std::vector<int> part(n);
  for (std::size_t v = 0; v < n; ++v) part[v] = static_cast<int>(part_of.bits(v) % static_cast<unsigned>(o.parts));
  std::vector<std::int32_t> g(n * n, kNoEdge);
  auto draw_weight = [&](std::size_t index) {
    return static_cast<std::int32_t>(1 + weight.bits(index) % static_cast<std::uint64_t>(o.max_weight));
  };
  const long long rows = static_cast<long long>(n);
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    const std::size_t i = static_cast<std::size_t>(r);
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t index = i * n + j;
      if (i == j) g[index] = 0;
      else if (part[i] == part[j] && coin.open_unit(index) < o.density) g[index] = draw_weight(index);
    }
  }
  // A chain through each part, in index order: long shortest paths that cross many k.
  std::vector<std::size_t> last(static_cast<std::size_t>(o.parts), n);
  for (std::size_t v = 0; v < n; ++v) {
    std::size_t& previous = last[static_cast<std::size_t>(part[v])];
    if (previous != n) g[previous * n + v] = std::min(g[previous * n + v], draw_weight(previous * n + v));
    previous = v;
  }
  return g;
}

std::vector<std::int32_t> graph_without_edges(std::size_t n) {
  std::vector<std::int32_t> g(n * n, kNoEdge);
  for (std::size_t v = 0; v < n; ++v) g[v * n + v] = 0;
  return g;
}

void validate_graph(const std::vector<std::int32_t>& g, std::size_t n, const std::string& source) {
  // No path has more than n - 1 edges, so weights up to this bound keep every distance below kNoEdge.
  const std::int64_t largest = n > 1 ? (kNoEdge - 1) / static_cast<std::int64_t>(n - 1) : kNoEdge - 1;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::int32_t w = g[i * n + j];
      const std::string where = source + ": weight [" + std::to_string(i) + "][" + std::to_string(j) + "] = " +
                                std::to_string(w);
      if (i == j && w != 0) throw course::UsageError(where + ": the diagonal must be 0");
      if (w < 0) throw course::UsageError(where + ": negative weights are not supported");
      if (w != kNoEdge && w > largest)
        throw course::UsageError(where + " is too large: with " + std::to_string(n) + " vertices weights must be at most " +
                                 std::to_string(largest) + " (or " + std::to_string(kNoEdge) + " for no edge)");
    }
}

std::vector<std::int32_t> reference_distances(const std::vector<std::int32_t>& graph, std::size_t n) {
  std::vector<std::int32_t> d = graph;
  const long long rows = static_cast<long long>(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::int32_t* __restrict__ row_k = d.data() + k * n;
#pragma omp parallel for schedule(static)
    for (long long r = 0; r < rows; ++r) {
      const std::size_t i = static_cast<std::size_t>(r);
      const std::int32_t d_ik = d[i * n + k];
      if (i == k || d_ik == kNoEdge) continue;  // row k cannot change in round k; nor can unreachable rows
      // Rows i and k are different rows (i != k), so the loop vectorizes.
      std::int32_t* __restrict__ row_i = d.data() + i * n;
      for (std::size_t j = 0; j < n; ++j) row_i[j] = std::min(row_i[j], d_ik + row_k[j]);
    }
  }
  return d;
}

std::vector<std::int32_t> distances_from(const std::vector<std::int32_t>& g, std::size_t n, std::size_t source) {
  std::vector<std::int32_t> dist(n, kNoEdge);
  std::vector<char> done(n, 0);
  dist[source] = 0;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t u = n;
    for (std::size_t v = 0; v < n; ++v)
      if (!done[v] && dist[v] != kNoEdge && (u == n || dist[v] < dist[u])) u = v;
    if (u == n) break;  // everything left is unreachable
    done[u] = 1;
    for (std::size_t v = 0; v < n; ++v) {
      const std::int32_t w = g[u * n + v];
      if (w != kNoEdge && dist[u] + w < dist[v]) dist[v] = dist[u] + w;
    }
  }
  return dist;
}

void Lesson::declare(course::CommandLine& cli, const Step& step) {
  cli.add_size("n", step.default_vertices, "number of vertices", 1, 46340);  // n^2 ints must index in 31 bits
  cli.add_integer("density", 50, "edges per thousand possible pairs inside a part", 0, 1000);
  cli.add_integer("max-weight", 1000, "edge weights are drawn from [1, max-weight]", 1, kNoEdge - 1);
  cli.add_integer("parts", 4, "parts of the graph with no edges between them", 1, 1000000);
  cli.add_choice("check", "auto", {"full", "sample", "auto"},
                 "full (every distance against the CPU), sample (48 rows by Dijkstra), or auto (full up to n = 4096)",
                 "HOW");
  if (course::runs_on_gpu(step)) {
    cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
    cli.add_integer("blocks", 0, "blocks per grid for steps that choose it (0: the step's choice)", 0, 2147483647);
  }
  if (step.takes_tile)
    cli.add_integer_choice("tile", 0, {64, 128}, "vertices per round and side of a tile: 64 or 128 (0: the step's "
                                                 "choice for n)");
  if (step.takes_slices) {
    cli.add_integer_choice("chunk", 0, {16, 32}, "k values per slice that phase 3 copies at a time: 16 or 32 (0: the "
                                                 "step's choice)");
    cli.add_integer_choice("stages", 0, {2, 3}, "shared-memory stages of phase 3's slices: 2 or 3 (0: the step's "
                                                "choice)");
    cli.add_integer_choice("rows", 0, {8, 16}, "rows of each thread's micro-tile in phase 3 (8 columns): 8 or 16 (0: "
                                               "the step's choice)");
    cli.add_integer_choice("tiles-per-block", 0, {1, 2, 4, 8}, "phase-3 tiles each block takes in turn, the next "
                                                               "one's first slices copied ahead: 1, 2, 4 or 8, "
                                                               "above 1 with 16 rows (0: the step's choice)");
  }
  if (step.on_gpus) {
    cli.add_integer("gpus", 0, "GPUs to share the rows (default: every GPU of the machine)", 1, 4096);
    cli.add_flag("scaling", "print the table of 1, 2, 4, ... GPUs (as many as the machine has) instead of one run");
    cli.add_flag("in-turn", "wait for each round's broadcast before the round goes on (no look-ahead)");
  }
}

void Lesson::read(const course::CommandLine& cli, const Step& step, Request& request) {
  request.check = cli.text("check");
  request.graph.vertices = cli.size("n");
  request.graph.density = static_cast<double>(cli.integer("density")) / 1000.0;
  request.graph.max_weight = static_cast<std::int32_t>(cli.integer("max-weight"));
  request.graph.parts = static_cast<int>(cli.integer("parts"));
  request.graph.seed = request.common.seed;
  if (course::runs_on_gpu(step)) {
    request.requested.threads = static_cast<int>(cli.integer("threads"));
    request.requested.blocks = static_cast<int>(cli.integer("blocks"));
  }
  if (step.takes_tile) request.requested.tile = static_cast<int>(cli.integer("tile"));
  if (step.takes_slices) {
    request.requested.chunk = static_cast<int>(cli.integer("chunk"));
    request.requested.stages = static_cast<int>(cli.integer("stages"));
    request.requested.rows = static_cast<int>(cli.integer("rows"));
    request.requested.tiles_per_block = static_cast<int>(cli.integer("tiles-per-block"));
    if (request.requested.tiles_per_block > 1 && request.requested.rows == 8)
      throw course::UsageError("--tiles-per-block above 1 runs with --rows 16: leave out --rows 8");
  }
  if (step.on_gpus) {
    request.gpus = cli.integer("gpus");
    request.scaling = cli.flag("scaling");
    request.in_turn = cli.flag("in-turn");
    if (request.scaling && cli.given("gpus")) throw course::UsageError("--scaling runs every number of GPUs: leave out --gpus");
    if (request.scaling && request.in_turn)
      throw course::UsageError("--scaling times both schedules: leave out --in-turn");
  }
}

course::Measurement Lesson::describe(const Step& step, const Request& request) {
  const std::size_t n = request.graph.vertices;
  course::Measurement m = course::step_measurement(kNumber, step);
  m.size = "n=" + std::to_string(n);
  m.operations = static_cast<double>(n) * n * n;  // one add-min per (i, j, k)
  m.operation = "add-min";
  m.bytes = 2.0 * n * n * sizeof(std::int32_t);   // the least traffic: the matrix read once, written once
  m.rate_unit = "Gop/s";
  return m;
}

Input load_input(const Request& request) {
  Input in;
  const std::string& file = request.common.input;
  if (!file.empty()) {
    course::Array<std::int32_t> a = course::read_single_array<std::int32_t>(file);
    if (a.rows != a.columns)
      throw course::UsageError(file + ": an adjacency matrix must be square, this one is " + std::to_string(a.rows) +
                               " x " + std::to_string(a.columns));
    in.n = a.rows;
    in.graph = std::move(a.values);
    validate_graph(in.graph, in.n, file);
    return in;
  }
  const GraphOptions& o = request.graph;
  if (static_cast<double>(o.max_weight) * (o.vertices - 1) >= kNoEdge)
    throw course::UsageError("--max-weight " + std::to_string(o.max_weight) + " is too large for " +
                             std::to_string(o.vertices) + " vertices: a path could reach the no-edge value");
  in.n = o.vertices;
  in.graph = make_graph(o);
  return in;
}

namespace {
// Whether --check (`how`) compares every distance, or only sampled rows.
bool checks_every_distance(std::size_t n, const std::string& how) {
  return how == "full" || (how == "auto" && n <= 4096);
}
}  // namespace

// The check: every distance against the CPU reference, or (for large n, where the reference takes
// minutes) sampled rows recomputed independently by Dijkstra's algorithm.
course::Verdict check_distances(const std::vector<std::int32_t>& graph, std::size_t n,
                                const std::vector<std::int32_t>& got, const std::string& how) {
  if (checks_every_distance(n, how)) {
    const std::vector<std::int32_t> expected = reference_distances(graph, n);
    return course::compare_exact(got.data(), expected.data(), n * n);
  }
  const long long samples = static_cast<long long>(std::min<std::size_t>(n, 48));
  const course::CounterRng pick(0xD1CE);
  std::vector<course::Verdict> rows(static_cast<std::size_t>(samples));
#pragma omp parallel for schedule(dynamic)
  for (long long s = 0; s < samples; ++s) {
    const std::size_t row = s == 0 ? 0 : (s == 1 ? n - 1 : pick.bits(static_cast<std::uint64_t>(s)) % n);
    const std::vector<std::int32_t> expected = distances_from(graph, n, row);
    rows[static_cast<std::size_t>(s)] = course::compare_exact(got.data() + row * n, expected.data(), n);
    rows[static_cast<std::size_t>(s)].worst_index += row * n;
  }
  course::Verdict overall;
  for (const course::Verdict& v : rows)
    if (!v.pass && overall.pass) overall = v;
  overall.checked = static_cast<std::size_t>(samples) * n;
  return overall;
}

namespace {

// The verdict (as --check says), the report, and the distances to --output.
int finish(const course::Measurement& m, const Input& in, const std::vector<std::int32_t>& dist,
           const Request& request) {
  const std::size_t n = in.n;
  const course::Verdict v = check_distances(in.graph, n, dist, request.check);
  const bool sampled = !checks_every_distance(n, request.check);
  const std::string detail =
      v.describe(n) + (sampled ? " [" + std::to_string(v.checked / n) + " rows checked by Dijkstra]" : "");
  return course::finish_step(m, v.pass, detail, request, [&](const std::string& path) {
    course::BinaryWriter out(path);
    out.write(dist.data(), n, n);
    out.close();
  });
}

}  // namespace

int report_gpu(course::Measurement m, const Input& in, const std::vector<std::int32_t>& dist, const Request& request,
               int gpus, const std::string& launch) {
  const course::DeviceFacts device = course::query_device();
  m.device = gpus > 1 ? std::to_string(gpus) + " x " + device.name : device.name;
  m.ceiling = gpus * device.peak_int32_gops();
  m.ceiling_name = gpus > 1 ? "integer issue rate of " + std::to_string(gpus) + " GPUs"
                            : "integer issue rate (one add-min per lane per clock)";
  m.compute_ceiling = m.ceiling;
  m.launch = launch;
  return finish(m, in, dist, request);
}

int Lesson::run(const Step& step, Request& request) {
  const Input in = load_input(request);
  const std::size_t n = request.graph.vertices = in.n;
  course::Measurement m = describe(step, request);
  std::vector<std::int32_t> dist(n * n);
  if (!course::runs_on_gpu(step)) {
    course::time_cpu_step(m, request, step.all_cores ? course::cpu_threads() : 1,
                          [&] { step.run_cpu(in.graph.data(), dist.data(), n); },
                          [&] { std::fill(dist.begin(), dist.end(), -1); });
    return finish(m, in, dist, request);
  }
  course::require_cuda_device();
  const LaunchPlan plan = step.plan(n, course::query_device(), request.requested);
  course::DeviceBuffer<std::int32_t> d_graph(n * n, "graph");
  course::DeviceBuffer<std::int32_t> d_dist(n * n, "distances");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  d_graph.upload(in.graph);
  course::time_gpu_step(
      m, request, [&](cudaStream_t s) { step.run_gpu(d_graph.data(), d_dist.data(), n, plan, scratch.data(), s); },
      [&](cudaStream_t s) { d_dist.poison(s); });
  d_dist.download(dist.data(), n * n);  // the last timed run's answer
  return report_gpu(m, in, dist, request);
}

std::vector<std::int32_t> run_gpu_once(const Step& step, const std::vector<std::int32_t>& graph, std::size_t n,
                                       const LaunchPlan& requested) {
  const course::DeviceFacts device = course::query_device();
  const LaunchPlan plan = step.plan(n, device, requested);
  course::DeviceBuffer<std::int32_t> d_graph(n * n, "graph");
  course::DeviceBuffer<std::int32_t> d_dist(n * n, "distances");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  d_graph.upload(graph);
  d_dist.poison();
  step.run_gpu(d_graph.data(), d_dist.data(), n, plan, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return d_dist.to_host();
}

}  // namespace floyd_warshall
