// Whether this build holds GPU code the device can run. A kernel compiled into the same library as
// every lesson's is asked for its attributes: without machine code for the GPU's architecture (or PTX
// the driver can compile for it) the runtime refuses, and the program says what to rebuild for.
#include <cuda_runtime.h>

#include <string>

#include "course/device.h"
#include "course/errors.h"

namespace course {

namespace {
__global__ void probe() {}

// "90;80-real" -> "sm_90, sm_80": the build's architectures as a reader knows them.
std::string readable_architectures(const std::string& list) {
  std::string out, item;
  auto flush = [&] {
    if (item.empty()) return;
    auto dash = item.find('-');
    out += (out.empty() ? "sm_" : ", sm_") + item.substr(0, dash);
    item.clear();
  };
  for (char c : list) {
    if (c == ';' || c == ' ') flush();
    else item += c;
  }
  flush();
  return out;
}
}  // namespace

void require_code_for_device(const std::string& name, int major, int minor) {
  static bool checked = false;
  if (checked) return;
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, probe);
  if (status == cudaSuccess) {
    checked = true;
    return;
  }
  cudaGetLastError();
  const std::string arch = std::to_string(major) + std::to_string(minor);
  if (status == cudaErrorNoKernelImageForDevice || status == cudaErrorInvalidDeviceFunction ||
      status == cudaErrorInvalidKernelImage)
    throw CudaError("this build has GPU code for " + readable_architectures(COURSE_CUDA_ARCHITECTURES) + ", not for the " +
                    name + " (sm_" + arch + "): rebuild for it with  cmake -B build -DCMAKE_CUDA_ARCHITECTURES=" + arch +
                    " && ./course build");
  if (status == cudaErrorUnsupportedPtxVersion)
    throw CudaError("the GPU driver is older than the CUDA Toolkit that built the course and cannot load its code for the " +
                    name + ": update the driver, or build with the toolkit that matches it");
  throw CudaError(std::string("CUDA error ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
                  ") while loading the course's GPU code");
}

}  // namespace course
