// lesson01_accuracy: how far from the double-precision reference each form lands, as the data moves
// away from the origin. For each offset the vectors are offset + uniform(-1, 1) in every element:
// their distances stay the same, their norms grow with the square of the offset. It runs the direct
// form (step 07's kernel), the norm expansion on the FP32 cores (step 08), in TF32 (step 09), in three
// TF32 products (step 10, and step 10 without its slice sums), in TF32 on the warpgroup MMA (step 11
// on a GPU of compute capability 9.0, and step 11 with its inputs truncated to TF32 instead of
// rounded, and step 12, its products after norms summed in other pieces), and the cuBLAS routes in
// FP32 and TF32 (steps 13 and 14) on the same data, and prints the largest relative error of each;
// then, for the norm expansions, the largest error as a fraction of the lesson's float32 bound for
// them (check() in distance.h): 1 or less passes it.
#include <cuda_runtime.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "07_pipelined_tiles.cuh"
#include "08_norm_expansion.cuh"
#include "10_tf32x3_split_products.cuh"
#include "11_tf32_warpgroup_tma.cuh"
#include "12_norms_in_one_launch.cuh"
#include "13_cublas_norms.cuh"
#include "course/buffers.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "distance.h"

namespace {

// C computed by `launch` (which enqueues into the default stream), into `c` poisoned first.
template <class Launch>
std::vector<float> result_of(const Launch& launch, course::DeviceBuffer<float>& c) {
  c.poison();
  launch();
  CUDA_CHECK(cudaDeviceSynchronize());
  return c.to_host();
}

// The largest error of C as a fraction of what the norm expansion's float32 bound allows there.
double bound_fraction(const distance::Problem<float>& p, const std::vector<float>& c,
                      const std::vector<double>& expected) {
  const course::Verdict v = distance::check(p, c, expected, distance::Form::NormExpansion);
  return v.error / v.allowed;
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(argv[0], [&]() -> int {
    course::CommandLine cli(course::program_name(argv[0]),
                            "Lesson 01: the accuracy of the norm expansion (steps 08 to 14) beside the "
                            "direct form (step 07) on data ever farther from the origin.");
    distance::add_report_options(cli, 1024);
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const std::size_t m = cli.size("m"), k = cli.size("k"), n = cli.size("n");
    const course::DeviceFacts device = course::query_device();  // no GPU: skipped (exit 77)
    distance::ReportBuffers buffers(m, k, n);
    course::DeviceBuffer<float>& a = buffers.a;
    course::DeviceBuffer<float>& b = buffers.b;
    course::DeviceBuffer<float>& c = buffers.c;
    course::DeviceBuffer<unsigned char>& scratch = buffers.norms;
    cublas_norms::handle();  // both handles, outside the runs

    const bool tensor_cores = tf32_tensor_cores::tf32_available(device.compute_major);
    if (tensor_cores) {  // outside the runs: the kernels' shared-memory limits, the SM count
      tf32_tensor_cores::prepare<tf32_tensor_cores::OneProduct>(m, k, device, "step 09");
      tf32_tensor_cores::prepare<tf32x3_split_products::ThreeProducts>(m, k, device, "step 10");
      tf32_tensor_cores::prepare<tf32x3_split_products::ThreeProductsIntoDots>(m, k, device, "step 10");
    }
    // Steps 11 and 12 where this GPU and build have the warpgroup instructions (prepare() says why not).
    bool warpgroups = true;
    try {
      warpgroup_tma::prepare(m, k, device, "step 11");
    } catch (const course::NotSupportedError&) {
      warpgroups = false;
    }
    course::TextTable errors({"offset", "(|a|^2 + |b|^2) / C", "07 direct form", "08 norm expansion", "09 TF32",
                              "10 3 x TF32", "10 without slice sums", "11 wgmma TF32",
                              "11 truncated", "12 norms in one launch", "13 cublasSgemm", "14 cublasSgemm TF32"});
    course::TextTable bounds({"offset", "08 norm expansion", "09 TF32", "10 3 x TF32", "10 without slice sums",
                              "11 wgmma TF32", "11 truncated", "12 norms in one launch", "13 cublasSgemm",
                              "14 cublasSgemm TF32"});
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
      // Each method's C, in the tables' order; null where the GPU cannot run it.
      const std::vector<std::vector<float>> results{
          result_of([&] { pipelined_tiles::launch(a.data(), b.data(), c.data(), m, k, n, nullptr); }, c),
          result_of([&] { norm_expansion::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr); },
                    c),
          tensor_cores ? result_of(
                             [&] {
                               tf32_tensor_cores::launch<tf32_tensor_cores::OneProduct>(
                                   a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr);
                             },
                             c)
                       : std::vector<float>{},
          tensor_cores ? result_of(
                             [&] {
                               tf32_tensor_cores::launch<tf32x3_split_products::ThreeProducts>(
                                   a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr);
                             },
                             c)
                       : std::vector<float>{},
          tensor_cores ? result_of(
                             [&] {
                               tf32_tensor_cores::launch<tf32x3_split_products::ThreeProductsIntoDots>(
                                   a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr);
                             },
                             c)
                       : std::vector<float>{},
          warpgroups ? result_of(
                           [&] {
                             warpgroup_tma::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr);
                           },
                           c)
                     : std::vector<float>{},
          warpgroups ? result_of(
                           [&] {
                             warpgroup_tma::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr,
                                                   warpgroup_tma::Inputs::Truncated);
                           },
                           c)
                     : std::vector<float>{},
          warpgroups ? result_of(
                           [&] {
                             norms_in_one_launch::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(),
                                                         nullptr);
                           },
                           c)
                     : std::vector<float>{},
          result_of([&] { cublas_norms::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr); }, c),
          result_of(
              [&] {
                cublas_norms::launch(a.data(), b.data(), c.data(), m, k, n, scratch.data(), nullptr,
                                     cublas_norms::Math::Tf32);
              },
              c)};
      std::vector<std::string> error_row{course::format_significant(offset, 4),
                                         course::format_significant(norms / distances, 3)};
      std::vector<std::string> bound_row{course::format_significant(offset, 4)};
      for (std::size_t r = 0; r < results.size(); ++r) {
        const bool ran = !results[r].empty();
        error_row.push_back(ran ? distance::format_error(distance::max_relative_error(results[r], expected)) : "-");
        if (r > 0)  // the norm expansions
          bound_row.push_back(ran ? course::format_significant(bound_fraction(p, results[r], expected), 2) : "-");
      }
      errors.add_row(error_row);
      bounds.add_row(bound_row);
    }
    std::cout << "Lesson 01: accuracy of the norm expansion (largest |C - C_ref| / C_ref over " << m << " x " << k
              << " distances of " << n << " float32 elements, each offset + uniform(-1, 1); " << device.name << ")\n\n";
    errors.print(std::cout);
    std::cout << "\nThe norm expansions' largest error as a fraction of the lesson's float32 bound for them,\n"
                 "4 u (sqrt(N) + 2) (|a|^2 + |b|^2) + 4 u sqrt(N) C_ref (1 or less passes):\n\n";
    bounds.print(std::cout);
    std::cout << "\nfloat32's unit roundoff u is 6e-08, TF32's 4.9e-04. Steps 08 and 13 run on the FP32 cores (cuBLAS "
                 "with CUBLAS_DEFAULT_MATH); 09, 11, 12 and 14 round every input to TF32 (11 \"truncated\": its "
                 "last 13 bits dropped); 10 makes each product of three TF32 products.\n";
    if (!tensor_cores)
      std::cout << "'-': no TF32 tensor cores on this GPU, or no code for them in this build (compute capability "
                   "below 8.0).\n";
    else if (!warpgroups)
      std::cout << "'-' under steps 11 and 12: no warpgroup MMA on this GPU, or no sm_90a code for it in this build.\n";
    return course::kExitPass;
  });
}
