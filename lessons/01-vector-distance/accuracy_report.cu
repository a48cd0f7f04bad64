// lesson01_accuracy: how far from the double-precision reference the two forms land, as the data
// moves away from the origin. For each offset the vectors are offset + uniform(-1, 1) in every element:
// their distances stay the same, their norms grow with the square of the offset. It runs the direct
// form (step 07's kernel), the norm expansion (step 08's kernel) and the norms + cublasSgemm route
// (step 09) on the same data and prints the largest relative error of each.
#include <cuda_runtime.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "07_pipelined_tiles.cuh"
#include "08_norm_expansion.cuh"
#include "09_cublas_norms.cuh"
#include "course/buffers.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "distance.h"

namespace {

// The largest relative error of C computed by `launch` (which enqueues into the default stream).
template <class Launch>
double error_of(const Launch& launch, course::DeviceBuffer<float>& c, const std::vector<double>& expected) {
  c.poison();
  launch();
  CUDA_CHECK(cudaDeviceSynchronize());
  return distance::max_relative_error(c.to_host(), expected);
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(argv[0], [&]() -> int {
    course::CommandLine cli(course::program_name(argv[0]),
                            "Lesson 01: the accuracy of the norm expansion (steps 08, 09) beside the direct form "
                            "(step 07) on data ever farther from the origin.");
    cli.add_size("m", 1024, "rows of A", 1, 65536);
    cli.add_size("k", 1024, "rows of B", 1, 65536);
    cli.add_size("n", 1024, "elements of every vector", 1, 65536);
    cli.add_integer("seed", 1, "seed of the generator", 0, 1LL << 62);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const std::size_t m = cli.size("m"), k = cli.size("k"), n = cli.size("n");
    const course::DeviceFacts device = course::query_device();  // no GPU: skipped (exit 77)
    course::ensure_device_memory((m * n + k * n + m * k + m + k) * sizeof(float), "A, B, C and the norms");
    course::DeviceBuffer<float> a(m * n, "matrix A"), b(k * n, "matrix B"), c(m * k, "matrix C");
    course::DeviceBuffer<unsigned char> scratch(cublas_norms::scratch_bytes(m, k), "row norms");
    cublas_norms::handle();

    course::TextTable table({"offset", "(|a|^2 + |b|^2) / C", "07 direct form", "08 norm expansion",
                             "09 norms + cublasSgemm"});
    for (double offset : {0.0, 1.0, 10.0, 100.0, 1000.0}) {
      const distance::Problem<float> p =
          distance::make_problem<float>(m, k, n, static_cast<std::uint64_t>(cli.integer("seed")), offset);
      const std::vector<double> expected = distance::reference(p);
      a.upload(p.a);
      b.upload(p.b);
      // How much larger the subtracted numbers are than their difference, on average.
      double norms = 0, distances = 0;
      for (float v : p.a) norms += static_cast<double>(v) * v * k;
      for (float v : p.b) norms += static_cast<double>(v) * v * m;
      for (double e : expected) distances += e;
      const double direct = error_of([&] { pipelined_tiles::launch(a.data(), b.data(), c.data(), m, k, n, nullptr); },
                                     c, expected);
      const double expansion = error_of(
          [&] { norm_expansion::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr); }, c, expected);
      const double library = error_of(
          [&] { cublas_norms::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr); }, c, expected);
      table.add_row({course::format_significant(offset, 4), course::format_significant(norms / distances, 3),
                     distance::format_error(direct), distance::format_error(expansion),
                     distance::format_error(library)});
    }
    std::cout << "Lesson 01: accuracy of the norm expansion (largest |C - C_ref| / C_ref over " << m << " x " << k
              << " distances of " << n << " float32 elements, each offset + uniform(-1, 1); " << device.name << ")\n\n";
    table.print(std::cout);
    std::cout << "\nfloat32's unit roundoff is 6e-08; cublasSgemm runs with CUBLAS_DEFAULT_MATH (FP32, no TF32).\n";
    return course::kExitPass;
  });
}
