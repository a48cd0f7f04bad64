// course_sandbox: runs one command of a student's submission so that it cannot harm the grading of the
// class. ./course grade-class runs every test case, compute-sanitizer run and benchmark of a submission
// through it:
//
//   course_sandbox [--writable DIR]... [--readable PATH]... [--time-limit S]
//                  [--memory-limit BYTES] [--file-size-limit BYTES] [--output FILE --output-limit BYTES]
//                  [--allow-unconfined] -- COMMAND [ARGUMENT]...
//   course_sandbox --check        says whether this machine can confine a command (exit 0) or not (1)
//
// What it guards against, and how:
//   writing outside its folder   Linux's Landlock: the command and everything it starts may create,
//                                change or delete files only beneath the --writable folders (and in
//                                /dev/shm, where CUDA and compute-sanitizer talk between processes);
//                                device files such as the GPU's, and files under /proc (where CUDA
//                                names its threads), can still be opened for writing.
//                                Landlock needs no privileges (Linux 5.13+).
//   reading what is not its own  with --readable, Landlock again: the command may read and run files
//                                only beneath the --readable paths (folders or single files) and the
//                                --writable folders, and in /dev/shm; without it, reading is not
//                                restricted. ./course grade-class compiles a submission so, where the
//                                solutions, the other submissions and the machine's /etc are out of reach.
//   signalling other processes   Landlock's scoping (ABI 6, Linux 6.12+): the command and what it
//                                starts may send signals only to processes inside the sandbox, not to
//                                the judge, grade-class or anything else of the grading user's; on an
//                                older kernel, the contestant's own filter does (course/contestant.h).
//   taking all the memory        --memory-limit: each process's address space (RLIMIT_AS) is capped,
//                                so a compiler fed an endless template or file fails instead of the
//                                machine swapping.
//   filling the disk             --file-size-limit: no file it writes may grow past it (RLIMIT_FSIZE).
//   hanging or spinning          --time-limit: after S seconds every process it started is killed.
//   printing megabytes           --output FILE takes standard output and error through a pipe; past
//                                --output-limit bytes the command is stopped (the file keeps the first
//                                bytes, up to the limit).
//   processes left behind        every process the command started, even one that left its process
//                                group, is killed when the command ends (this program is their
//                                "subreaper": orphans become its children); with --no-left-running,
//                                one still running then also makes the exit code 123.
//   filling the GPU's memory     nothing to do: each command is a process of its own, and the driver
//                                frees its memory when it ends.
// Exit code: the command's own (128 + N for signal N), 124 when the time limit was reached, 125 when the
// output limit was, 123 (with --no-left-running) when the command ended leaving a process running, 2
// for a bad argument, 126 when the command cannot be started, 1 for --check on a machine without
// Landlock. With --allow-unconfined a machine without Landlock runs the command anyway.
#include <fcntl.h>
#include <linux/landlock.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kTimeLimitExit = 124;
constexpr int kLeftRunningExit = 123;
constexpr int kOutputLimitExit = 125;
constexpr int kUsageExit = 2;
constexpr int kCannotStartExit = 126;

// One line on standard error and the exit code (_exit: also in the child, after fork).
[[noreturn]] void refuse(const std::string& why, int code = kUsageExit) {
  std::fprintf(stderr, "course_sandbox: %s\n", why.c_str());
  _exit(code);
}

// --- Landlock (linux/landlock.h; the newer rights are defined here where the header is older) --------
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

// landlock_ruleset_attr as Linux 6.12 has it (the scoped field is ABI 6), whatever this header says;
// the kernel is told the size its ABI knows.
struct RulesetAttributes {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;
  std::uint64_t scoped = 0;
};
std::size_t attributes_size(int abi) { return abi >= 6 ? 24 : abi >= 4 ? 16 : 8; }

// The Landlock ABI version of this kernel, 0 without Landlock.
int landlock_abi() {
  const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

// Every right that changes the file system, as far as this kernel's Landlock knows them; reading and
// executing are left out, so they stay allowed everywhere.
std::uint64_t write_rights(int abi) {
  std::uint64_t rights = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                         LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                         LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                         LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
  return rights;
}

// Reading files and folders, and running programs: handled only where --readable confines them.
constexpr std::uint64_t kReadRights =
    LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE;
// The rights Landlock accepts on a rule for one file (not a folder).
constexpr std::uint64_t kFileRights = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                      LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_TRUNCATE;

// Allows @p rights beneath @p path (a folder, or one file: then only the rights a file can have) in the
// ruleset; false if it cannot be opened.
bool allow(int ruleset, const std::string& path, std::uint64_t rights) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return false;
  if (!std::filesystem::is_directory(path)) rights &= kFileRights;
  landlock_path_beneath_attr rule{};
  rule.allowed_access = rights;
  rule.parent_fd = fd;
  const long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  close(fd);
  return added == 0;
}

// Confines this process and what it starts: file-system changes only beneath @p writable and
// /dev/shm; existing files under /dev (the GPU's device files, /dev/null) and /proc may be written.
// With @p readable not empty, reading and running files too: only beneath @p readable, @p writable
// and /dev/shm. In the child, before exec: a failure here is reported and the command is not run.
void confine(int abi, const std::vector<std::string>& writable, const std::vector<std::string>& readable) {
  const std::uint64_t read_rights = readable.empty() ? 0 : kReadRights;
  RulesetAttributes attributes;
  attributes.handled_access_fs = write_rights(abi) | read_rights;
  if (abi >= 6) attributes.scoped = LANDLOCK_SCOPE_SIGNAL;  // signals stay inside the sandbox
  const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attributes, attributes_size(abi), 0));
  if (ruleset < 0) refuse(std::string("cannot create a Landlock ruleset: ") + std::strerror(errno), kCannotStartExit);
  for (const std::string& folder : writable)
    if (!allow(ruleset, folder, write_rights(abi) | read_rights)) refuse("cannot allow writing in " + folder, kCannotStartExit);
  for (const std::string& path : readable)
    if (!allow(ruleset, path, read_rights)) refuse("cannot allow reading " + path, kCannotStartExit);
  allow(ruleset, "/dev/shm", write_rights(abi) | read_rights);
  std::uint64_t existing_files = LANDLOCK_ACCESS_FS_WRITE_FILE;
  if (abi >= 3) existing_files |= LANDLOCK_ACCESS_FS_TRUNCATE;
  allow(ruleset, "/dev", existing_files);
  // CUDA names the threads it starts by writing /proc/self/task/TID/comm; refused, cudaSetDevice fails
  // with "OS call failed". Files under /proc keep their own permission checks (another process's files
  // need ptrace rights, which Landlock denies outside the sandbox).
  allow(ruleset, "/proc", existing_files);
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
    refuse(std::string("cannot confine the command: ") + std::strerror(errno), kCannotStartExit);
  close(ruleset);
}

// --- processes left behind -------------------------------------------------------------------------
// This process's children (orphans of the command included, as this process is their subreaper),
// from /proc/PID/stat: the state and the parent's pid are the fields after the command name in
// parentheses. With @p running_only, not those that have ended and wait to be reaped.
std::vector<pid_t> children(bool running_only = false) {
  std::vector<pid_t> pids;
  const std::string self = std::to_string(getpid());
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;  // gone meanwhile
    const auto end_of_name = line.rfind(')');
    if (end_of_name == std::string::npos) continue;
    std::istringstream rest(line.substr(end_of_name + 1));
    std::string state, parent;
    if (rest >> state >> parent && parent == self && !(running_only && (state == "Z" || state == "X")))
      pids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return pids;
}

// Those of this process's children that have not ended (an ended one waits, a zombie, to be reaped).
std::vector<pid_t> running_children() { return children(true); }

// Kills the command's process group and every child of this process, again and again (a child killed
// hands its own children to this process), until none is left.
void kill_everything(pid_t group) {
  kill(-group, SIGKILL);
  for (;;) {
    for (pid_t pid : children()) {
      kill(-pid, SIGKILL);  // its group, if it made one
      kill(pid, SIGKILL);
    }
    const pid_t reaped = waitpid(-1, nullptr, WNOHANG);
    if (reaped < 0 && errno == ECHILD) return;
    if (reaped == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// Caps one resource of this process and what it starts (0: left as it is). In the child, before exec.
void limit(int resource, std::uintmax_t bytes, const char* option) {
  if (bytes == 0) return;
  const rlimit cap{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
  if (setrlimit(resource, &cap) != 0) refuse(std::string(option) + ": " + std::strerror(errno), kCannotStartExit);
}

pid_t command_group = 0;
// Slurm's cancel or a Ctrl-C: the command and all it started go too.
extern "C" void on_stop(int signal) {
  if (command_group > 0) kill(-command_group, SIGKILL);
  _exit(128 + signal);
}

struct Options {
  std::vector<std::string> writable;
  std::vector<std::string> readable;  // empty: reading is not restricted
  double time_limit = 0;  // seconds, 0: none
  std::uintmax_t memory_limit = 0;     // bytes of address space per process, 0: none
  std::uintmax_t file_size_limit = 0;  // bytes per file written, 0: none
  std::string output;
  std::uintmax_t output_limit = 0;  // bytes, 0: none
  bool allow_unconfined = false;
  bool no_left_running = false;  // a process still running when the command ends: exit code 123
  std::vector<char*> command;
};

Options parse(int argc, char** argv) {
  Options o;
  int i = 1;
  auto value = [&](const char* option) -> std::string {
    if (i + 1 >= argc) refuse(std::string(option) + " needs a value");
    return argv[++i];
  };
  auto number = [&](const char* option) {
    const std::string text = value(option);
    char* end = nullptr;
    const double n = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !(n > 0)) refuse(std::string(option) + ": '" + text + "' is not a positive number");
    return n;
  };
  for (; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") {
      ++i;
      break;
    }
    if (word == "--writable") {
      const std::string folder = value("--writable");
      if (!std::filesystem::is_directory(folder)) refuse("--writable: " + folder + " is not a folder");
      o.writable.push_back(folder);
    } else if (word == "--readable") {
      const std::string path = value("--readable");
      if (!std::filesystem::exists(path)) refuse("--readable: " + path + " does not exist");
      o.readable.push_back(path);
    } else if (word == "--memory-limit") {
      o.memory_limit = static_cast<std::uintmax_t>(number("--memory-limit"));
    } else if (word == "--file-size-limit") {
      o.file_size_limit = static_cast<std::uintmax_t>(number("--file-size-limit"));
    } else if (word == "--time-limit") {
      o.time_limit = number("--time-limit");
    } else if (word == "--output") {
      o.output = value("--output");
    } else if (word == "--output-limit") {
      o.output_limit = static_cast<std::uintmax_t>(number("--output-limit"));
    } else if (word == "--allow-unconfined") {
      o.allow_unconfined = true;
    } else if (word == "--no-left-running") {
      o.no_left_running = true;
    } else {
      refuse("unknown option " + word + " (usage: course_sandbox [--writable DIR]... [--readable PATH]... [--time-limit S] "
             "[--memory-limit BYTES] [--file-size-limit BYTES] [--output FILE --output-limit BYTES] "
             "[--no-left-running] [--allow-unconfined] -- COMMAND...)");
    }
  }
  for (; i < argc; ++i) o.command.push_back(argv[i]);
  if (o.command.empty()) refuse("no command given (after --)");
  o.command.push_back(nullptr);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const int abi = landlock_abi();
  if (argc == 2 && std::string(argv[1]) == "--check") {
    if (abi == 0) {
      std::printf("this machine cannot confine a command: its kernel has no Landlock (Linux 5.13 or later, with Landlock on)\n");
      return 1;
    }
    std::printf("commands are confined with Landlock (ABI version %d)%s\n", abi,
                abi >= 6 ? ", their signals too" : "; signals are not scoped before ABI 6 (Linux 6.12)");
    return 0;
  }
  const Options o = parse(argc, argv);
  if (abi == 0 && !o.allow_unconfined)
    refuse("this machine's kernel has no Landlock, so the command cannot be confined (--allow-unconfined runs it anyway)");

  // The command's output comes through a pipe, so that this process can count it and stop the command
  // at the limit; the file is opened here, so the command cannot reach it by name.
  int output_fd = -1, pipe_fds[2] = {-1, -1};
  if (!o.output.empty()) {
    output_fd = open(o.output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (output_fd < 0) refuse("--output: cannot write " + o.output + ": " + std::strerror(errno));
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) refuse(std::string("cannot make a pipe: ") + std::strerror(errno), kCannotStartExit);
  }
  prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  const pid_t child = fork();
  if (child < 0) refuse(std::string("cannot start a process: ") + std::strerror(errno), kCannotStartExit);
  if (child == 0) {
    setpgid(0, 0);
    const int nothing = open("/dev/null", O_RDONLY | O_CLOEXEC);  // no input: a read ends at once
    if (nothing >= 0) dup2(nothing, STDIN_FILENO);
    if (output_fd >= 0 && (dup2(pipe_fds[1], STDOUT_FILENO) < 0 || dup2(pipe_fds[1], STDERR_FILENO) < 0))
      refuse("cannot redirect the output", kCannotStartExit);
    limit(RLIMIT_AS, o.memory_limit, "--memory-limit");
    limit(RLIMIT_FSIZE, o.file_size_limit, "--file-size-limit");
    if (abi > 0) confine(abi, o.writable, o.readable);
    execvp(o.command[0], o.command.data());
    refuse(std::string("cannot run ") + o.command[0] + ": " + std::strerror(errno), kCannotStartExit);
  }
  setpgid(child, child);  // also here, so that the group exists before any signal is sent to it
  command_group = child;
  signal(SIGTERM, on_stop);
  signal(SIGINT, on_stop);
  signal(SIGHUP, on_stop);

  if (pipe_fds[1] >= 0) close(pipe_fds[1]);

  // Copies what the command printed into the output file, up to the limit; false once it is passed.
  std::uintmax_t printed = 0;
  bool over_limit = false;
  auto copy_output = [&](int wait_ms) {
    if (pipe_fds[0] < 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
      return;
    }
    pollfd ready{pipe_fds[0], POLLIN, 0};
    if (poll(&ready, 1, wait_ms) <= 0) return;
    char buffer[65536];
    const ssize_t got = read(pipe_fds[0], buffer, sizeof buffer);
    if (got <= 0) {  // every writer is gone
      close(pipe_fds[0]);
      pipe_fds[0] = -1;
      return;
    }
    const std::uintmax_t room = o.output_limit == 0 ? got : std::min<std::uintmax_t>(got, o.output_limit - printed);
    if (room > 0 && write(output_fd, buffer, room) < 0) refuse("--output: cannot write " + o.output, kCannotStartExit);
    printed += room;
    over_limit = room < static_cast<std::uintmax_t>(got);
  };

  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(o.time_limit);
  int status = 0;
  bool timed_out = false;
  for (;;) {
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) break;
    if (done < 0 && errno != EINTR) refuse(std::string("lost the command: ") + std::strerror(errno), kCannotStartExit);
    timed_out = o.time_limit > 0 && Clock::now() >= deadline;
    if (timed_out || over_limit) {
      kill(-child, SIGKILL);
      waitpid(child, &status, 0);
      break;
    }
    copy_output(10);
  }
  // The command's main process has ended (or was stopped); what it started may still be running.
  const bool left_running = o.no_left_running && !timed_out && !over_limit && !running_children().empty();
  kill_everything(child);
  // What is left in the pipe. No writer is left, so this ends; the bound is for one that got the pipe's
  // end passed to a process outside this one's tree.
  for (const auto drained = Clock::now() + std::chrono::seconds(5); pipe_fds[0] >= 0 && !over_limit && Clock::now() < drained;)
    copy_output(100);

  if (timed_out) return kTimeLimitExit;
  if (over_limit) return kOutputLimitExit;
  if (left_running) return kLeftRunningExit;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
