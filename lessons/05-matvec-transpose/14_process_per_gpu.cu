// Lesson 05, step 14: step 13's bands and all-reduce, with one process per GPU.
//
// What changed: the host side, not the GPUs' work. Step 13 drives every GPU from one process, which
// cannot reach past one machine. Here each GPU gets a process of its own, all running this program
// (SPMD: single program, multiple data): process r of K learns r and K from its launcher, takes GPU
// r of its machine and band r of A's rows, runs step 11's single pass on it, and joins one NCCL
// all-reduce of C with the others. To make their communicator, the processes must share NCCL's
// unique id: rank 0 makes it and writes it to a file that every process sees, stamped with this
// launch; the others wait until the file holds their own launch's id, never taking one that an
// earlier run left there (course::shared_nccl_id), and each calls ncclCommInitRank with its own rank.
// That returns once every rank has joined, so every rank has read the id: rank 0 then removes the file.
//
// Started by hand, the program is its own launcher: it starts one copy of itself per GPU (--gpus K,
// every GPU by default) with COURSE_RANK, COURSE_RANKS, a folder they share for the id and a stamp
// of this launch, waits for them, and ends as they do (course::start_ranks). Under Slurm, srun starts
// the copies, on one or several machines, and sets SLURM_PROCID, SLURM_NTASKS and SLURM_LOCALID in
// each task of its step (a batch script's own shell has the first two as well, but no step: run there
// by hand, the program is its own launcher); the stamp is Slurm's job and step, the same in every task
// of one srun and another for the job's next srun. --nccl-id names the file for the id, on a file
// system every machine sees:
//
//   srun --nodes 2 --ntasks-per-node 4 --gpus-per-node 4 build/bin/lesson05_14_process_per_gpu \
//        --nccl-id $HOME/nccl-id.$SLURM_JOB_ID
//
// Why it is faster: it is not, on one machine; it is what scales past one. Each process starts only
// its own GPU's work, where step 13's one thread starts every GPU's in turn.
//
// What it costs: K processes, each making and checking the whole problem (the same seed gives every
// rank the same A), a file to hand the id over, and a run that stops when any process fails (the
// launcher stops the others, which would wait for it in NCCL for ever). Rank 0 reports; the others
// check their C in silence.
//
// Launch: --gpus K processes (default: every GPU); each GPU's launch is step 11's for its band.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "course/gpus.h"
#include "course/ranks.h"
#include "course/step_program.h"
#include "course/timing.h"
#include "course/verify.h"
#include "13_gpus_all_reduce.cuh"
#include "matvec.h"

namespace {

// Where rank 0 hands NCCL's id to the others: --nccl-id, or the course's launcher's shared folder
// (the lesson's driver has refused a run of several processes with neither).
std::string id_file(const course::Rank& me, const matvec::Request& request) {
  return !request.nccl_id.empty() ? request.nccl_id : me.shared + "/nccl-id";
}

// One process's part: its band on its GPU, the all-reduce with the others, rank 0's report.
int run_rank(const course::Rank& me, matvec::Request& request) {
  const std::string file = id_file(me, request);
  course::require_cuda_device();
  // Under Slurm with a GPU per task, each task sees one GPU: its own.
  const int visible = course::gpu_count(), device = visible == 1 ? 0 : me.local;
  if (device >= visible)
    throw course::UsageError("process " + std::to_string(me.local) + " of its machine, which has " +
                             std::to_string(visible) + " GPUs");
  const matvec::Problem problem = matvec::load_problem(request);  // the same A and v in every process
  request.rows = problem.rows;
  request.columns = problem.columns;
  const std::size_t ranks = static_cast<std::size_t>(me.ranks), rank = static_cast<std::size_t>(me.rank);
  gpus_rows::Band band(problem, device, rank, ranks, request.requested);
#ifdef COURSE_HAVE_NCCL
  ncclComm_t comm = nullptr;
  if (ranks > 1) {
    const ncclUniqueId id = course::shared_nccl_id(me, file);
    NCCL_CHECK(ncclCommInitRank(&comm, me.ranks, id, me.rank));
    if (me.rank == 0) std::remove(file.c_str());  // every rank has read it: leave nothing for a later run
  }
#endif
  const auto run = [&](cudaStream_t stream) {
    band.run(problem.columns);
#ifdef COURSE_HAVE_NCCL
    if (comm != nullptr)  // every process's part of C summed, in every process
      NCCL_CHECK(ncclAllReduce(band.c.data(), band.c.data(), problem.columns, ncclFloat, ncclSum, comm, stream));
#endif
  };
  course::Measurement m = matvec::Lesson::describe(matvec::kThisStep, request);
  m.time = course::time_gpu(run, request.common.timing, band.stream, [&](cudaStream_t s) { band.c.poison(s); });
  const std::vector<float> c = band.c.to_host();
#ifdef COURSE_HAVE_NCCL
  if (comm != nullptr) NCCL_CHECK(ncclCommDestroy(comm));
#endif
  if (me.rank != 0) {  // the others check their C without a word: the launcher reports their failure
    const std::vector<double> expected = matvec::reference(problem);
    return course::compare_close(c.data(), expected.data(), problem.columns, matvec::tolerance(problem, expected)).pass
               ? course::kExitPass
               : course::kExitFail;
  }
  m.launch = std::to_string(ranks) + (ranks == 1 ? " process" : " processes, one per GPU") + " (started by " +
             me.launcher + "), " + std::to_string(band.rows) + " rows on rank 0 (" +
             (band.plan.parts > 0 ? "two passes" : matvec::layout_name(band.plan.layout) + " layout") + ")" +
             (ranks > 1 ? ", then one all-reduce of " + std::to_string(problem.columns) + " floats" : "");
  return matvec::report_gpu(m, problem, c, request, me.ranks);
}

// On one GPU the step is step 11 (the lesson's tests of every step run it so).
matvec::LaunchPlan plan(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                        const matvec::LaunchPlan& requested) {
  return halving_sums::plan_by_length(rows, columns, device, requested);
}

}  // namespace

const matvec::Step matvec::kThisStep = {"14", "one process per GPU, one all-reduce", "gpu", nullptr, plan,
                                        halving_sums::run_by_plan, 1, false, matvec::kProcessesOption};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<matvec::Lesson>(argc, argv, matvec::kThisStep, [&](matvec::Request& request) {
    const course::Rank me = course::this_rank();
    if (!me.launcher.empty()) return run_rank(me, request);
    // Started by hand: one copy of this program per GPU, with the same arguments. An --input file is
    // read once here first, so that a bad one is refused in one line, not once per process.
    if (!request.common.input.empty()) matvec::load_problem(request);
    const std::size_t processes = course::gpus_for(request.gpus).size();
    if (processes > 1 && !course::built_with_nccl())
      throw course::NotSupportedError("this build has no NCCL (see the CMake output): run it with --gpus 1");
    std::vector<std::string> copy = {course::this_program_path()};
    for (int i = 1; i < argc; ++i) copy.push_back(argv[i]);
    return course::start_ranks(static_cast<int>(processes), copy);
  });
}
