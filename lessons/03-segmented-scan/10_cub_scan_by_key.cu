// Lesson 03, step 10: the library reference, cub::DeviceScan::InclusiveScanByKey.
//
// CUB scans by key: a new segment starts wherever a key is not "equal" to the key before it, as judged
// by an equality functor it calls as equality(previous key, key). We have head flags, not keys, so
// the flags themselves serve as keys, with an equality that answers "the later element is not a
// head": a segment then starts exactly at each flag of 1. CUB reads one byte of key per element, the
// same 9 bytes per float element as our steps; turning the flags into segment numbers first (a scan
// of the flags) would add a pass and 4 more bytes per element. The other way, an ordinary
// cub::DeviceScan::InclusiveScan over (flag, value) pairs with step 03's segmented operator, needs
// iterators that zip the two arrays and split the result; scan-by-key is the interface CUB offers for
// this problem, and the one to measure against.
//
// CUB's documentation describes its scan by key as step 08's method: one pass over tiles of several
// elements per thread, with a decoupled look-back. The README's counters agree as far as they go: an
// init kernel, then one kernel that moves about as many bytes as step 08's.
//
// Its temporary storage is sized once, in plan(), outside the timed region; each run only calls the
// scan. Launch: CUB chooses.
#include <cub/device/device_scan.cuh>

#include <cstdint>

#include "course/check.h"
#include "segmented_scan.h"

namespace {

// "Equal keys" means "same segment": the later element does not start a new one.
struct NotAHead {
  __host__ __device__ bool operator()(std::uint8_t, std::uint8_t later) const { return later == 0; }
};

template <class T, class Op>
void scan_by_key(void* storage, std::size_t& storage_bytes, const T* values, const std::uint8_t* flags, T* result,
                 std::size_t n, cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceScan::InclusiveScanByKey(storage, storage_bytes, flags, values, result, Op{},
                                                 static_cast<std::uint32_t>(n), NotAHead{}, stream));
}

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts&, const segscan::LaunchPlan&) {
  segscan::LaunchPlan p;
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    scan_by_key<T, decltype(op)>(nullptr, p.scratch_bytes, static_cast<const T*>(nullptr), nullptr,
                                 static_cast<T*>(nullptr), n, nullptr);
  });
  if (p.scratch_bytes == 0) p.scratch_bytes = 1;  // a null buffer would mean "size query" again
  return p;
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    std::size_t bytes = p.scratch_bytes;
    scan_by_key<T, decltype(op)>(scratch, bytes, static_cast<const T*>(values), flags, static_cast<T*>(result), n,
                                 stream);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"10", "cub::DeviceScan::InclusiveScanByKey (library)", "library", nullptr,
                                          plan, run, 0};
