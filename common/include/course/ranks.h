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
  /// What every process of this launch shares and no other launch has: Slurm's job and step, or the
  /// course's launcher's random stamp (COURSE_RUN_STAMP); empty for processes started by hand without
  /// one. A file handed over between the ranks carries it, so that none takes an earlier run's.
  std::string stamp;
};

/// This process's rank: from the course's own launcher (COURSE_RANK, COURSE_RANKS, COURSE_LOCAL_RANK,
/// COURSE_RANK_SHARED, COURSE_RUN_STAMP) or from a task of Slurm's srun (SLURM_STEP_ID set, SLURM_PROCID,
/// SLURM_NTASKS, SLURM_LOCALID, SLURM_JOB_ID); a process started by hand, a batch script's own included,
/// is rank 0 of 1 with no launcher. Throws UsageError for values that do not fit.
Rank this_rank();

/// The course's launcher: starts @p ranks copies of the command @p argv, copy r with COURSE_RANK=r,
/// COURSE_RANKS, COURSE_LOCAL_RANK=r, COURSE_RANK_SHARED (a fresh folder, removed afterwards) and
/// COURSE_RUN_STAMP (the same random stamp in every copy, a new one on each call) added to this
/// process's environment, which they otherwise inherit as it is (NCCL's settings among it).
/// Waits for every copy and returns the exit code of the first to fail (the others are then stopped,
/// as they would wait for it for ever), or 0 when all returned 0.
int start_ranks(int ranks, const std::vector<std::string>& argv);

/// The path of this program, for start_ranks() to start it again.
std::string this_program_path();

/// Rank 0's half of handing @p bytes (NCCL's id, say) to the other ranks of its launch through @p file,
/// which every process sees: writes them with @p stamp (Rank::stamp) under another name, then renames
/// that to @p file, so that no process reads half of it. Throws UsageError (one line) when it cannot.
void hand_over(const std::string& file, const std::string& stamp, const std::string& bytes);

/// The other ranks' half: waits until @p file holds bytes stamped @p stamp, and returns them. A file of
/// another launch (one left behind by an earlier run) is passed over, never taken. After @p timeout_s
/// seconds throws UsageError, in one line for rank @p rank that names @p what it waited for and, where
/// the file holds another launch's, both stamps.
std::string take_handover(int rank, const std::string& file, const std::string& stamp, const std::string& what,
                          double timeout_s);

}  // namespace course
