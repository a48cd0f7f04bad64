// Lesson 02, step 11: what its tests call.
#pragma once

#include <vector>

namespace gpus_max {

/// The largest of @p values on GPUs 0 .. gpus - 1 (0: every GPU), step 11's way: a share of the array
/// on each, one all-reduce; as GPU 0 holds it afterwards.
float run_on_gpus(const std::vector<float>& values, int gpus);

}  // namespace gpus_max
