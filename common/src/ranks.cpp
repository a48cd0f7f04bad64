#include "course/ranks.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

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

// A handover file: this line, the launch's stamp on a line of its own, then the bytes.
constexpr char kHandoverHead[] = "course handover\n";

// What a handover file holds; complete is false while it is missing or not (yet) one.
struct Handover {
  bool complete = false;
  std::string stamp, bytes;
};

Handover read_handover(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const std::string head = kHandoverHead;
  const std::size_t end_of_stamp = text.find('\n', head.size());
  Handover found;
  if (text.compare(0, head.size(), head) != 0 || end_of_stamp == std::string::npos) return found;
  found.complete = true;
  found.stamp = text.substr(head.size(), end_of_stamp - head.size());
  found.bytes = text.substr(end_of_stamp + 1);
  return found;
}

std::string stamp_name(const std::string& stamp) { return stamp.empty() ? "none, started by hand" : "'" + stamp + "'"; }

// A fresh stamp for one launch of the course's launcher: 64 random bits, so that no other launch
// (before it, or on another machine) has the same.
std::string new_run_stamp() {
  std::random_device random;
  std::ostringstream stamp;
  stamp << "course run " << std::hex << std::setfill('0');
  for (int half = 0; half < 2; ++half) stamp << std::setw(8) << random();
  return stamp.str();
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
    if (const char* stamp = std::getenv("COURSE_RUN_STAMP")) r.stamp = stamp;
  } else if (std::getenv("SLURM_STEP_ID") != nullptr && std::getenv("SLURM_PROCID") != nullptr &&
             std::getenv("SLURM_NTASKS") != nullptr) {
    // A task of srun's. (A batch script has SLURM_PROCID and SLURM_NTASKS too, but no step: a program
    // it runs by hand is started by hand.)
    r.launcher = "slurm";
    r.rank = number_from("SLURM_PROCID", 0);
    r.ranks = number_from("SLURM_NTASKS", 1);
    r.local = number_from("SLURM_LOCALID", 0);
    // Every task of one srun has the same job and step; the job's next srun is another step.
    const char* job = std::getenv("SLURM_JOB_ID");
    r.stamp = std::string("slurm job ") + (job != nullptr ? job : "?") + " step " + std::getenv("SLURM_STEP_ID");
  }
  if (r.stamp.find('\n') != std::string::npos) throw UsageError("COURSE_RUN_STAMP must be one line");
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
  const std::string stamp = new_run_stamp();
  std::vector<pid_t> children;
  for (int r = 0; r < ranks; ++r) {
    // This environment as it is, with the rank's five variables in front (they win over any old ones).
    std::vector<std::string> added = {"COURSE_RANK=" + std::to_string(r), "COURSE_RANKS=" + std::to_string(ranks),
                                      "COURSE_LOCAL_RANK=" + std::to_string(r), "COURSE_RANK_SHARED=" + shared,
                                      "COURSE_RUN_STAMP=" + stamp};
    std::vector<char*> environment;
    for (std::string& a : added) environment.push_back(a.data());
    for (char** e = environ; *e != nullptr; ++e) {
      const std::string entry = *e;
      if (entry.rfind("COURSE_RANK", 0) != 0 && entry.rfind("COURSE_LOCAL_RANK", 0) != 0 &&
          entry.rfind("COURSE_RUN_STAMP=", 0) != 0)
        environment.push_back(*e);
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

void hand_over(const std::string& file, const std::string& stamp, const std::string& bytes) {
  if (stamp.find('\n') != std::string::npos) throw std::invalid_argument("hand_over: a stamp of more than one line");
  // A name of this process's own, so that two writers never mix their bytes in one file.
  const std::string part = file + "." + std::to_string(getpid()) + ".part";
  std::ofstream out(part, std::ios::binary);
  out << kHandoverHead << stamp << '\n';
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out || std::rename(part.c_str(), file.c_str()) != 0) {
    std::remove(part.c_str());
    throw UsageError("cannot write " + file + " for the other ranks (is its folder there and writable?)");
  }
}

std::string take_handover(int rank, const std::string& file, const std::string& stamp, const std::string& what,
                          double timeout_s) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const Handover found = read_handover(file);
    if (found.complete && found.stamp == stamp) return found.bytes;
    if (std::chrono::steady_clock::now() > deadline) {
      std::ostringstream message;
      message << "rank " << rank << ": ";
      if (found.complete)
        message << "after " << timeout_s << " s, " << file << " still holds another launch's " << what
                << ", left behind by an earlier run (its stamp: " << stamp_name(found.stamp)
                << "; this launch's: " << stamp_name(stamp) << "); did rank 0 of this run start?";
      else
        message << "no " << what << " in " << file << " after " << timeout_s
                << " s (did rank 0 start, and does every process see that file?)";
      throw UsageError(message.str());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace course
