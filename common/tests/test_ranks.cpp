// The course's launcher of one process per GPU (course/ranks.h): what each copy is told, how the
// launcher ends when a copy fails, and how rank 0 hands bytes (NCCL's id) to the others of its launch
// through a file, never to a later launch.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "course/errors.h"
#include "course/ranks.h"

namespace {

// Runs the shell line @p script as @p ranks copies through start_ranks().
int start(int ranks, const std::string& script) { return course::start_ranks(ranks, {"/bin/sh", "-c", script}); }

// Unsets the launchers' variables for the length of a test (and restores none: the tests set their own).
void clear_launchers() {
  for (const char* name : {"COURSE_RANK", "COURSE_RANKS", "COURSE_LOCAL_RANK", "COURSE_RANK_SHARED", "COURSE_RUN_STAMP",
                           "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", "SLURM_STEP_ID", "SLURM_JOB_ID"})
    unsetenv(name);
}

// A fresh folder for one test's files, removed with this object.
struct Folder {
  std::string path = (std::filesystem::temp_directory_path() / "course-ranks-test-XXXXXX").string();
  Folder() { REQUIRE(mkdtemp(path.data()) != nullptr); }
  ~Folder() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return path + "/" + name; }
};

std::string contents(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Rank 1 of the launch @p stamp waiting on @p file while rank 0 (a thread) hands over @p bytes after
// @p delay_ms: what rank 1 takes.
std::string take_while_rank0_writes(const std::string& file, const std::string& stamp, const std::string& bytes,
                                    int delay_ms) {
  std::thread rank0([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    course::hand_over(file, stamp, bytes);
  });
  std::string taken;
  std::exception_ptr failure;
  try {
    taken = course::take_handover(1, file, stamp, "NCCL id", 10);
  } catch (...) {
    failure = std::current_exception();
  }
  rank0.join();
  if (failure) std::rethrow_exception(failure);
  return taken;
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
  setenv("SLURM_JOB_ID", "12", 1);
  const course::Rank slurm = course::this_rank();
  REQUIRE(slurm.launcher == "slurm");
  REQUIRE(slurm.rank == 5);
  REQUIRE(slurm.ranks == 8);
  REQUIRE(slurm.local == 1);
  REQUIRE(slurm.stamp == "slurm job 12 step 0");
  setenv("SLURM_STEP_ID", "1", 1);  // the job's next srun
  REQUIRE(course::this_rank().stamp == "slurm job 12 step 1");
  setenv("COURSE_RANK", "1", 1);  // the course's launcher, where both are set
  setenv("COURSE_RANKS", "2", 1);
  REQUIRE(course::this_rank().launcher == "course");
  REQUIRE(course::this_rank().local == 1);
  REQUIRE(course::this_rank().stamp.empty());  // started by hand, with no stamp of its own
  setenv("COURSE_RUN_STAMP", "course run 1", 1);
  REQUIRE(course::this_rank().stamp == "course run 1");
  setenv("COURSE_RANK", "2", 1);
  REQUIRE_THROWS_AS(course::this_rank(), course::UsageError);  // rank 2 of 2
  setenv("COURSE_RANK", "one", 1);
  REQUIRE_THROWS_WITH(course::this_rank(), "COURSE_RANK='one' is not a rank (a whole number from 0)");
  clear_launchers();
}

TEST_CASE("each launch gives all its copies one stamp, and the next launch another") {
  Folder folder;
  setenv("COURSE_RUN_STAMP", "an older launch's", 1);  // the launcher's own stamp wins over an inherited one
  const std::string script = "printf %s \"$COURSE_RUN_STAMP\" > " + folder.path + "/launch-$LAUNCH-rank-$COURSE_RANK";
  setenv("LAUNCH", "1", 1);
  REQUIRE(start(2, script) == 0);
  setenv("LAUNCH", "2", 1);
  REQUIRE(start(2, script) == 0);
  unsetenv("LAUNCH");
  unsetenv("COURSE_RUN_STAMP");
  const std::string first = contents(folder.file("launch-1-rank-0")), second = contents(folder.file("launch-2-rank-0"));
  REQUIRE(first.rfind("course run ", 0) == 0);
  REQUIRE(contents(folder.file("launch-1-rank-1")) == first);
  REQUIRE(contents(folder.file("launch-2-rank-1")) == second);
  REQUIRE(second != first);
}

TEST_CASE("a rank passes over a file left by another launch and takes its own launch's once rank 0 writes it") {
  Folder folder;
  const std::string file = folder.file("nccl-id");
  SECTION("an earlier launch's file") { course::hand_over(file, "course run old", "old id"); }
  SECTION("a file of the form before stamps: NCCL's bytes alone") { std::ofstream(file) << std::string(128, 'x'); }
  SECTION("an earlier launch's file, unstamped (its ranks started by hand)") { course::hand_over(file, "", "old id"); }
  REQUIRE(take_while_rank0_writes(file, "course run new", "new id", 300) == "new id");
  REQUIRE(!std::filesystem::exists(file + "." + std::to_string(getpid()) + ".part"));  // renamed, not copied
}

TEST_CASE("two launches in a row on the same file each take their own bytes") {
  Folder folder;
  const std::string file = folder.file("nccl-id");
  REQUIRE(take_while_rank0_writes(file, "slurm job 7 step 0", "first id", 100) == "first id");
  // The first launch's file is still there (its rank 0 did not remove it) when the second's rank 1 looks.
  REQUIRE(take_while_rank0_writes(file, "slurm job 7 step 1", "second id", 300) == "second id");
  // Started by hand, without stamps: the second try takes its own once rank 0 has removed the first's.
  std::filesystem::remove(file);
  REQUIRE(take_while_rank0_writes(file, "", "by hand", 100) == "by hand");
}

TEST_CASE("a rank that waits in vain says so in one line, naming the file's stamp and its own") {
  Folder folder;
  const std::string file = folder.file("nccl-id");
  const auto message = [&](const std::string& stamp) {
    try {
      course::take_handover(1, file, stamp, "NCCL id", 0.2);
    } catch (const course::UsageError& e) {
      return std::string(e.what());
    }
    return std::string("took it");
  };
  REQUIRE(message("course run new") ==
          "rank 1: no NCCL id in " + file + " after 0.2 s (did rank 0 start, and does every process see that file?)");
  course::hand_over(file, "slurm job 7 step 0", "old id");
  REQUIRE(message("slurm job 7 step 1") ==
          "rank 1: after 0.2 s, " + file + " still holds another launch's NCCL id, left behind by an earlier run (its "
          "stamp: 'slurm job 7 step 0'; this launch's: 'slurm job 7 step 1'); did rank 0 of this run start?");
  REQUIRE(message("") == "rank 1: after 0.2 s, " + file + " still holds another launch's NCCL id, left behind by an "
                         "earlier run (its stamp: 'slurm job 7 step 0'; this launch's: none, started by hand); did "
                         "rank 0 of this run start?");
  REQUIRE_THROWS_WITH(course::hand_over(folder.file("missing/nccl-id"), "x", "id"),
                      "cannot write " + folder.file("missing/nccl-id") +
                          " for the other ranks (is its folder there and writable?)");
}
