/// @file contestant.h
/// @brief The student's side of `./course grade-class`'s judge. Under the judge a student's library is
/// linked into one program only, the contestant: it holds no reference answer, no verdict and no secret,
/// and does nothing but what the judge asks over two pipes (file descriptors 3 and 4, course/wire.h):
/// run the student's function on an input and send back the answer's bytes; keep inputs on the device,
/// time one run on each and report the times with a hash of each answer; send an answer. The judge, a
/// process that never loads the student's code, decides everything from what comes back.
///
/// The contestant runs inside course_sandbox. On top of that it confines itself once CUDA is up (a
/// seccomp filter on all its threads): signals, tracing and other processes' memory only for itself,
/// and with --lock-down (the timed runs) no new thread, process or program at all (the attempt kills
/// it), so that no code of the student's runs between the calls the judge asks for.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "course/answer.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/device.h"
#include "course/program.h"
#include "course/timing.h"
#include "course/wire.h"

namespace course::contestant {

/// The descriptor the judge's requests arrive on, and the one answers go back on.
constexpr int kRequests = 3;  ///< the judge's requests arrive here
constexpr int kAnswers = 4;   ///< answers go back here

/// What the judge sends with a Time request, and what comes back in Done.
/// What the judge sends with a Time request.
struct TimeRequest {
  std::uint64_t key = 0;             ///< the hash key of this timing
  std::vector<std::uint32_t> order;  ///< the slots, in the order they are to be run
};
/// What a Done message brings back.
struct TimedRuns {
  std::vector<double> milliseconds;  ///< each run's time, in the order run
  std::vector<std::uint64_t> hashes; ///< each run's answer hash (course::answer_hash), same order
};

}  // namespace course::contestant

namespace course::wire {
/// A Time request on the wire: its key, then its order.
template <>
struct Fields<contestant::TimeRequest> : FieldsAre<&contestant::TimeRequest::key, &contestant::TimeRequest::order> {};
/// A Done message on the wire: the times, then the hashes.
template <>
struct Fields<contestant::TimedRuns>
    : FieldsAre<&contestant::TimedRuns::milliseconds,
                &contestant::TimedRuns::hashes> {};
}  // namespace course::wire

namespace course::contestant {

/// The contestant's command line: --lock-down and --signals-to-self, nothing else.
struct Options {
  bool lock_down = false;        ///< no new threads, processes or programs once CUDA is up
  bool signals_to_self = false;  ///< signals, tracing and other processes' memory only for itself
};
/// @throws UsageError for anything else
Options parse_options(int argc, char** argv);

/// The number of threads of this process (/proc/self/status).
int thread_count();

/// Installs the seccomp filter on every thread of this process: signals (kill, tkill, tgkill, the
/// queued kinds) only to this process, and no ptrace, pidfd or cross-process memory calls (they fail
/// with EPERM); with @p lock_down also no clone, fork or exec (the attempt kills the process).
/// @throws std::runtime_error where the kernel refuses the filter, or on a machine it is not written for
void restrict_system_calls(bool lock_down);

/// The two pipes to the judge.
class Channel {
 public:
  /// The standard descriptors 3 and 4. @throws UsageError when they are not open: the program was not
  /// started by a judge.
  static Channel standard();
  /// The next request, or nothing once the judge has closed its end.
  /// @throws course::wire::WireError for a malformed one
  std::optional<wire::Frame> receive();
  /// Sends one message.
  void send(wire::Kind kind, const std::vector<unsigned char>& payload);
  /// Sends a Failure: @p what, cut to one line of at most 1000 characters.
  void fail(const std::string& what);

 private:
  Channel(int in, int out) : in_(in), out_(out) {}
  int in_, out_;
};

/// The host calls an exercise declares (its HostCalls tuple), none if it declares none.
template <class Exercise, class = void>
struct HostCallsOf {
  using type = std::tuple<>;  ///< none
};
/// An exercise that declares host calls: its HostCalls.
template <class Exercise>
struct HostCallsOf<Exercise, std::void_t<typename Exercise::HostCalls>> {
  using type = typename Exercise::HostCalls;  ///< the exercise's list
};

/// Makes host call @p number, one of @p Calls, on the input that follows in @p in: its output's payload.
template <class... Calls>
std::vector<unsigned char> make_host_call(std::uint32_t number, wire::Reader& in, std::tuple<Calls...>*) {
  std::vector<unsigned char> output;
  bool found = false;
  auto attempt = [&](auto* call) {
    using Call = std::remove_pointer_t<decltype(call)>;
    if (found || Call::kNumber != number) return;
    found = true;
    typename Call::Input input{};
    wire::get(in, input);
    in.expect_end();
    output = wire::encode(Call::call(input));
  };
  (attempt(static_cast<Calls*>(nullptr)), ...);
  if (!found) throw wire::WireError("the judge asked for host call " + std::to_string(number) + ", which this exercise has not");
  return output;
}

/// Answers the judge's requests until it closes its end. Exercise is the problem (course/exercise.h):
/// its Input travels on the wire, its OnDevice holds one input on the GPU and runs the student's
/// function on it, its answer() names the device bytes of the answer.
template <class Exercise>
void serve(Channel& channel, cudaStream_t stream) {
  using Input = typename Exercise::Input;
  using OnDevice = typename Exercise::OnDevice;
  std::map<std::uint32_t, std::unique_ptr<OnDevice>> slots;
  L2Eviction eviction;
  auto slot = [&](std::uint32_t number) -> OnDevice& {
    const auto it = slots.find(number);
    if (it == slots.end()) throw wire::WireError("the judge asked for slot " + std::to_string(number) + ", never loaded");
    return *it->second;
  };
  while (std::optional<wire::Frame> request = channel.receive()) {
    try {
      wire::Reader in(request->payload);
      switch (request->kind) {
        case wire::Kind::Run: {
          Input input{};
          wire::get(in, input);
          in.expect_end();
          OnDevice device(input);
          device.poison(stream);
          device.run(stream);
          CUDA_CHECK(cudaDeviceSynchronize());
          channel.send(wire::Kind::Answer, wire::encode(download_answer(device.answer())));
          break;
        }
        case wire::Kind::Load: {
          std::uint32_t number = 0;
          Input input{};
          wire::get(in, number);
          wire::get(in, input);
          in.expect_end();
          slots[number].reset();  // its memory back first
          slots[number] = std::make_unique<OnDevice>(input);
          CUDA_CHECK(cudaDeviceSynchronize());  // nothing the student's code started runs on past here
          channel.send(wire::Kind::Ready, {});
          break;
        }
        case wire::Kind::Warmup: {
          std::uint32_t number = 0, count = 0;
          wire::get(in, number);
          wire::get(in, count);
          in.expect_end();
          OnDevice& device = slot(number);
          for (std::uint32_t i = 0; i < count; ++i) {
            device.poison(stream);
            device.run(stream);
          }
          // The eviction's and the hash's kernels too: CUDA loads a kernel's code at its first launch,
          // which the timed runs' clock should not see.
          eviction.evict(stream);
          answer_hashes_on_device(0, {device.answer()}, stream);
          CUDA_CHECK(cudaDeviceSynchronize());
          channel.send(wire::Kind::Ready, {});
          break;
        }
        case wire::Kind::Time: {
          TimeRequest time;
          wire::get(in, time);
          in.expect_end();
          // As time_gpu() times the benchmark (each run poisoned, the L2 evicted, a pair of events),
          // but enqueued back to back and waited for once: the judge's clock then sees the GPU's work,
          // not the host's wake-ups between runs.
          std::vector<Event> starts(time.order.size()), stops(time.order.size());
          for (std::size_t r = 0; r < time.order.size(); ++r) {
            OnDevice& device = slot(time.order[r]);
            device.poison(stream);
            eviction.evict(stream);
            starts[r].record(stream);
            device.run(stream);
            stops[r].record(stream);
          }
          CUDA_CHECK(cudaDeviceSynchronize());
          TimedRuns done;
          std::vector<AnswerSpans> answers;
          for (std::size_t r = 0; r < time.order.size(); ++r) {
            done.milliseconds.push_back(stops[r].elapsed_ms_since(starts[r]));
            answers.push_back(slot(time.order[r]).answer());
          }
          done.hashes = answer_hashes_on_device(time.key, answers, stream);
          channel.send(wire::Kind::Done, wire::encode(done));
          break;
        }
        case wire::Kind::Call: {
          std::uint32_t number = 0;
          wire::get(in, number);
          channel.send(wire::Kind::Answer,
                       make_host_call(number, in, static_cast<typename HostCallsOf<Exercise>::type*>(nullptr)));
          break;
        }
        case wire::Kind::Fetch: {
          std::uint32_t number = 0;
          wire::get(in, number);
          in.expect_end();
          channel.send(wire::Kind::Answer, wire::encode(download_answer(slot(number).answer())));
          break;
        }
        default:
          throw wire::WireError("the judge sent a message of kind " + wire::kind_name(static_cast<std::uint32_t>(request->kind)));
      }
    } catch (const std::exception& e) {
      channel.fail(e.what());
    }
  }
}

/// The main of an exercise's contestant (written by CMake's course_add_exercise): waits for the judge's
/// requests on descriptors 3 and 4 and answers them, confined as the options say.
template <class Exercise>
int contestant_main(int argc, char** argv) {
  return run_program(argv[0], [&]() -> int {
    const Options options = parse_options(argc, argv);
    Channel channel = Channel::standard();
    // Before main() only the student's static constructors ran: a thread they left would run beside
    // the timed calls, unseen by the lock-down that follows.
    if (options.lock_down && thread_count() != 1) {
      while (channel.receive()) channel.fail("it started a thread before main(), which grading does not allow");
      return 3;
    }
    require_cuda_device();
    // Waits for the GPU spin rather than sleep: a sleeping thread wakes late, and the judge's clock
    // would see the host's wake-ups.
    CUDA_CHECK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
    CUDA_CHECK(cudaFree(nullptr));  // the context, and the threads CUDA starts, before the filter
    Stream stream;
    if (options.lock_down || options.signals_to_self) restrict_system_calls(options.lock_down);
    serve<Exercise>(channel, stream.get());
    return 0;
  });
}

}  // namespace course::contestant
