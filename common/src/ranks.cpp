#include "course/ranks.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "course/errors.h"

extern char** environ;

namespace course {

namespace {

// The whole number in environment variable @p name, or @p fallback when it is not set.
int number_from(const char* name, int fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr) return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < 0 || value > 1 << 20)
    throw UsageError(std::string(name) + "='" + text + "' is not a rank (a whole number from 0)");
  return static_cast<int>(value);
}

}  // namespace

Rank this_rank() {
  Rank r;
  if (std::getenv("COURSE_RANK") != nullptr) {
    r.launcher = "course";
    r.rank = number_from("COURSE_RANK", 0);
    r.ranks = number_from("COURSE_RANKS", 1);
    r.local = number_from("COURSE_LOCAL_RANK", r.rank);
    if (const char* shared = std::getenv("COURSE_RANK_SHARED")) r.shared = shared;
  } else if (std::getenv("SLURM_STEP_ID") != nullptr && std::getenv("SLURM_PROCID") != nullptr &&
             std::getenv("SLURM_NTASKS") != nullptr) {
    // A task of srun's. (A batch script has SLURM_PROCID and SLURM_NTASKS too, but no step: a program
    // it runs by hand is started by hand.)
    r.launcher = "slurm";
    r.rank = number_from("SLURM_PROCID", 0);
    r.ranks = number_from("SLURM_NTASKS", 1);
    r.local = number_from("SLURM_LOCALID", 0);
  }
  if (r.ranks < 1 || r.rank >= r.ranks)
    throw UsageError("rank " + std::to_string(r.rank) + " of " + std::to_string(r.ranks) + " processes does not fit");
  return r;
}

std::string this_program_path() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find this program's path (/proc/self/exe): " + error.message());
  return self.string();
}

int start_ranks(int ranks, const std::vector<std::string>& argv) {
  if (ranks < 1 || argv.empty()) throw std::invalid_argument("start_ranks: at least one rank and a command");
  std::string shared = (std::filesystem::temp_directory_path() / "course-ranks-XXXXXX").string();
  if (mkdtemp(shared.data()) == nullptr) throw std::runtime_error("cannot make a folder for the ranks to share");
  std::vector<char*> arguments;
  for (const std::string& a : argv) arguments.push_back(const_cast<char*>(a.c_str()));
  arguments.push_back(nullptr);
  std::vector<pid_t> children;
  for (int r = 0; r < ranks; ++r) {
    // This environment as it is, with the rank's four variables in front (they win over any old ones).
    std::vector<std::string> added = {"COURSE_RANK=" + std::to_string(r), "COURSE_RANKS=" + std::to_string(ranks),
                                      "COURSE_LOCAL_RANK=" + std::to_string(r), "COURSE_RANK_SHARED=" + shared};
    std::vector<char*> environment;
    for (std::string& a : added) environment.push_back(a.data());
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string entry = *e;
      if (entry.rfind("COURSE_RANK", 0) != 0 && entry.rfind("COURSE_LOCAL_RANK", 0) != 0) environment.push_back(*e);
    }
    environment.push_back(nullptr);
    pid_t child = 0;
    const int status = posix_spawn(&child, arguments[0], nullptr, nullptr, arguments.data(), environment.data());
    if (status != 0) {
      for (pid_t started : children) waitpid(started, nullptr, 0);
      std::filesystem::remove_all(shared);
      throw std::runtime_error("cannot start " + argv[0] + " for rank " + std::to_string(r));
    }
    children.push_back(child);
  }
  // Waits for them all; the first to fail (in time) stops the others, which would otherwise wait in
  // NCCL for a rank that is gone.
  int first_failure = 0;
  std::vector<bool> running(children.size(), true);
  for (std::size_t left = children.size(); left > 0;) {
    bool reaped = false;
    for (std::size_t r = 0; r < children.size(); ++r) {
      int status = 0;
      if (!running[r] || waitpid(children[r], &status, WNOHANG) != children[r]) continue;
      running[r] = false;
      --left;
      reaped = true;
      const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      if (code != 0 && first_failure == 0) {
        first_failure = code;
        for (std::size_t other = 0; other < children.size(); ++other)
          if (running[other]) kill(children[other], SIGTERM);
      }
    }
    if (!reaped) usleep(10000);
  }
  std::error_code ignored;
  std::filesystem::remove_all(shared, ignored);
  return first_failure;
}

}  // namespace course
