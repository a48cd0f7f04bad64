// Lesson 05, step 13: every GPU of the machine, a band of A's rows each, and one all-reduce of C.
//
// What changed: the problem leaves one GPU. C = A^T (A v) is the sum over the rows i of B_i times row
// i, so a band of rows gives a part of C that needs nothing from the other bands. GPU g of K holds rows
// g M / K to (g + 1) M / K - 1 and runs step 11's single pass on them (its plan and its kernels,
// unchanged); then one NCCL all-reduce adds the K parts, after which every GPU holds the whole C. It
// is the pattern of data-parallel training: each GPU its own share of the data, one all-reduce of what
// they computed.
//
// Why it is faster: each GPU reads only its band of A, at its own memory's bandwidth, while the
// all-reduce's buffer is N floats per GPU (C, 64 KB at the default size), carried over NVLink where
// the GPUs have it.
//
// What it costs: the all-reduce, whose time does not shrink as GPUs are added, and each band's fixed
// costs (its launches, its last pass), which do not shrink with the band either; --scaling prints the
// table of 1, 2, 4, ... GPUs with the time lost against perfect scaling split into three parts: fixed
// (a band's costs beyond its share of the rows), together (the slowest band, and what the GPUs cost
// each other working at once) and all-reduce (print_scaling below). And A must be cut before it
// reaches the GPUs: each band is copied to its own GPU.
//
// The host side is on this page: one process drives every GPU, setting the device before each GPU's
// calls, with one NCCL communicator per GPU made by ncclCommInitAll; each GPU's work goes into its own
// stream, and the all-reduce's calls, one per GPU, are grouped (ncclGroupStart/End): each call may
// block until every rank has joined the collective, so one thread making them one after another
// could wait in the first for calls it has not made yet; grouped, they are one operation. One GPU
// needs no all-reduce: its C is the whole C. ncclCommInitAll makes the communicators of one
// process's GPUs, so this step stays on one machine (step 14: a process per GPU).
//
// Launch: --gpus K (default: every GPU); each GPU's launch is step 11's for its band.
#include <cuda_runtime.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/gpus.h"
#include "course/scaling.h"
#include "course/step_program.h"
#include "course/timing.h"
#include "course/verify.h"
#include "13_gpus_all_reduce.cuh"
#include "13_gpus_all_reduce.h"
#include "matvec.h"

namespace gpus_rows {

// The GPUs at work: a band each, and (on more than one) an NCCL communicator each.
class Gpus {
 public:
  Gpus(const matvec::Problem& p, const std::vector<int>& devices, const LaunchPlan& requested) : columns_(p.columns) {
    const std::size_t k = devices.size();
    if (k > 1 && !course::built_with_nccl())
      throw course::NotSupportedError("this build has no NCCL (see the CMake output): run it with --gpus 1");
    for (std::size_t g = 0; g < k; ++g) {
      bands_.push_back(std::make_unique<Band>(p, devices[g], g, k, requested));
      streams_.push_back(bands_.back()->stream);
    }
#ifdef COURSE_HAVE_NCCL
    comms_ = std::make_unique<course::Communicators>(devices);
#endif
    CUDA_CHECK(cudaSetDevice(devices[0]));
  }
  Gpus(const Gpus&) = delete;
  Gpus& operator=(const Gpus&) = delete;

  // Every GPU's part of C, by step 11's kernels on its band; then the all-reduce.
  void run() {
    run_parts();
    all_reduce();
  }

  // Every GPU's band alone, without the all-reduce (--scaling times them apart).
  void run_parts() {
    for (const auto& b : bands_) {
      CUDA_CHECK(cudaSetDevice(b->device));
      b->run(columns_);
    }
  }

  // C = the sum of the GPUs' parts, on every GPU: one call per GPU, grouped so that one thread can make
  // them all (NCCL starts the collective once every GPU's call is in).
  void all_reduce() {
#ifdef COURSE_HAVE_NCCL
    if (comms_->empty()) return;  // one GPU: its part is C
    NCCL_CHECK(ncclGroupStart());
    for (std::size_t g = 0; g < bands_.size(); ++g)
      NCCL_CHECK(ncclAllReduce(bands_[g]->c.data(), bands_[g]->c.data(), columns_, ncclFloat, ncclSum, (*comms_)[g],
                               bands_[g]->stream));
    NCCL_CHECK(ncclGroupEnd());
#endif
  }

  // Every byte of every GPU's C set to 0xFF (NaN), so that a part left unwritten cannot pass.
  void poison() {
    for (const auto& b : bands_) {
      CUDA_CHECK(cudaSetDevice(b->device));
      b->c.poison(b->stream);
    }
  }

  course::TimingStats time(const std::function<void()>& work, const course::TimingOptions& options) {
    return course::time_gpus(work, options, devices(), streams_, [this] { poison(); });
  }

  // C as GPU 0 holds it (after the work in every stream is done).
  std::vector<float> result() {
    for (const auto& b : bands_) {
      CUDA_CHECK(cudaSetDevice(b->device));
      CUDA_CHECK(cudaStreamSynchronize(b->stream));
    }
    CUDA_CHECK(cudaSetDevice(bands_[0]->device));
    return bands_[0]->c.to_host();
  }

  // For the text report: how many GPUs, their bands, and GPU 0's launch.
  std::string describe() const {
    const Band& b = *bands_[0];
    return std::to_string(bands_.size()) + (bands_.size() == 1 ? " GPU, " : " GPUs, ") + std::to_string(b.rows) +
           " rows on GPU 0 (" + (b.plan.parts > 0 ? "two passes" : matvec::layout_name(b.plan.layout) + " layout") +
           ")" + (bands_.size() > 1 ? ", then one all-reduce of " + std::to_string(columns_) + " floats" : "");
  }

  std::vector<int> devices() const {
    std::vector<int> d;
    for (const auto& b : bands_) d.push_back(b->device);
    return d;
  }

 private:
  std::size_t columns_;
  std::vector<std::unique_ptr<Band>> bands_;
  std::vector<cudaStream_t> streams_;
#ifdef COURSE_HAVE_NCCL
  std::unique_ptr<course::Communicators> comms_;  // destroyed before the GPUs' shares
#endif
};

std::vector<float> run_on_gpus(const matvec::Problem& p, int gpus, const LaunchPlan& requested) {
  Gpus machine(p, course::gpus_for(gpus), requested);
  machine.poison();
  machine.run();
  return machine.result();
}

// --scaling: the same problem on 1, 2, 4, ... GPUs (as many as the machine has), every answer checked,
// and on K GPUs the time lost against perfect scaling split into what it is made of (course/scaling.h):
// the bands on every GPU are timed without the all-reduce, GPU 0's band also on its own, and the
// all-reduce alone.
int print_scaling(const matvec::Problem& p, const matvec::Request& request) {
  const std::vector<int> every_gpu = course::gpus_for(0);
  const std::vector<double> expected = matvec::reference(p);
  const course::Tolerance tolerance = matvec::tolerance(p, expected);
  const course::TimingOptions& timing = request.common.timing;
  course::ScalingTable table("band", "all-reduce");
  const bool all_pass = course::add_scaling_rows(
      table, every_gpu, timing,
      [&](const std::vector<int>& devices) { return Gpus(p, devices, request.requested); },
      [&](Gpus& machine) {
        return course::compare_close(machine.result().data(), expected.data(), p.columns, tolerance).pass;
      },
      [&](std::size_t k) {
        Band lone(p, every_gpu[0], 0, k, request.requested);  // GPU 0's band, with the GPU to itself
        return course::time_gpus([&] {
                                   CUDA_CHECK(cudaSetDevice(lone.device));
                                   lone.run(p.columns);
                                 },
                                 timing, {lone.device}, {lone.stream})
            .median_ms;
      });
  std::cout << "Lesson 05, step 13: C = A^T (A v) on 1 to " << every_gpu.size() << " GPUs, " << p.rows << " x "
            << p.columns << ", a band of A's rows on each GPU; " << course::query_device(every_gpu[0]).name
            << ", medians of " << timing.reps << " runs\n\n";
  table.print(std::cout);
  std::cout << "T1: step 11's kernels on the whole of A; the all-reduce adds " << p.columns << " floats\n";
  return all_pass ? course::kExitPass : course::kExitFail;
}

}  // namespace gpus_rows

namespace {

// On one GPU the step is step 11 (the lesson's tests of every step run it so).
matvec::LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                        const matvec::LaunchPlan& requested) {
  return halving_sums::plan_by_length(rows, columns, device, requested);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"13", "every GPU, a band of rows each, one all-reduce", "gpu", nullptr,
                                        plan, halving_sums::run_by_plan, 1, false, matvec::kGpusOption};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<matvec::Lesson>(argc, argv, matvec::kThisStep, [](matvec::Request& request) {
    const matvec::Problem problem = matvec::load_problem(request);  // --input, or seeded A and v
    request.rows = problem.rows;
    request.columns = problem.columns;
    if (request.scaling) return gpus_rows::print_scaling(problem, request);
    course::Measurement m = matvec::Lesson::describe(matvec::kThisStep, request);
    gpus_rows::Gpus machine(problem, course::gpus_for(request.gpus), request.requested);
    m.time = machine.time([&] { machine.run(); }, request.common.timing);
    m.launch = machine.describe();
    const int gpus = static_cast<int>(machine.devices().size());
    return matvec::report_gpu(m, problem, machine.result(), request, gpus);
  });
}
