// Lesson 05, step 13: what its tests call.
#pragma once

#include <vector>

#include "matvec.h"

namespace gpus_rows {

/// C = A^T (A v) on GPUs 0 .. gpus - 1 (step 13's way: a band of A's rows on each, one all-reduce),
/// as GPU 0 holds it afterwards. @p requested carries step 11's options for every GPU's launch.
std::vector<float> run_on_gpus(const matvec::Problem& p, int gpus, const matvec::LaunchPlan& requested = {});

}  // namespace gpus_rows
