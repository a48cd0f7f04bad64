// lesson01_register_tile_shapes: how far the shape of the register tiles takes step 08's norm
// expansion on the FP32 cores, against cuBLAS's FP32 route (step 13), the bar of the lesson's FP32-core
// goal. Step 08 gives each of 256 threads an 8 x 8 micro-tile of a 128 x 128 tile, slices 8 deep, and
// leaves the norms to two launches of a small kernel; cuBLAS's FP32 kernel takes more registers a thread
// (the README's counters at 4096^3). The report runs step 08 as it is, then the same algebra
// and step 07's loop in the kernel of register_tile_shapes.cuh, whose shape is a template
// (register_tile_shapes::Shape): 8 x 8 or 8 x 16 sums a thread, 128 or 256 threads, 128 x 128 or
// 128 x 256 tiles, slices 8 or 16 deep, and the norms squared by the tiles on the way through or left
// to step 08's kernel. Wider micro-tiles mean fewer shared-memory loads and fewer instructions that are
// not FMA per FMA, but more registers a thread and fewer warps an SM to hide latency with; deeper
// slices mean fewer barriers but more registers for the staged slice; fused norms save two launches
// and a pass over A and B but put squares into the loop that loads the slices. Then, one at a time and
// together, changes known to bring SIMT matrix products to the libraries' speed: warps of 4 x 8 lanes
// instead of 8 x 4, tiles of 256 x 128, the first fragments of the next slice read over the barrier
// (before the last products of this one), slices copied by cp.async into 2 to 4 shared slices with no
// registers held for them, and blocks taken down groups of row bands for the L2 cache. None of these
// shapes is a step: the table says which, if any, comes near the bar. Another shape is one more line
// in main(), add(Shape<...>{}).
//
// Every row is checked against the double-precision reference (the norm expansion's float32 bound),
// then all are timed with their repetitions interleaved (course::time_gpu_interleaved), C poisoned
// and the L2 cache overwritten before each run; the table shows medians, the share of the FP32 issue
// rate, and cuBLAS's time over the row's ("vs cuBLAS", above 1: faster than cuBLAS).
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "08_norm_expansion.cuh"
#include "13_cublas_norms.cuh"
#include "course/buffers.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/text_table.h"
#include "course/timing.h"
#include "distance.h"
#include "register_tile_shapes.cuh"

namespace {

// One row of the table: a name and one run of C = distances(A, B) into a stream.
struct Way {
  std::string name;
  std::function<void(cudaStream_t)> run;
};

// The name of a shape, from its constants: "8 x 16 a thread, 256 threads, 128 x 256, depth 8, 1 block
// an SM, fused norms", and what else it does where it does it.
template <class S>
std::string describe() {
  std::string name = "8 x " + std::to_string(S::kMicroCols) + " a thread, " + std::to_string(S::kThreads) +
                     " threads, " + std::to_string(S::kTileRows) + " x " + std::to_string(S::kTileCols) +
                     ", depth " + std::to_string(S::kDepth) + ", " + std::to_string(S::kBlocksPerSm) +
                     (S::kBlocksPerSm == 1 ? " block" : " blocks") + " an SM";
  if (S::kLanesDown != 8) name += ", lanes " + std::to_string(S::kLanesDown) + " x " + std::to_string(S::kLanesAcross);
  if (S::kFusedNorms) name += ", fused norms";
  if (S::kCarry) name += ", fragments over the barrier";
  if (S::kCopyStages > 0) name += ", cp.async into " + std::to_string(S::kCopyStages) + " slices";
  if (S::kGroupBands > 1) name += ", groups of " + std::to_string(S::kGroupBands) + " bands";
  return name;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(argv[0], [&]() -> int {
    course::CommandLine cli(course::program_name(argv[0]),
                            "Lesson 01: step 08's kernel and other shapes of its register tiles beside cuBLAS's "
                            "FP32 route (step 13).");
    distance::add_report_options(cli, distance::kDefaultSize);
    cli.add_integer("reps", 20, "timed repetitions of each", 1, 100000);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const std::size_t m = cli.size("m"), k = cli.size("k"), n = cli.size("n");
    const course::DeviceFacts device = course::query_device();  // no GPU: skipped (exit 77)
    distance::ReportBuffers buffers(m, k, n);
    const distance::Problem<float> p =
        distance::make_problem<float>(m, k, n, static_cast<std::uint64_t>(cli.integer("seed")));
    buffers.a.upload(p.a);
    buffers.b.upload(p.b);
    course::DeviceBuffer<float>& c = buffers.c;
    const float* const A = buffers.a.data();
    const float* const B = buffers.b.data();
    float* const C = c.data();
    void* const S = buffers.norms.data();

    // The bar first: the other rows are compared with it.
    cublas_norms::prepare(m, k, n, cublas_norms::Math::Fp32);
    std::vector<Way> ways{
        {"13 cuBLAS FP32 route", [=](cudaStream_t s) { cublas_norms::launch(A, B, C, m, k, n, S, s); }},
        {"08 step 08 as it is", [=](cudaStream_t s) { norm_expansion::launch(A, B, C, m, k, n, S, s); }}};
    const auto add = [&](auto shape) {
      using Shape = decltype(shape);
      const std::string name = describe<Shape>();
      if (!register_tile_shapes::available<Shape>(device)) {  // cp.async on a GPU or build without it
        std::cout << "not run: " << name << " (cp.async needs compute capability 8.0 or newer)\n";
        return;
      }
      register_tile_shapes::prepare<Shape>(m, k, device, name.c_str());
      ways.push_back({name, [=](cudaStream_t s) { register_tile_shapes::launch<Shape>(A, B, C, m, k, n, S, s); }});
    };
    using register_tile_shapes::Shape;
    // Shape<warps down, warps across, 4-column squares a lane, depth, blocks an SM, fused norms,
    //       lanes down (8), fragments over the barrier (false), cp.async slices (0), bands a group (1)>
    add(Shape<2, 4, 2, 8, 2, false>{});  // step 08's tile and micro-tile
    add(Shape<2, 4, 2, 16, 2, false>{});
    add(Shape<2, 2, 4, 8, 2, false>{});
    add(Shape<2, 4, 4, 8, 1, false>{});
    add(Shape<2, 4, 2, 8, 2, true>{});
    add(Shape<2, 4, 4, 8, 1, true>{});
    // One change each from the 8 x 8 and 8 x 16 shapes above: a warp of 4 x 8 lanes, a tile of
    // 256 x 128, the fragments over the barrier, cp.async (then slices 16 deep, which cost it no
    // registers), groups of bands. (Launch bounds for one block an SM change nothing at 8 x 8: the
    // compiler takes no more registers than two blocks leave it.)
    add(Shape<4, 2, 2, 8, 2, false, 4>{});
    add(Shape<4, 2, 4, 8, 1, false>{});
    add(Shape<2, 4, 2, 8, 2, false, 8, true>{});
    add(Shape<2, 4, 4, 8, 1, false, 8, true>{});
    add(Shape<2, 4, 2, 8, 2, false, 8, false, 2>{});
    add(Shape<2, 4, 2, 8, 2, false, 8, false, 3>{});
    add(Shape<2, 4, 4, 8, 1, false, 8, false, 3>{});
    add(Shape<2, 4, 4, 16, 1, false, 8, false, 3>{});
    add(Shape<2, 4, 4, 8, 1, false, 8, false, 0, 8>{});
    // Together.
    add(Shape<2, 4, 2, 8, 2, false, 8, true, 3, 16>{});
    add(Shape<2, 2, 4, 8, 2, false, 8, true, 3>{});
    add(Shape<2, 4, 4, 8, 1, false, 8, true, 4, 8>{});

    // Each way once, checked; then all timed, interleaved.
    const std::vector<double> expected = distance::reference(p);
    std::vector<std::string> verdicts;
    bool all_pass = true;
    for (const Way& w : ways) {
      c.poison();
      w.run(nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<float> result = c.to_host();
      const course::Verdict v = distance::check(p, result, expected, distance::Form::NormExpansion);
      all_pass = all_pass && v.pass;
      verdicts.push_back(std::string(v.pass ? "PASS" : "FAIL") + " (largest relative error " +
                         distance::format_error(distance::max_relative_error(result, expected)) + ")");
    }
    std::vector<std::function<void(cudaStream_t)>> runs;
    for (const Way& w : ways) runs.push_back(w.run);
    course::TimingOptions options;
    options.reps = static_cast<int>(cli.integer("reps"));
    cudaStream_t stream = nullptr;
    CUDA_CHECK(cudaStreamCreate(&stream));
    const std::vector<course::TimingStats> times =
        course::time_gpu_interleaved(runs, options, stream, [&](std::size_t, cudaStream_t s) { c.poison(s); });
    CUDA_CHECK(cudaStreamSynchronize(stream));
    CUDA_CHECK(cudaStreamDestroy(stream));

    const double ceiling = distance::issue_ceiling(device, distance::Type::Float32);
    const double terms = static_cast<double>(m) * k * n;
    course::TextTable table({"way", "median ms", "min-max ms", "% of ceiling", "vs cuBLAS", "check"});
    for (std::size_t i = 0; i < ways.size(); ++i) {
      const double rate = terms / (times[i].median_ms * 1e6);  // G terms/s
      table.add_row({ways[i].name, course::format_significant(times[i].median_ms, 4),
                     course::format_significant(times[i].min_ms, 3) + "-" +
                         course::format_significant(times[i].max_ms, 3),
                     course::format_significant(100.0 * rate / ceiling, 3) + "%",
                     course::format_significant(times[0].median_ms / times[i].median_ms, 3) + "x", verdicts[i]});
    }
    std::cout << "Lesson 01: shapes of the register tiles on the FP32 cores beside cuBLAS's FP32 route, " << m
              << " x " << k << " x " << n << ", " << options.reps << " interleaved repetitions; ceiling: "
              << distance::issue_ceiling_name(distance::Type::Float32) << "; " << device.name << "\n\n";
    table.print(std::cout);
    return all_pass ? course::kExitPass : course::kExitFail;
  });
}
