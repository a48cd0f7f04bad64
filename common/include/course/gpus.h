/// @file gpus.h
/// @brief What the rungs on several GPUs share: which GPUs to use, and NCCL's calls checked.
#pragma once

#include <string>
#include <vector>

#include "course/errors.h"

namespace course {

/// How many CUDA devices this process sees (0 without a driver or a device).
int gpu_count();

/// The devices for --gpus K: 0 .. K-1, or every device for K = 0 (the option's default). Throws
/// UsageError (one line) when K is more than the machine has, NoDeviceError when it has none.
std::vector<int> gpus_for(long long requested);

/// Whether this build has NCCL (the rungs on several GPUs need it to run on more than one).
constexpr bool built_with_nccl() {
#ifdef COURSE_HAVE_NCCL
  return true;
#else
  return false;
#endif
}

}  // namespace course

#ifdef COURSE_HAVE_NCCL
#include <nccl.h>

namespace course {

/// Throws CudaError for @p status unless it is ncclSuccess. Used through the NCCL_CHECK macro.
inline void check_nccl(ncclResult_t status, const char* what, const char* file, int line) {
  if (status != ncclSuccess)
    throw CudaError(std::string(what) + " failed at " + file + ":" + std::to_string(line) + ": " +
                    ncclGetErrorString(status));
}

}  // namespace course

/// Checks one NCCL call: `NCCL_CHECK(ncclAllReduce(...));`
#define NCCL_CHECK(call) ::course::check_nccl((call), #call, __FILE__, __LINE__)

namespace course {

/// The NCCL communicators of one process's GPUs, one per GPU, made together by ncclCommInitAll and
/// destroyed with this object; none for a single GPU, which needs no collective.
class Communicators {
 public:
  explicit Communicators(const std::vector<int>& devices) {
    if (devices.size() < 2) return;
    comms_.resize(devices.size());
    NCCL_CHECK(ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()));
  }
  ~Communicators() {
    for (ncclComm_t comm : comms_) ncclCommDestroy(comm);
  }
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;
  bool empty() const { return comms_.empty(); }                  ///< one GPU: no collective to run
  ncclComm_t operator[](std::size_t g) const { return comms_[g]; }  ///< GPU g's communicator

 private:
  std::vector<ncclComm_t> comms_;
};

}  // namespace course

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

namespace course {

/// NCCL's unique id for a run of several processes, handed from rank 0 to the others through @p file,
/// which every process must see (a shared file system across machines): rank 0 makes the id and
/// writes it under another name, then renames it, so that no process reads half of it; the others
/// wait for the file, up to @p timeout_s seconds (then one line), and read it.
inline ncclUniqueId shared_nccl_id(int rank, const std::string& file, double timeout_s = 120) {
  ncclUniqueId id{};
  if (rank == 0) {
    NCCL_CHECK(ncclGetUniqueId(&id));
    const std::string part = file + ".part";
    std::ofstream(part, std::ios::binary).write(id.internal, sizeof id.internal);
    if (std::rename(part.c_str(), file.c_str()) != 0)
      throw UsageError("cannot write NCCL's id to " + file + " (is its folder there and writable?)");
    return id;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    std::ifstream in(file, std::ios::binary);
    if (in.read(id.internal, sizeof id.internal)) return id;
    if (std::chrono::steady_clock::now() > deadline)
      throw UsageError("rank " + std::to_string(rank) + ": no NCCL id in " + file + " after " +
                       std::to_string(static_cast<int>(timeout_s)) + " s (did rank 0 start, and does every process see "
                       "that file?)");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace course
#endif
