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

#include <algorithm>

#include "course/ranks.h"

namespace course {

/// NCCL's unique id for a run of several processes, handed from rank 0 to the others of the same launch
/// through @p file, which every process must see (a shared file system across machines): rank 0 makes
/// the id and writes it with its launch's stamp (course::hand_over); the others wait, up to @p timeout_s
/// seconds (then one line), for the file to hold their own launch's id, never an earlier run's left
/// behind (course::take_handover). Rank 0 may remove the file once its communicator is made: by then
/// every rank has read it.
inline ncclUniqueId shared_nccl_id(const Rank& me, const std::string& file, double timeout_s = 120) {
  ncclUniqueId id{};
  if (me.rank == 0) {
    NCCL_CHECK(ncclGetUniqueId(&id));
    hand_over(file, me.stamp, std::string(id.internal, sizeof id.internal));
    return id;
  }
  const std::string taken = take_handover(me.rank, file, me.stamp, "NCCL id", timeout_s);
  if (taken.size() != sizeof id.internal)
    throw UsageError(file + " holds " + std::to_string(taken.size()) + " bytes where NCCL's id has " +
                     std::to_string(sizeof id.internal));
  std::copy(taken.begin(), taken.end(), id.internal);
  return id;
}

}  // namespace course
#endif
