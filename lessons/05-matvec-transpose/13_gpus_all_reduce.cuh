// Lesson 05, step 13's band of rows: what one GPU holds and runs (step 14 runs the same in each of its
// processes).
#pragma once

#include <cuda_runtime.h>

#include "course/buffers.h"
#include "course/device.h"
#include "11_halving_sums.cuh"
#include "matvec.h"

namespace gpus_rows {

using matvec::LaunchPlan;

// The rows a GPU g of k takes from M: g M / k to (g + 1) M / k - 1, so the bands differ by a row at
// most. Throws UsageError where there are fewer rows than GPUs.
inline void band_of(std::size_t rows, std::size_t g, std::size_t k, std::size_t& first, std::size_t& count) {
  if (rows < k)
    throw course::UsageError("--gpus " + std::to_string(k) + ": A has " + std::to_string(rows) +
                             " rows, fewer than the GPUs (each needs at least one)");
  first = rows * g / k;
  count = rows * (g + 1) / k - first;
}

// One GPU's share: A's rows first .. first + rows - 1, v, its part of C, and step 11's launch for them.
struct Band {
  int device = 0;
  std::size_t first = 0, rows = 0;
  cudaStream_t stream = nullptr;
  LaunchPlan plan;
  course::DeviceBuffer<float> a, v, c;
  course::DeviceBuffer<unsigned char> scratch;

  Band(const matvec::Problem& p, int device_, std::size_t g, std::size_t k, const LaunchPlan& requested)
      : device(device_) {
    band_of(p.rows, g, k, first, rows);
    CUDA_CHECK(cudaSetDevice(device));  // everything below lives on this GPU
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    plan = halving_sums::plan_by_length(rows, p.columns, course::query_device(device), requested);
    a = course::DeviceBuffer<float>(rows * p.columns, "a band of A");
    v = course::DeviceBuffer<float>(p.columns, "vector v");
    c = course::DeviceBuffer<float>(p.columns, "a part of C");
    scratch = course::DeviceBuffer<unsigned char>(plan.scratch_bytes, "scratch");
    a.upload(p.a.data() + first * p.columns, rows * p.columns);
    v.upload(p.v);
  }
  ~Band() {
    cudaSetDevice(device);  // the buffers, freed after this body, are this GPU's
    if (stream != nullptr) cudaStreamDestroy(stream);
  }
  Band(const Band&) = delete;
  Band& operator=(const Band&) = delete;

  // Step 11's kernels on the band: this GPU's part of C, into its stream.
  void run(std::size_t columns) {
    halving_sums::run_by_plan(a.data(), v.data(), c.data(), rows, columns, plan, scratch.data(), stream);
  }
};

}  // namespace gpus_rows
