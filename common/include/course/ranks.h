/// @file ranks.h
/// @brief One process per GPU: which process this is, and starting them all from one command.
#pragma once

#include <string>
#include <vector>

namespace course {

/// This process's place among the processes of one run.
struct Rank {
  int rank = 0;          ///< this process among the run's, 0 .. ranks - 1
  int ranks = 1;         ///< how many processes the run has
  int local = 0;         ///< this process among those on its machine: the GPU it takes
  std::string launcher;  ///< "course" or "slurm", or empty for a process started by hand
  std::string shared;    ///< a folder every process of the run sees (the course's launcher makes one)
};

/// This process's rank: from the course's own launcher (COURSE_RANK, COURSE_RANKS, COURSE_LOCAL_RANK,
/// COURSE_RANK_SHARED) or from a task of Slurm's srun (SLURM_STEP_ID set, SLURM_PROCID, SLURM_NTASKS,
/// SLURM_LOCALID); a process started by hand, a batch script's own included, is rank 0 of 1 with no
/// launcher. Throws UsageError for values that do not fit.
Rank this_rank();

/// The course's launcher: starts @p ranks copies of the command @p argv, copy r with COURSE_RANK=r,
/// COURSE_RANKS, COURSE_LOCAL_RANK=r and COURSE_RANK_SHARED (a fresh folder, removed afterwards) added
/// to this process's environment, which they otherwise inherit as it is (NCCL's settings among it).
/// Waits for every copy and returns the exit code of the first to fail (the others are then stopped,
/// as they would wait for it for ever), or 0 when all returned 0.
int start_ranks(int ranks, const std::vector<std::string>& argv);

/// The path of this program, for start_ranks() to start it again.
std::string this_program_path();

}  // namespace course
