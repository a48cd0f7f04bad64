// A contestant with no GPU, for the judge's unit tests (test_judge.cpp): it answers fake::SumProblem's
// Run requests and SquaresCall's Call requests over descriptors 3 and 4 as course/contestant.h's would,
// or misbehaves as its one argument says:
//   right      answers every request rightly          wrong     answers every Run with a wrong sum
//   crash      dies of SIGSEGV at the first request   exit      calls exit(0) at the first request
//   garbage    sends bytes that are no message        huge      claims a payload of 2^40 bytes
//   failure    sends a Failure line                   silent    never answers
//   short      an answer one byte short                kind      a Ready where an Answer is due
//   spam       prints a megabyte, then answers         sigkill   kills its parent (the judge) first
//   fork       forks after the lock-down (--lock-down)
// With --lock-down or --signals-to-self it confines itself as a real contestant does first.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "course/contestant.h"
#include "fake_problem.h"

int main(int argc, char** argv) {
  using namespace course;
  std::string behaviour = "right";
  bool lock_down = false, signals_to_self = false;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--lock-down") lock_down = true;
    else if (word == "--signals-to-self") signals_to_self = true;
    else behaviour = word;
  }
  contestant::Channel channel = contestant::Channel::standard();
  if (lock_down || signals_to_self) contestant::restrict_system_calls(lock_down);
  while (auto request = channel.receive()) {
    wire::Reader in(request->payload);
    if (behaviour == "crash") raise(SIGSEGV);
    if (behaviour == "exit") std::exit(0);
    if (behaviour == "silent") pause();
    if (behaviour == "fork") {
      if (fork() == 0) _exit(0);
    }
    if (behaviour == "sigkill") {
      // What it may do to the process that started it: nothing, once confined.
      const int refused = kill(getppid(), SIGKILL) != 0 ? errno : 0;
      channel.fail(refused == EPERM ? "kill refused" : "kill allowed");
      continue;
    }
    if (behaviour == "garbage") {
      const char text[] = "this is not a message of the judge's protocol, just text";
      (void)!write(contestant::kAnswers, text, sizeof text);
      continue;
    }
    if (behaviour == "huge") {
      const std::vector<unsigned char> header = wire::header_of(wire::Kind::Answer, std::uint64_t(1) << 40);
      (void)!write(contestant::kAnswers, header.data(), header.size());
      continue;
    }
    if (behaviour == "failure") {
      channel.fail("the GPU is on fire\nand this line is not shown");
      continue;
    }
    if (behaviour == "kind") {
      channel.send(wire::Kind::Ready, {});
      continue;
    }
    if (behaviour == "spam")
      for (int line = 0; line < 20000; ++line) std::printf("spam spam spam spam spam spam spam spam spam spam\n");
    if (request->kind == wire::Kind::Call) {
      std::uint32_t number = 0;
      wire::get(in, number);
      fake::SquaresCall::Input xs;
      wire::get(in, xs);
      channel.send(wire::Kind::Answer, wire::encode(fake::SquaresCall::call(xs)));
      continue;
    }
    fake::SumProblem::Input values;
    wire::get(in, values);
    std::int64_t sum = fake::SumProblem::reference(values) + (behaviour == "wrong" ? 1 : 0);
    AnswerBytes answer{std::vector<unsigned char>(sizeof sum)};
    std::memcpy(answer[0].data(), &sum, sizeof sum);
    if (behaviour == "short") answer[0].pop_back();
    channel.send(wire::Kind::Answer, wire::encode(answer));
  }
  return 0;
}
