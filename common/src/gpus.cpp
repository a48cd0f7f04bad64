#include "course/gpus.h"

#include <cuda_runtime_api.h>

#include "course/device.h"

namespace course {

int gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // leaves no error behind for the next call
    return 0;
  }
  return count;
}

std::vector<int> gpus_for(long long requested) {
  require_cuda_device();
  const int count = gpu_count();
  if (requested > count)
    throw UsageError("--gpus " + std::to_string(requested) + ": this machine has " + std::to_string(count) +
                     (count == 1 ? " GPU" : " GPUs"));
  std::vector<int> devices(requested > 0 ? static_cast<std::size_t>(requested) : static_cast<std::size_t>(count));
  for (std::size_t g = 0; g < devices.size(); ++g) devices[g] = static_cast<int>(g);
  return devices;
}

}  // namespace course
