// Lesson 02, step 11: every GPU of the machine, a share of the array each, and one all-reduce of the
// maxima.
//
// What changed: the array leaves one GPU. GPU g of K holds elements g n / K to (g + 1) n / K - 1,
// finds their largest with step 08's single pass (its kernel and its launch, unchanged), and one NCCL
// all-reduce with the max operator leaves the largest of the K on every GPU. A maximum involves no
// rounding, so the answer is exact, whatever the order.
//
// Why it is faster: each GPU reads only its share of the array, at its own memory's bandwidth.
//
// What it costs, and why it scales poorly at the lesson's size: the all-reduce moves one float, but
// its time is the collective's start-up and a trip between the GPUs, which does not shrink as GPUs
// are added, while each GPU's share does; at 40,960,000 floats one GPU's whole reduction is already
// short, so the all-reduce soon weighs as much as the work (--scaling prints the table of 1, 2, 4, ...
// GPUs with the time lost against perfect scaling split into three parts: fixed, GPU 0's share alone
// less T1 / K; together, every share at once less that share alone; and the all-reduce, the run less
// the shares at once: the README's table). One process drives every GPU, as in lesson 05's step 13:
// the device set before each GPU's calls, a stream and an NCCL communicator per GPU (ncclCommInitAll),
// the all-reduce's calls grouped (see all_reduce() below). ncclCommInitAll makes the communicators of
// one process's GPUs, so the step runs on one machine; lesson 05's step 14 runs a process per GPU,
// which can reach past it.
//
// Launch: --gpus K (default: every GPU); each GPU's launch is step 08's for its share.
#include <cuda_runtime.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/gpus.h"
#include "course/scaling.h"
#include "course/launch.h"
#include "course/step_program.h"
#include "course/timing.h"
#include "08_grid_sync_single_pass.cuh"
#include "11_gpus_all_reduce.h"
#include "max_reduction.h"

using max_reduction::grid_synchronized_max;
using max_reduction::launch_grid_synchronized_max;

namespace gpus_max {

// One GPU's share of the array, its maximum, and step 08's launch for it.
struct Share {
  int device = 0;
  std::size_t first = 0, count = 0;
  cudaStream_t stream = nullptr;
  int blocks = 0, threads = 0;
  course::DeviceBuffer<float> values, result, block_maxima;

  Share(const std::vector<float>& all, int device_, std::size_t g, std::size_t k) : device(device_) {
    if (all.size() < k)
      throw course::UsageError("--gpus " + std::to_string(k) + ": the array has " + std::to_string(all.size()) +
                               " elements, fewer than the GPUs (each needs at least one)");
    first = all.size() * g / k;
    count = all.size() * (g + 1) / k - first;  // the shares differ by an element at most
    CUDA_CHECK(cudaSetDevice(device));         // everything below lives on this GPU
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    threads = 512;  // step 08's launch: as many blocks as the cooperative launch holds
    blocks = course::cooperative_grid_blocks(reinterpret_cast<const void*>(grid_synchronized_max), threads, 0, 0,
                                             course::query_device(device));
    values = course::DeviceBuffer<float>(count, "a share of the array");
    result = course::DeviceBuffer<float>(1, "the maximum");
    block_maxima = course::DeviceBuffer<float>(static_cast<std::size_t>(blocks), "the blocks' maxima");
    values.upload(all.data() + first, count);
  }
  ~Share() {
    cudaSetDevice(device);  // the buffers, freed after this body, are this GPU's
    if (stream != nullptr) cudaStreamDestroy(stream);
  }
  Share(const Share&) = delete;
  Share& operator=(const Share&) = delete;
};

// Step 08's single pass on one GPU's share, into that GPU's stream.
void run_share(const Share& s) {
  CUDA_CHECK(cudaSetDevice(s.device));
  launch_grid_synchronized_max(s.values.data(), s.count, s.block_maxima.data(), s.result.data(), s.blocks, s.threads,
                               s.stream);
}

// The GPUs at work: a share each, and (on more than one) an NCCL communicator each.
class Gpus {
 public:
  Gpus(const std::vector<float>& all, const std::vector<int>& devices) {
    const std::size_t k = devices.size();
    if (k > 1 && !course::built_with_nccl())
      throw course::NotSupportedError("this build has no NCCL (see the CMake output): run it with --gpus 1");
    for (std::size_t g = 0; g < k; ++g) {
      shares_.push_back(std::make_unique<Share>(all, devices[g], g, k));
      streams_.push_back(shares_.back()->stream);
      devices_.push_back(devices[g]);
    }
#ifdef COURSE_HAVE_NCCL
    comms_ = std::make_unique<course::Communicators>(devices);
#endif
    CUDA_CHECK(cudaSetDevice(devices[0]));
  }
  Gpus(const Gpus&) = delete;
  Gpus& operator=(const Gpus&) = delete;

  // Every GPU's maximum, by step 08's kernel on its share; then the all-reduce.
  void run() {
    run_parts();
    all_reduce();
  }

  // Every GPU's share alone, without the all-reduce (--scaling times them apart).
  void run_parts() {
    for (const auto& s : shares_) run_share(*s);
  }

  // The largest of the GPUs' maxima, on every GPU: one float, one call per GPU, grouped. One thread
  // makes all K calls, and a collective call may block until every rank has joined: without the group,
  // the call for GPU 0 could wait for GPU 1's, which this thread would never reach. Between
  // ncclGroupStart and ncclGroupEnd NCCL treats the K calls as one call to many GPUs: they return
  // without waiting, and ncclGroupEnd enqueues the collective on every GPU's stream.
  void all_reduce() {
#ifdef COURSE_HAVE_NCCL
    if (comms_->empty()) return;  // one GPU: its maximum is the answer
    NCCL_CHECK(ncclGroupStart());
    for (std::size_t g = 0; g < shares_.size(); ++g)
      NCCL_CHECK(ncclAllReduce(shares_[g]->result.data(), shares_[g]->result.data(), 1, ncclFloat, ncclMax,
                               (*comms_)[g], shares_[g]->stream));
    NCCL_CHECK(ncclGroupEnd());
#endif
  }

  course::TimingStats time(const std::function<void()>& work, const course::TimingOptions& options) {
    return course::time_gpus(work, options, devices_, streams_, [this] {
      for (const auto& s : shares_) {  // every GPU's answer spoilt (NaN) before each run
        CUDA_CHECK(cudaSetDevice(s->device));
        s->result.poison(s->stream);
      }
    });
  }

  // The answer as GPU 0 holds it (after the work in every stream is done).
  float result() {
    for (const auto& s : shares_) {
      CUDA_CHECK(cudaSetDevice(s->device));
      CUDA_CHECK(cudaStreamSynchronize(s->stream));
    }
    CUDA_CHECK(cudaSetDevice(devices_[0]));
    float got = 0;
    shares_[0]->result.download(&got, 1);
    return got;
  }

  std::string describe() const {
    const Share& s = *shares_[0];
    return std::to_string(shares_.size()) + (shares_.size() == 1 ? " GPU, " : " GPUs, ") + std::to_string(s.count) +
           " elements on GPU 0 in " + std::to_string(s.blocks) + " blocks x " + std::to_string(s.threads) +
           " threads" + (shares_.size() > 1 ? ", then one all-reduce (max) of one float" : "");
  }

  std::size_t size() const { return shares_.size(); }

 private:
  std::vector<std::unique_ptr<Share>> shares_;
  std::vector<cudaStream_t> streams_;
  std::vector<int> devices_;
#ifdef COURSE_HAVE_NCCL
  std::unique_ptr<course::Communicators> comms_;  // destroyed before the GPUs' shares
#endif
};

float run_on_gpus(const std::vector<float>& values, int gpus) {
  Gpus machine(values, course::gpus_for(gpus));
  machine.time([&] { machine.run(); }, course::TimingOptions{0, 1, false});
  return machine.result();
}

// --scaling: the same array on 1, 2, 4, ... GPUs (as many as the machine has), every answer checked,
// and on K GPUs the time lost against perfect scaling split into what it is made of (course/scaling.h):
// the shares on every GPU are timed without the all-reduce, GPU 0's share also on its own, and the
// all-reduce alone.
int print_scaling(const std::vector<float>& values, const max_reduction::Request& request) {
  const std::vector<int> every_gpu = course::gpus_for(0);
  const float expected = max_reduction::reference_max(values.data(), values.size());
  const course::TimingOptions& timing = request.common.timing;
  course::ScalingTable table("share", "all-reduce");
  const bool all_pass = course::add_scaling_rows(
      table, every_gpu, timing, [&](const std::vector<int>& devices) { return Gpus(values, devices); },
      [&](Gpus& machine) { return machine.result() == expected; },
      [&](std::size_t k) {
        Share lone(values, every_gpu[0], 0, k);  // GPU 0's share, with the GPU to itself
        return course::time_gpus([&] { run_share(lone); }, timing, {lone.device}, {lone.stream}).median_ms;
      });
  std::cout << "Lesson 02, step 11: the largest of " << values.size() << " floats on 1 to " << every_gpu.size()
            << " GPUs, a share of the array on each GPU; " << course::query_device(every_gpu[0]).name
            << ", medians of " << timing.reps << " runs\n\n";
  table.print(std::cout);
  std::cout << "T1: step 08's kernel on the whole array; the all-reduce carries one float\n";
  return all_pass ? course::kExitPass : course::kExitFail;
}

}  // namespace gpus_max

namespace {

// On one GPU the step is step 08 (the lesson's tests of every step run it so).
max_reduction::LaunchPlan plan(std::size_t, const course::DeviceFacts& device, const max_reduction::LaunchPlan&) {
  max_reduction::LaunchPlan p;
  p.threads = 512;
  p.blocks = course::cooperative_grid_blocks(reinterpret_cast<const void*>(grid_synchronized_max), p.threads, 0, 0,
                                             device);
  p.scratch_bytes = p.blocks * sizeof(float);
  return p;
}

void run(const float* values, std::size_t n, float* result, const max_reduction::LaunchPlan& p, void* scratch,
         cudaStream_t stream) {
  launch_grid_synchronized_max(values, n, static_cast<float*>(scratch), result, p.blocks, p.threads, stream);
}

}  // namespace

const max_reduction::Step max_reduction::kThisStep = {
    "11", "every GPU, a share each, one all-reduce", "gpu", nullptr, plan, run, false, true};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<max_reduction::Lesson>(argc, argv, max_reduction::kThisStep,
                                                  [](max_reduction::Request& request) {
    const std::vector<float> values = max_reduction::load_input(request);  // --input, or seeded floats
    request.n = values.size();
    if (request.scaling) return gpus_max::print_scaling(values, request);
    course::Measurement m = max_reduction::Lesson::describe(max_reduction::kThisStep, request);
    gpus_max::Gpus machine(values, course::gpus_for(request.gpus));
    m.time = machine.time([&] { machine.run(); }, request.common.timing);
    return max_reduction::report_gpu(m, values, machine.result(), request, machine.describe(),
                                     static_cast<int>(machine.size()));
  });
}
