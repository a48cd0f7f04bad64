#include "course/check.h"

#include <string>

namespace course {

void check_cuda(cudaError_t status, const char* what, const char* file, int line) {
  if (status == cudaSuccess) return;
  // Drop the path: "max_driver.cu:42" says enough and keeps the message on one line.
  std::string where(file);
  auto slash = where.find_last_of('/');
  if (slash != std::string::npos) where = where.substr(slash + 1);
  throw CudaError(std::string("CUDA error ") + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) +
                  ") in " + what + " at " + where + ":" + std::to_string(line));
}

}  // namespace course
