// The course's launcher of one process per GPU (course/ranks.h): what each copy is told, and how the
// launcher ends when a copy fails.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "course/errors.h"
#include "course/ranks.h"

namespace {

// Runs the shell line @p script as @p ranks copies through start_ranks().
int start(int ranks, const std::string& script) { return course::start_ranks(ranks, {"/bin/sh", "-c", script}); }

// Unsets the launchers' variables for the length of a test (and restores none: the tests set their own).
void clear_launchers() {
  for (const char* name : {"COURSE_RANK", "COURSE_RANKS", "COURSE_LOCAL_RANK", "COURSE_RANK_SHARED", "SLURM_PROCID",
                           "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_STEP_ID"})
    unsetenv(name);
}

}  // namespace

TEST_CASE("each copy learns its rank, the number of ranks and a folder they all share") {
  // Rank r writes its view into the shared folder; rank 0 waits for every file and checks them all.
  const std::string script =
      "test \"$COURSE_RANKS\" = 3 && test \"$COURSE_LOCAL_RANK\" = \"$COURSE_RANK\" && test -d \"$COURSE_RANK_SHARED\" "
      "&& echo \"$COURSE_RANK\" > \"$COURSE_RANK_SHARED/rank-$COURSE_RANK\" && "
      "if [ \"$COURSE_RANK\" = 0 ]; then for i in $(seq 100); do [ -f \"$COURSE_RANK_SHARED/rank-1\" ] && "
      "[ -f \"$COURSE_RANK_SHARED/rank-2\" ] && exit 0; sleep 0.05; done; exit 9; fi";
  REQUIRE(start(3, script) == 0);
}

TEST_CASE("the first copy to fail gives its exit code and stops the others") {
  // Rank 1 fails at once; ranks 0 and 2 would sleep for a minute: the launcher must not wait for them.
  REQUIRE(start(3, "if [ \"$COURSE_RANK\" = 1 ]; then exit 3; fi; sleep 60") == 3);
}

TEST_CASE("every copy inherits the environment, NCCL's settings among it") {
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  REQUIRE(start(2, "test \"$NCCL_NVLS_ENABLE\" = 0") == 0);
}

TEST_CASE("a process reads its rank from the course's launcher or from Slurm's, else is rank 0 of 1") {
  clear_launchers();
  course::Rank alone = course::this_rank();
  REQUIRE(alone.launcher.empty());
  REQUIRE(alone.rank == 0);
  REQUIRE(alone.ranks == 1);
  setenv("SLURM_PROCID", "5", 1);
  setenv("SLURM_NTASKS", "8", 1);
  setenv("SLURM_LOCALID", "1", 1);
  REQUIRE(course::this_rank().launcher.empty());  // a batch script's variables, but no srun step
  setenv("SLURM_STEP_ID", "0", 1);
  const course::Rank slurm = course::this_rank();
  REQUIRE(slurm.launcher == "slurm");
  REQUIRE(slurm.rank == 5);
  REQUIRE(slurm.ranks == 8);
  REQUIRE(slurm.local == 1);
  setenv("COURSE_RANK", "1", 1);  // the course's launcher, where both are set
  setenv("COURSE_RANKS", "2", 1);
  REQUIRE(course::this_rank().launcher == "course");
  REQUIRE(course::this_rank().local == 1);
  setenv("COURSE_RANK", "2", 1);
  REQUIRE_THROWS_AS(course::this_rank(), course::UsageError);  // rank 2 of 2
  setenv("COURSE_RANK", "one", 1);
  REQUIRE_THROWS_WITH(course::this_rank(), "COURSE_RANK='one' is not a rank (a whole number from 0)");
  clear_launchers();
}
