// The judge of ./course grade-class (course/judge.h) and what it reads (course/wire.h, course/answer.h),
// without a GPU: its wire format against truncated, lying and oversized messages; the answer reader;
// the verdicts; the timing's assessment; and a fake contestant (fake_contestant.cpp) that answers
// right, wrong, or misbehaves, each read as the judge must read it.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/prctl.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "course/answer.h"
#include "course/data.h"
#include "course/judge.h"
#include "course/wire.h"
#include "fake_problem.h"

using namespace course;

namespace {

std::vector<unsigned char> frame_bytes(wire::Kind kind, const std::vector<unsigned char>& payload) {
  std::vector<unsigned char> bytes = wire::header_of(kind, payload.size());
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

// The judge's options for a case run against the fake contestant behaving as @p behaviour.
judge::Options fake_options(const std::string& behaviour, double time_limit = 20) {
  judge::Options options;
  options.contestant = {FAKE_CONTESTANT, behaviour};
  options.time_limit = time_limit;
  return options;
}

// What judge::run gives (or the ContestantError's message) for a fresh contestant of @p options.
std::string run_sum(const judge::Options& options, const std::vector<std::int32_t>& values, std::int64_t* sum = nullptr) {
  judge::use_for_cases(options);
  try {
    const std::int64_t got = judge::run<fake::SumProblem>(values);
    if (sum) *sum = got;
    return "answered";
  } catch (const judge::ContestantError& e) {
    return e.what();
  }
}

}  // namespace

namespace {
struct Sample {
  std::uint32_t count = 0;
  std::vector<float> values;
  bool operator==(const Sample& o) const { return count == o.count && values == o.values; }
};
}  // namespace
template <>
struct course::wire::Fields<Sample> : FieldsAre<&Sample::count, &Sample::values> {};

TEST_CASE("wire: values, vectors and structs travel whole, and every byte is read") {
  const Sample sample{3, {0.5f, -2.0f}};
  CHECK(wire::decode<Sample>(wire::encode(sample)) == sample);
  // A struct is its fields, in the order FieldsAre names them.
  std::vector<unsigned char> by_fields = wire::encode(sample.count);
  const std::vector<unsigned char> values = wire::encode(sample.values);
  by_fields.insert(by_fields.end(), values.begin(), values.end());
  CHECK(wire::encode(sample) == by_fields);

  const std::vector<std::vector<std::int32_t>> nested{{1, 2, 3}, {}, {-7}};
  CHECK(wire::decode<std::vector<std::vector<std::int32_t>>>(wire::encode(nested)) == nested);
  CHECK(wire::decode<std::uint64_t>(wire::encode(std::uint64_t{42})) == 42);
  std::vector<unsigned char> longer = wire::encode(std::uint32_t{5});
  longer.push_back(0);
  CHECK_THROWS_WITH(wire::decode<std::uint32_t>(longer), Catch::Contains("1 bytes more"));
}

TEST_CASE("wire: a short payload, or a count larger than what follows, is refused before anything is allocated") {
  std::vector<unsigned char> payload = wire::encode(std::vector<double>{1, 2, 3});
  payload.pop_back();
  CHECK_THROWS_AS(wire::decode<std::vector<double>>(payload), wire::WireError);
  // A count of 2^60 elements with nothing after it.
  const std::vector<unsigned char> lying = wire::encode(std::uint64_t(1) << 60);
  CHECK_THROWS_WITH(wire::decode<std::vector<float>>(lying), Catch::Contains("more than the 0 bytes left"));
  CHECK_THROWS_AS(wire::decode<std::vector<std::vector<float>>>(lying), wire::WireError);
}

TEST_CASE("wire: frames are checked for their magic, their kind and their length") {
  const std::vector<unsigned char> good = frame_bytes(wire::Kind::Answer, {1, 2, 3});
  const std::vector<wire::Frame> frames = wire::split_frames(good.data(), good.size(), 3);
  REQUIRE(frames.size() == 1);
  CHECK(frames[0].kind == wire::Kind::Answer);
  CHECK(frames[0].payload == std::vector<unsigned char>{1, 2, 3});
  CHECK_THROWS_WITH(wire::split_frames(good.data(), good.size(), 2), Catch::Contains("more than the 2 it may have"));
  CHECK_THROWS_WITH(wire::split_frames(good.data(), good.size() - 1, 3), Catch::Contains("ends inside a message"));
  std::vector<unsigned char> bad_magic = good;
  bad_magic[0] ^= 1;
  CHECK_THROWS_WITH(wire::split_frames(bad_magic.data(), bad_magic.size(), 3), Catch::Contains("does not begin"));
  std::vector<unsigned char> bad_kind = good;
  bad_kind[4] = 99;
  CHECK_THROWS_WITH(wire::split_frames(bad_kind.data(), bad_kind.size(), 3), Catch::Contains("unknown kind 99"));
}

TEST_CASE("answer: each span is taken whole, of the length the problem gives it") {
  AnswerBytes answer{{1, 0, 0, 0}, {2, 0, 3, 0}};
  AnswerReader reader(answer);
  CHECK(reader.take<std::uint32_t>() == 1);
  CHECK(reader.take_vector<std::uint16_t>(2) == std::vector<std::uint16_t>{2, 3});
  CHECK_NOTHROW(reader.expect_end());

  AnswerReader wrong_length(answer);
  CHECK_THROWS_WITH(wrong_length.take<std::uint64_t>(), Catch::Contains("part 1 of the answer is 4 bytes long, not the 8"));
  AnswerReader too_many(answer);
  too_many.take<std::uint32_t>();
  CHECK_THROWS_WITH(too_many.expect_end(), Catch::Contains("more than the problem's 1"));
  AnswerBytes one{{1, 0, 0, 0}};
  AnswerReader too_few(one);
  too_few.take<std::uint32_t>();
  CHECK_THROWS_WITH(too_few.take<std::uint32_t>(), Catch::Contains("fewer than the problem's"));

  AnswerReader sizing = AnswerReader::sizing();
  sizing.take<std::uint64_t>();
  sizing.take_vector<float>(1000);
  CHECK(sizing.bytes() == 4008);
  CHECK(sizing.span_lengths() == std::vector<std::size_t>{8, 4000});
}

TEST_CASE("answer: the hash depends on the key, on every byte and on where the spans part") {
  const AnswerBytes a{{1, 2, 3, 4, 5, 6, 7, 8, 9}, {10}};
  AnswerBytes changed = a;
  changed[0][8] ^= 1;
  const AnswerBytes split{{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10}};
  const AnswerBytes padded{{1, 2, 3, 4, 5, 6, 7, 8, 9, 0}, {10}};
  CHECK(answer_hash(1, a) == answer_hash(1, a));
  CHECK(answer_hash(1, a) != answer_hash(2, a));
  CHECK(answer_hash(1, a) != answer_hash(1, changed));
  CHECK(answer_hash(1, a) != answer_hash(1, split));
  CHECK(answer_hash(1, a) != answer_hash(1, padded));  // a zero byte more is another length
}

TEST_CASE("judge: a case's verdict puts the process's trouble before a failed check") {
  CHECK(judge::verdict_of_cases(0, std::nullopt, false, 20) == "PASS");
  CHECK(judge::verdict_of_cases(0, 0, false, 20) == "PASS");
  CHECK(judge::verdict_of_cases(2, 0, false, 20) == "FAIL");
  CHECK(judge::verdict_of_cases(1, 124, true, 20) == "TIME-OUT (over 20 s)");
  CHECK(judge::verdict_of_cases(1, 125, true, 20).rfind("TOO MUCH OUTPUT", 0) == 0);
  CHECK(judge::verdict_of_cases(0, 123, false, 20).rfind("LEFT A PROCESS RUNNING", 0) == 0);
  CHECK(judge::verdict_of_cases(1, 128 + SIGSEGV, true, 20) == "CRASH (signal 11, SIGSEGV)");
  CHECK(judge::verdict_of_cases(1, 128 + SIGSYS, true, 20).rfind("FORBIDDEN", 0) == 0);
  CHECK(judge::verdict_of_cases(1, 0, true, 20).rfind("ENDED EARLY", 0) == 0);  // exit(0) while a case waited
  CHECK(judge::verdict_of_cases(0, 3, false, 20).rfind("ENDED EARLY", 0) == 0);
}

TEST_CASE("judge: a timing is trusted only above the floor and where the judge's clock agrees") {
  judge::TimingFacts facts;
  facts.reported_ms = {1.0, 1.1, 0.9, 1.0};
  facts.clock_ms = 4.6;  // the runs (4.0) and 0.15 ms a run beyond them
  facts.reference_runs = 10;
  facts.reference_clock_ms = 11.5;
  facts.reference_sum_ms = 10.0;
  judge::TimingVerdict v = judge::assess_timing(facts);
  CHECK(v.trusted);
  CHECK(v.median_ms == Approx(1.0));

  judge::TimingFacts floor = facts;
  floor.floor_ms = 1.5;
  floor.floor_reason = "it must read 6 MB";
  v = judge::assess_timing(floor);
  CHECK_FALSE(v.trusted);
  CHECK_THAT(v.why, Catch::Contains("faster than this GPU can go: it must read 6 MB"));

  judge::TimingFacts more_than_clock = facts;
  more_than_clock.clock_ms = 3.0;
  CHECK_THAT(judge::assess_timing(more_than_clock).why, Catch::Contains("more than the 3 ms the judge's clock saw"));

  // The host's and the device's jitter: the clock may see the solution's overhead (0.6 ms for 4 runs)
  // twice over beyond 1.25 times the runs (5.0 ms), not more.
  judge::TimingFacts noisy = facts;
  noisy.clock_ms = 6.15;
  CHECK(judge::assess_timing(noisy).trusted);
  noisy.clock_ms = 6.25;
  CHECK_FALSE(judge::assess_timing(noisy).trusted);

  // Runs reported at a quarter of what they took: the clock saw 16 ms of runs.
  judge::TimingFacts forged = facts;
  forged.reported_ms = {1.0, 1.0, 1.0, 1.0};
  forged.clock_ms = 16.6;
  v = judge::assess_timing(forged);
  CHECK_FALSE(v.trusted);
  CHECK_THAT(v.why, Catch::Contains("about 16 ms of work for runs that report 4 ms"));

  judge::TimingFacts not_a_number = facts;
  not_a_number.reported_ms[2] = std::nan("");
  CHECK_THAT(judge::assess_timing(not_a_number).why, Catch::Contains("not a positive number"));
  judge::TimingFacts negative = facts;
  negative.reported_ms[0] = -1;
  CHECK_FALSE(judge::assess_timing(negative).trusted);
  CHECK_THAT(judge::assess_timing(judge::TimingFacts{}).why, Catch::Contains("no timed run"));
}

TEST_CASE("judge: a contestant's right answer is read, and a wrong one is read as what it is") {
  std::int64_t sum = 0;
  CHECK(run_sum(fake_options("right"), {1, 2, 3}, &sum) == "answered");
  CHECK(sum == 6);
  CHECK(run_sum(fake_options("wrong"), {1, 2, 3}, &sum) == "answered");
  CHECK(sum == 7);
  const judge::Options options = fake_options("right");
  judge::use_for_cases(options);
  const std::vector<std::int32_t> xs{3, -4};
  CHECK(judge::call<fake::SquaresCall>(xs) == fake::SquaresCall::Output{{3, 9}, {-4, 16}});
}

TEST_CASE("judge: a contestant that crashes, ends early, or falls silent is named so, and costs the judge no more than its time limit") {
  CHECK_THAT(run_sum(fake_options("crash"), {1}), Catch::Contains("your program crashed (signal 11, SIGSEGV)"));
  CHECK_THAT(run_sum(fake_options("exit"), {1}), Catch::Contains("ended with exit code 0 before it answered"));
  const auto start = std::chrono::steady_clock::now();
  // No sandbox here to stop it at its limit: the judge's own bound (the limit, 10% and 2 s) does.
  CHECK_THAT(run_sum(fake_options("silent", 1), {1}), Catch::Contains("your program"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
}

TEST_CASE("judge: what a contestant sends is untrusted: garbage, lies about lengths, short answers and reports") {
  CHECK_THAT(run_sum(fake_options("garbage"), {1}), Catch::Contains("not readable: a message that does not begin"));
  CHECK_THAT(run_sum(fake_options("huge"), {1}), Catch::Contains("more than the 4096 it may have"));
  CHECK_THAT(run_sum(fake_options("short"), {1}), Catch::Contains("answer is malformed: part 1 of the answer is 7 bytes long"));
  CHECK_THAT(run_sum(fake_options("kind"), {1}), Catch::Contains("a message of kind Ready where Answer was due"));
  CHECK(run_sum(fake_options("failure"), {1}) == "your program reported: the GPU is on fire");
}

TEST_CASE("judge: a confined contestant cannot signal the judge, and under the lock-down cannot start a process") {
  // The fake tries to kill its parent, which is this test: it must be refused.
  judge::Options confined = fake_options("sigkill");
  confined.contestant.push_back("--signals-to-self");
  CHECK(run_sum(confined, {1}) == "your program reported: kill refused");
  judge::Options options = fake_options("fork");
  options.contestant.push_back("--lock-down");
  CHECK_THAT(run_sum(options, {1}), Catch::Contains("stopped for starting a thread, a process or a program"));
}

TEST_CASE("judge: the judge's memory is not for the processes of its user, and its inputs are drawn afresh") {
  const std::uint64_t before = course::seed_salt();
  const std::vector<float> plain = course::uniform_floats(8, -1, 1, 5);
  judge::prepare_judge_process();
  CHECK(prctl(PR_GET_DUMPABLE) == 0);
  CHECK(course::uniform_floats(8, -1, 1, 5) != plain);
  course::set_seed_salt(before);
  prctl(PR_SET_DUMPABLE, 1);
  CHECK(course::uniform_floats(8, -1, 1, 5) == plain);
}
