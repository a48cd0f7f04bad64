// Lesson 04, step 03: the same triple loop, on ONE GPU thread.
//
// What changed: nothing but where the loop runs. One thread of one block does all n^3 updates.
//
// Why it is here: to see that a GPU is not a fast CPU. One thread runs hundreds of times slower than
// the CPU loop of step 01, and step 04, with n blocks of 256 threads, tens of thousands of times
// faster than this (the README's ladder). The GPU's speed comes from running many threads at once.
// Because one thread is so slow, this step runs by default at n = 256 (512 times less work than
// n = 2048) and the table compares rates (operations per second), not times.
//
// This file is also the lesson's one full page of host code: once the course's step skeleton has read
// the options, its main makes the graph, allocates device memory, copies the graph over, launches
// (timed), copies the distances back and checks them. The later steps leave that to the lesson's
// driver (floyd_warshall.cpp, step_main.cpp), which does the same with owning buffers and a stream of
// its own.
//
// Launch: 1 block of 1 thread; --threads and --blocks are ignored.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/timing.h"
#include "floyd_warshall.h"
#include "floyd_warshall_device.cuh"

namespace {

using floyd_warshall::LaunchPlan;

// The whole algorithm in one thread, in place: round k lets every path pass through vertex k.
__global__ void floyd_warshall_one_thread(std::int32_t* d, int n) {
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) d[i * n + j] = min(d[i * n + j], d[i * n + k] + d[k * n + j]);
}

LaunchPlan plan(std::size_t, const course::DeviceFacts&, const LaunchPlan&) {
  LaunchPlan p;
  p.threads = 1;
  p.blocks = 1;
  return p;
}

// One run: the distances start as a copy of the graph (the loop works in place, so the graph itself
// stays untouched for the next run), then the one thread does all n^3 updates.
void run(const std::int32_t* graph, std::int32_t* dist, std::size_t n, const LaunchPlan&, void*, cudaStream_t stream) {
  floyd_warshall::copy_graph(graph, dist, n, stream);
  floyd_warshall_one_thread<<<1, 1, 0, stream>>>(dist, static_cast<int>(n));
  CUDA_CHECK_LAUNCH();
}

}  // namespace

// The step as the lesson's tests (and its later steps' tools) see it.
const floyd_warshall::Step floyd_warshall::kThisStep = {
    "03", "one GPU thread", "gpu", nullptr, plan, run, 256, 64};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<floyd_warshall::Lesson>(argc, argv, floyd_warshall::kThisStep, [](floyd_warshall::Request& request) {
    const floyd_warshall::Input in = floyd_warshall::load_input(request);  // --input, or a seeded graph
    const std::size_t n = request.graph.vertices = in.n, bytes = n * n * sizeof(std::int32_t);
    course::Measurement m = floyd_warshall::Lesson::describe(floyd_warshall::kThisStep, request);
    course::require_cuda_device();

    // Device memory for the graph and the distances. Asking first turns a graph that cannot fit into
    // one clear line (exit code 2) rather than a failed cudaMalloc.
    course::ensure_device_memory(2 * bytes, "the graph and the distances");
    std::int32_t *d_graph = nullptr, *d_dist = nullptr;
    CUDA_CHECK(cudaMalloc(&d_graph, bytes));
    CUDA_CHECK(cudaMalloc(&d_dist, bytes));
    CUDA_CHECK(cudaMemcpy(d_graph, in.graph.data(), bytes, cudaMemcpyHostToDevice));

    const LaunchPlan p = plan(n, course::query_device(), request.requested);

    // Warm-up runs, then --reps timed runs, each between two CUDA events; before each, every byte of
    // the distances is set to 0xFF (-1), so a distance the run forgot to write cannot pass. The timed
    // run includes copying the graph into the distances. Everything goes into the default stream,
    // which also orders the runs after the copy above.
    cudaStream_t stream = nullptr;
    m.time = course::time_gpu([&](cudaStream_t s) { run(d_graph, d_dist, n, p, nullptr, s); },
                              request.common.timing, stream,
                              [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(d_dist, 0xFF, bytes, s)); });

    std::vector<std::int32_t> dist(n * n);
    CUDA_CHECK(cudaMemcpy(dist.data(), d_dist, bytes, cudaMemcpyDeviceToHost));  // waits for the last run
    CUDA_CHECK(cudaFree(d_graph));
    CUDA_CHECK(cudaFree(d_dist));
    // Check exactly (the distances are integers) against the CPU's, or rows by Dijkstra as --check says;
    // print, --output.
    return floyd_warshall::report_gpu(m, in, dist, request);
  });
}
