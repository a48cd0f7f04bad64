// Lesson 03, step 03: the first GPU step. Hillis-Steele's log-step scan in global memory, one launch
// per round.
//
// What changed: the sequential loop of step 01 carries one running value from left to right, which
// one thread must do alone; step 02 runs one such loop per core, each over its own chunk. A GPU
// needs far more threads than that. Hillis and Steele's scan replaces the loop by ceil(log2 n)
// rounds in which every element works at once: in the round with distance d (1, 2, 4, ...), element
// i adds the element d places to its left, when there is one. After the round with distance d,
// element i holds the sum of the 2d elements ending at i; after the last round, of all elements up
// to i. Segments come free with the segmented operator (03_gpu_hillis_steele.cuh): each element is
// a pair (flag, value), and a pair whose stretch contains a head ignores everything to its left. So
// the flags travel with the values, and each round writes new flags as well as new values.
//
// Why it is faster: n threads instead of one per core. Why it is still slow: each round reads and
// writes the whole array (26 rounds at n = 60 million), and the scan does n log2 n operations where
// the sequential loop did n. A round cannot start before the previous one has finished everywhere,
// and nothing inside one launch can wait for that, so each round is its own launch, and the rounds
// ping-pong between two buffers (reading and writing one buffer in place would let a thread read an
// element that another thread has already updated in the same round).
//
// This file is the lesson's host side on one page: once the course's step skeleton has read the
// options, main() makes the problem, allocates device memory, copies the input over, launches the
// rounds, copies the result back and checks it. Later steps leave that to the lesson's harness
// (segmented_scan.cpp, step_main.cpp).
//
// Launch: 256 threads per block (or --threads, whole warps), one thread per element.
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "03_gpu_hillis_steele.cuh"
#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/launch.h"
#include "course/report.h"
#include "segmented_scan.h"

namespace {

using segscan::Flagged;

// One round: element i combines the pair `distance` places to its left with its own.
template <class T, class Op>
__global__ void hillis_steele_round(const T* values_in, const std::uint8_t* flags_in, T* values_out,
                                    std::uint8_t* flags_out, std::size_t n, std::size_t distance) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  Flagged<T> mine{values_in[i], flags_in[i]};
  if (i >= distance) {
    const Flagged<T> left{values_in[i - distance], flags_in[i - distance]};
    mine = segscan::segmented<Op>(left, mine);
  }
  values_out[i] = mine.value;
  flags_out[i] = mine.flag;
}

// The whole scan: one launch per round. The rounds alternate between two pairs of buffers, arranged so
// that the last round writes its values into `result` (its flags go to a spare buffer, unused).
template <class T, class Op>
void hillis_steele_scan(const T* values, const std::uint8_t* flags, T* result, std::size_t n, T* spare_values,
                        std::uint8_t* spare_flags_a, std::uint8_t* spare_flags_b, int threads, cudaStream_t stream) {
  int rounds = 0;
  while ((std::size_t{1} << rounds) < n) ++rounds;
  if (rounds == 0) {  // one element: it is its own scan
    CUDA_CHECK(cudaMemcpyAsync(result, values, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  T* value_buffers[2] = {result, spare_values};
  std::uint8_t* flag_buffers[2] = {spare_flags_a, spare_flags_b};
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  const T* values_in = values;
  const std::uint8_t* flags_in = flags;
  for (int round = 0; round < rounds; ++round) {
    const int out = (rounds - 1 - round) % 2;  // the last round writes buffer 0, the result
    hillis_steele_round<T, Op><<<blocks, threads, 0, stream>>>(values_in, flags_in, value_buffers[out],
                                                                flag_buffers[out], n, std::size_t{1} << round);
    CUDA_CHECK_LAUNCH();
    values_in = value_buffers[out];
    flags_in = flag_buffers[out];
  }
}

// The host side: allocate, copy in, run (timed), copy back, check.
template <class T, class Op>
int scan_on_gpu(segscan::Request& request) {
  const segscan::Problem<T> p = segscan::load_problem<T, Op>(request);  // generated, or read from --input
  const std::size_t n = p.values.size();
  course::Measurement m = segscan::Lesson::describe(segscan::kThisStep, request);
  course::require_cuda_device();

  // Device memory: the input (values and flags), the result, and the spare buffers of the ping-pong.
  const std::size_t value_bytes = n * sizeof(T), flag_bytes = n;
  course::ensure_device_memory(3 * value_bytes + 3 * flag_bytes, "values, flags, result and spare buffers");
  T *d_values = nullptr, *d_result = nullptr, *d_spare_values = nullptr;
  std::uint8_t *d_flags = nullptr, *d_spare_flags_a = nullptr, *d_spare_flags_b = nullptr;
  CUDA_CHECK(cudaMalloc(&d_values, value_bytes));
  CUDA_CHECK(cudaMalloc(&d_result, value_bytes));
  CUDA_CHECK(cudaMalloc(&d_spare_values, value_bytes));
  CUDA_CHECK(cudaMalloc(&d_flags, flag_bytes));
  CUDA_CHECK(cudaMalloc(&d_spare_flags_a, flag_bytes));
  CUDA_CHECK(cudaMalloc(&d_spare_flags_b, flag_bytes));
  CUDA_CHECK(cudaMemcpy(d_values, p.values.data(), value_bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_flags, p.flags.data(), flag_bytes, cudaMemcpyHostToDevice));
  // A copy from pageable host memory may return before its last transfer has landed; the stream below
  // does not wait for the default stream, so wait here.
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int threads = course::whole_warps(request.requested.threads, 256);
  m.time = segscan::time_runs(
      request, stream,
      [&](cudaStream_t s) {
        hillis_steele_scan<T, Op>(d_values, d_flags, d_result, n, d_spare_values, d_spare_flags_a, d_spare_flags_b,
                                  threads, s);
      },
      [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(d_result, 0xFF, value_bytes, s)); });  // poison

  std::vector<T> result(n);
  CUDA_CHECK(cudaMemcpy(result.data(), d_result, value_bytes, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaStreamDestroy(stream));
  for (void* buffer : {static_cast<void*>(d_values), static_cast<void*>(d_result), static_cast<void*>(d_spare_values),
                       static_cast<void*>(d_flags), static_cast<void*>(d_spare_flags_a),
                       static_cast<void*>(d_spare_flags_b)})
    CUDA_CHECK(cudaFree(buffer));
  return segscan::report<T, Op>(m, p, result, request);
}

// The same scan described for the lesson's tests (which run every step through one interface):
// scratch holds the spare buffers.
std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

segscan::LaunchPlan plan(std::size_t n, segscan::Scan scan, const course::DeviceFacts&,
                         const segscan::LaunchPlan& requested) {
  segscan::LaunchPlan p;
  p.threads = course::whole_warps(requested.threads, 256);
  p.scratch_bytes = aligned(n * segscan::value_bytes(scan.type)) + 2 * aligned(n);
  return p;
}

void run(const void* values, const std::uint8_t* flags, void* result, std::size_t n, segscan::Scan scan,
         const segscan::LaunchPlan& p, void* scratch, cudaStream_t stream) {
  segscan::with_scan_types(scan, [&](auto value, auto op) {
    using T = decltype(value);
    auto* bytes = static_cast<unsigned char*>(scratch);
    std::uint8_t* flags_a = bytes + aligned(n * sizeof(T));
    hillis_steele_scan<T, decltype(op)>(static_cast<const T*>(values), flags, static_cast<T*>(result), n,
                                        reinterpret_cast<T*>(bytes), flags_a, flags_a + aligned(n), p.threads, stream);
  });
}

}  // namespace

const segscan::Step segscan::kThisStep = {"03", "Hillis-Steele, global memory, a launch per round", "gpu",
                                          nullptr, plan, run, segscan::kThreadsOption};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<segscan::Lesson>(argc, argv, segscan::kThisStep, [](segscan::Request& request) {
    // The element type and operator are chosen at run time; each of the 24 pairs has its own kernel.
    return segscan::with_scan_types(request.scan, [&](auto value, auto op) -> int {
      return scan_on_gpu<decltype(value), decltype(op)>(request);
    });
  });
}
