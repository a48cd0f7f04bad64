// The Catch2 main of every GPU test program. Without a usable CUDA device it runs nothing and exits
// with 77, which CTest reports as "skipped" (SKIP_RETURN_CODE), so a machine without a GPU never shows
// a GPU test as passed. Listing the tests (what CTest does to discover them) never touches the GPU.
// A test that meets a GPU lacking what the code needs (course::NotSupportedError: no cooperative
// launch, too little shared memory per block) is reported as skipped too, with the reason.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "course/device.h"
#include "course/errors.h"
#include "catch_session.h"

namespace {
int not_supported_count = 0;
std::string not_supported_reason;
}  // namespace

CATCH_TRANSLATE_EXCEPTION(const course::NotSupportedError& e) {
  ++not_supported_count;
  not_supported_reason = e.what();
  return std::string("not supported on this GPU: ") + e.what();
}

int main(int argc, char* argv[]) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "-l") == 0 ||
        std::strcmp(argv[i], "-t") == 0 || std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
      listing = true;
  std::string why;
  if (!listing && !course::cuda_device_available(&why)) {
    std::printf("SKIPPED: no CUDA device (%s)\n", why.c_str());
    return course::kExitSkipped;
  }
  if (!listing) {
    try {
      course::require_cuda_device();  // a build without code for this GPU says what to rebuild for
    } catch (const std::exception& e) {
      std::printf("error: %s\n", e.what());
      return 1;
    }
  }
  int failures = course::run_catch_session(argc, argv);
  // Every failure came from a feature the GPU lacks: the test could not run here, so it is skipped.
  if (failures > 0 && failures <= not_supported_count) {
    std::printf("SKIPPED: %s\n", not_supported_reason.c_str());
    return course::kExitSkipped;
  }
  // Catch returns the number of failed assertions; keep it from ever reading as the skip code.
  return failures == 0 ? 0 : 1;
}
