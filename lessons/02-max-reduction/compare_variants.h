// Lesson 02: the harness of the programs that time variants of one step side by side on the same
// array (step07_ideas_apart.cu, step08_finishes_compared.cu): options, data, timing with the result
// poisoned before every run, the exact check, and the table.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "course/device.h"

namespace max_reduction {

/// One row of the table: what the variant is, its grid, and one run of it (the maximum of
/// values[0..n) into *result, device memory, enqueued into the stream; every launch checked).
struct Variant {
  std::string name;
  int blocks = 0;
  std::function<void(const float* values, std::size_t n, float* result, cudaStream_t stream)> run;
};

/// Makes the variants for n floats on this device (called once a GPU is known to be there, so it may
/// allocate the scratch memory the variants need and keep it in the functions it returns).
using VariantMaker = std::function<std::vector<Variant>(std::size_t n, const course::DeviceFacts& device)>;

/// The program: parses --n, --seed and --reps, times every variant on the same array, checks each
/// answer exactly, and prints `title` and the table (time, rate, % of the read bandwidth, speed-up over
/// the previous and the first row). Returns the exit code: 0 when every variant passes, 77 without a GPU.
int compare_variants(int argc, char** argv, const std::string& program, const std::string& title,
                     const VariantMaker& make_variants);

}  // namespace max_reduction
