#include "course/contestant.h"

#include <fcntl.h>
#include <poll.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "course/errors.h"

namespace course::contestant {

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--lock-down") {
      options.lock_down = true;
    } else if (word == "--signals-to-self") {
      options.signals_to_self = true;
    } else {
      throw UsageError("unknown option '" + word + "': this program is started by ./course grade-class's judge, "
                       "which passes only --lock-down and --signals-to-self");
    }
  }
  return options;
}

int thread_count() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  return -1;
}

namespace {

// A seccomp program, built instruction by instruction.
class FilterProgram {
 public:
  void load_number() { statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)); }
  void load_first_argument() { statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0])); }
  void statement(std::uint16_t code, std::uint32_t k) { code_.push_back(BPF_STMT(code, k)); }
  void jump_if_equal(std::uint32_t k, std::uint8_t if_true, std::uint8_t if_false) {
    code_.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, if_true, if_false));
  }
  void give(std::uint32_t action) { statement(BPF_RET | BPF_K, action); }

  // System call @p number: @p action, whatever its arguments.
  void always(long number, std::uint32_t action) {
    load_number();
    jump_if_equal(static_cast<std::uint32_t>(number), 0, 1);
    give(action);
  }
  // System call @p number: allowed when its first argument is @p self (or 0, with @p zero_too), else
  // refused with EPERM.
  void only_at(long number, std::uint32_t self, bool zero_too) {
    load_number();
    jump_if_equal(static_cast<std::uint32_t>(number), 0, zero_too ? 5 : 4);
    load_first_argument();
    jump_if_equal(self, zero_too ? 2 : 1, 0);
    if (zero_too) jump_if_equal(0, 1, 0);
    give(SECCOMP_RET_ERRNO | EPERM);
    give(SECCOMP_RET_ALLOW);
  }
  sock_fprog program() { return {static_cast<unsigned short>(code_.size()), code_.data()}; }

 private:
  std::vector<sock_filter> code_;
};

}  // namespace

void restrict_system_calls(bool lock_down) {
#if defined(__x86_64__)
  FilterProgram f;
  f.statement(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
  f.jump_if_equal(AUDIT_ARCH_X86_64, 1, 0);
  f.give(SECCOMP_RET_KILL_PROCESS);
  const auto self = static_cast<std::uint32_t>(getpid());
  // Signals: to this process only (kill with 0 is its own process group, which course_sandbox made).
  f.only_at(SYS_kill, self, true);
  f.only_at(SYS_tgkill, self, false);
  f.only_at(SYS_tkill, self, false);
  f.only_at(SYS_rt_sigqueueinfo, self, false);
  f.only_at(SYS_rt_tgsigqueueinfo, self, false);
  // Another process's memory, its descriptors, tracing it.
  for (long number : {long(SYS_ptrace), long(SYS_process_vm_readv), long(SYS_process_vm_writev), long(SYS_pidfd_open),
                      long(SYS_pidfd_getfd), long(SYS_pidfd_send_signal), long(SYS_kcmp)})
    f.always(number, SECCOMP_RET_ERRNO | EPERM);
  if (lock_down)
    for (long number : {long(SYS_clone), long(SYS_clone3), long(SYS_fork), long(SYS_vfork), long(SYS_execve),
                        long(SYS_execveat)})
      f.always(number, SECCOMP_RET_KILL_PROCESS);
  f.give(SECCOMP_RET_ALLOW);
  sock_fprog program = f.program();
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0)
    throw std::runtime_error(std::string("cannot install the system-call filter: ") + std::strerror(errno));
#else
  (void)lock_down;
  throw std::runtime_error("the system-call filter is written for x86-64 Linux only");
#endif
}

Channel Channel::standard() {
  if (fcntl(kRequests, F_GETFD) < 0 || fcntl(kAnswers, F_GETFD) < 0)
    throw UsageError("this program answers ./course grade-class's judge on descriptors 3 and 4, which are not open: "
                     "it is not for running by hand");
  // The descriptors are not passed on to anything this process might start.
  fcntl(kRequests, F_SETFD, FD_CLOEXEC);
  fcntl(kAnswers, F_SETFD, FD_CLOEXEC);
  return Channel(kRequests, kAnswers);
}

std::optional<wire::Frame> Channel::receive() {
  // The judge's next request comes at once after an answer: waiting for it awake for a moment keeps a
  // sleeping process's late wake-up out of the judge's clock.
  const auto awake_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  for (pollfd ready{in_, POLLIN, 0}; poll(&ready, 1, 0) == 0 && std::chrono::steady_clock::now() < awake_until;) {
  }
  bool started = false;
  const wire::ReadExactly read = [&](unsigned char* target, std::size_t bytes) {
    while (bytes > 0) {
      const ssize_t got = ::read(in_, target, bytes);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) throw wire::WireError(started ? "the judge's requests end inside a message" : "");
      started = true;
      target += got;
      bytes -= static_cast<std::size_t>(got);
    }
  };
  try {
    return wire::read_frame(read, std::size_t(1) << 40);  // the judge's own requests: bounded by memory only
  } catch (const wire::WireError& e) {
    if (!started) return std::nullopt;  // the judge closed its end between requests: done
    throw;
  }
}

void Channel::send(wire::Kind kind, const std::vector<unsigned char>& payload) {
  auto write_all = [&](const unsigned char* data, std::size_t bytes) {
    while (bytes > 0) {
      const ssize_t put = ::write(out_, data, bytes);
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) throw std::runtime_error("the judge is gone");
      data += put;
      bytes -= static_cast<std::size_t>(put);
    }
  };
  const std::vector<unsigned char> header = wire::header_of(kind, payload.size());
  write_all(header.data(), header.size());
  write_all(payload.data(), payload.size());
}

void Channel::fail(const std::string& what) {
  std::string line = what.substr(0, what.find('\n')).substr(0, 1000);
  send(wire::Kind::Failure, std::vector<unsigned char>(line.begin(), line.end()));
}

}  // namespace course::contestant
