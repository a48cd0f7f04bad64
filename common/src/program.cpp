#include "course/program.h"

#include <cstdio>
#include <exception>
#include <new>

#include "course/errors.h"

namespace course {

std::string program_name(const char* argv0) {
  const std::string path = argv0 != nullptr ? argv0 : "";
  return path.substr(path.find_last_of('/') + 1);
}

int run_program(const char* path, const std::function<int()>& body) {
  const std::string name = program_name(path);
  const char* program = name.c_str();
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    std::fprintf(stderr, "%s: skipped: no CUDA device (%s)\n", program, e.what());
    return kExitSkipped;
  } catch (const NotSupportedError& e) {
    std::fprintf(stderr, "%s: skipped: %s\n", program, e.what());
    return kExitSkipped;
  } catch (const CudaError& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitRuntime;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of host memory; choose a smaller size\n", program);
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitRuntime;
  }
}

}  // namespace course
