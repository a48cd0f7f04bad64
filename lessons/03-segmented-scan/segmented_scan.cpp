// Lesson 03, segmented scan: what the lesson's step programs share. The course's step skeleton
// (course/step_program.h) parses the command line; the lesson makes or reads the problem, runs the
// step (timed, with the result poisoned before every run), checks the result against a sequential
// reference and reports.
#include "segmented_scan.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/data.h"
#include "course/errors.h"

namespace segscan {

// ---------------------------------------------------------------------------------------------
// Names

const char* name_of(ValueType type) { return kValueTypeNames[static_cast<std::size_t>(type)].c_str(); }
const char* name_of(Operator op) { return kOperatorNames[static_cast<std::size_t>(op)].c_str(); }
const char* name_of(Pattern pattern) { return kPatternNames[static_cast<std::size_t>(pattern)].c_str(); }

std::size_t value_bytes(ValueType type) {
  return type == ValueType::Int32 || type == ValueType::UInt32 || type == ValueType::Float ? 4 : 8;
}

template <class T, class Op>
Scan scan_of() {
  Scan s;
  if constexpr (std::is_same<T, std::int32_t>::value) s.type = ValueType::Int32;
  else if constexpr (std::is_same<T, std::uint32_t>::value) s.type = ValueType::UInt32;
  else if constexpr (std::is_same<T, float>::value) s.type = ValueType::Float;
  else if constexpr (std::is_same<T, double>::value) s.type = ValueType::Double;
  else if constexpr (std::is_same<T, std::int64_t>::value) s.type = ValueType::Int64;
  else s.type = ValueType::UInt64;
  if constexpr (std::is_same<Op, Sum>::value) s.op = Operator::Sum;
  else if constexpr (std::is_same<Op, Max>::value) s.op = Operator::Max;
  else if constexpr (std::is_same<Op, Min>::value) s.op = Operator::Min;
  else s.op = Operator::Product;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Problems

namespace {
// out[i] = make(i) for every i, in parallel (element i depends on i alone, so the data does not depend
// on how the loop is split between threads).
template <class T, class Make>
void fill(std::vector<T>& out, Make make) {
  const long long count = static_cast<long long>(out.size());
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < count; ++i) out[static_cast<std::size_t>(i)] = make(static_cast<std::uint64_t>(i));
}

// 64 random bits mapped onto [0, span) by a multiply-shift (bias below span / 2^64: negligible).
std::uint64_t below(std::uint64_t bits, std::uint64_t span) {
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(bits) * span) >> 64);
}
}  // namespace

std::vector<std::uint8_t> make_flags(std::size_t n, Pattern pattern, std::uint64_t seed) {
  std::vector<std::uint8_t> flags(n, 0);
  const course::CounterRng rng(seed ^ 0xF1A65ull);
  switch (pattern) {
    case Pattern::Random:
      fill(flags, [&](std::uint64_t i) { return static_cast<std::uint8_t>(below(rng.bits(i), 1000) == 0); });
      break;
    case Pattern::Single:
      break;
    case Pattern::Ones:
      std::fill(flags.begin(), flags.end(), std::uint8_t{1});
      break;
    case Pattern::Mixed:
      // Segment s draws its length from its own random bits: one in eight is long.
      for (std::size_t start = 0, s = 0; start < n; ++s) {
        flags[start] = 1;
        const std::uint64_t r = rng.bits(s);
        const std::size_t length = r % 8 == 0 ? 10000 + below(r, 990001) : 1 + below(r, 8);
        start += length;
      }
      break;
  }
  if (n > 0) flags[0] = 1;
  return flags;
}

namespace {
template <class T>
std::vector<T> make_values(std::size_t n, Operator op, std::uint64_t seed) {
  std::vector<T> values(n);
  const course::CounterRng rng(seed);
  if constexpr (std::is_floating_point<T>::value) {
    const T low = op == Operator::Product ? T(0.999) : T(-1), high = op == Operator::Product ? T(1.001) : T(1);
    fill(values, [&](std::uint64_t i) {
      const T x = static_cast<T>(low + (high - low) * rng.open_unit(i));
      return std::min(std::max(x, std::nextafter(low, high)), std::nextafter(high, low));  // stay inside
    });
  } else if constexpr (std::is_signed<T>::value) {
    if (op == Operator::Product) {
      fill(values, [&](std::uint64_t i) { return static_cast<T>(rng.bits(i) & 1 ? 1 : -1); });
    } else if (op == Operator::Sum) {
      // No run of n values in [-R, R] can sum past the type's range.
      const std::uint64_t cap = sizeof(T) == 4 ? (1ull << 20) : (1ull << 40);
      const std::uint64_t r = std::max<std::uint64_t>(
          1, std::min<std::uint64_t>(cap, static_cast<std::uint64_t>(std::numeric_limits<T>::max()) / n));
      fill(values, [&](std::uint64_t i) {
        return static_cast<T>(static_cast<std::int64_t>(below(rng.bits(i), 2 * r + 1)) - static_cast<std::int64_t>(r));
      });
    } else {
      fill(values, [&](std::uint64_t i) { return static_cast<T>(rng.bits(i)); });
    }
  } else {
    const std::uint64_t odd = op == Operator::Product ? 1 : 0;
    fill(values, [&](std::uint64_t i) { return static_cast<T>(rng.bits(i) | odd); });
  }
  return values;
}
}  // namespace

template <class T>
Problem<T> make_problem(std::size_t n, Operator op, Pattern pattern, std::uint64_t seed) {
  Problem<T> p;
  p.values = make_values<T>(n, op, seed);
  p.flags = make_flags(n, pattern, seed);
  return p;
}

// ---------------------------------------------------------------------------------------------
// Files

ValueType file_value_type(const std::string& path) {
  course::BinaryReader in(path);
  const course::ArrayHeader h = in.read_header();
  switch (h.type) {
    case course::ElementType::Int32: return ValueType::Int32;
    case course::ElementType::UInt32: return ValueType::UInt32;
    case course::ElementType::Float32: return ValueType::Float;
    case course::ElementType::Float64: return ValueType::Double;
    case course::ElementType::Int64: return ValueType::Int64;
    case course::ElementType::UInt64: return ValueType::UInt64;
  }
  throw course::UsageError(path + ": unknown element type");
}

template <class T>
Problem<T> read_problem(const std::string& path) {
  course::BinaryReader in(path);
  course::Array<T> values = in.read<T>();
  course::Array<std::int32_t> flags = in.read<std::int32_t>();
  in.expect_end();
  if (values.rows != 1 || flags.rows != 1)
    throw course::UsageError(path + ": values and flags must each be one row");
  if (values.columns != flags.columns)
    throw course::UsageError(path + ": " + std::to_string(values.columns) + " values but " +
                             std::to_string(flags.columns) + " flags; they must be as many");
  Problem<T> p;
  p.values = std::move(values.values);
  p.flags.resize(p.values.size());
  for (std::size_t i = 0; i < p.flags.size(); ++i) {
    const std::int32_t f = flags.values[i];
    if (f != 0 && f != 1)
      throw course::UsageError(path + ": flag " + std::to_string(f) + " at [" + std::to_string(i) +
                               "] is neither 0 nor 1");
    p.flags[i] = static_cast<std::uint8_t>(f);
  }
  if constexpr (std::is_floating_point<T>::value) {
    for (std::size_t i = 0; i < p.values.size(); ++i)
      if (!std::isfinite(p.values[i]))
        throw course::UsageError(path + ": value [" + std::to_string(i) + "] is not a finite number");
  }
  return p;
}

template <class T>
void write_problem(const std::string& path, const Problem<T>& p) {
  course::BinaryWriter out(path);
  out.write(p.values);
  out.write(std::vector<std::int32_t>(p.flags.begin(), p.flags.end()));
  out.close();
}

// ---------------------------------------------------------------------------------------------
// The reference

template <class T, class Op>
void require_defined(const Problem<T>& p, const std::string& source) {
  if constexpr (std::is_signed<T>::value && std::is_integral<T>::value &&
                (std::is_same<Op, Sum>::value || std::is_same<Op, Product>::value)) {
    T acc = 0;
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      const bool head = i == 0 || p.flags[i] != 0;
      bool overflow = false;
      if (head) acc = p.values[i];
      else if constexpr (std::is_same<Op, Sum>::value) overflow = __builtin_add_overflow(acc, p.values[i], &acc);
      else overflow = __builtin_mul_overflow(acc, p.values[i], &acc);
      if (overflow)
        throw course::UsageError(source + ": the " + name_of(scan_of<T, Op>().op) + " of a segment overflows " +
                                 name_of(scan_of<T, Op>().type) + " at [" + std::to_string(i) +
                                 "] (signed overflow is undefined)");
    }
  } else {
    (void)p;
    (void)source;
  }
}

template <class T, class Op>
course::Verdict check(const Problem<T>& p, const T* result) {
  const std::size_t n = p.values.size();
  course::Verdict v;
  v.checked = n;
  const Op op;
  if constexpr (std::is_integral<T>::value || std::is_same<Op, Max>::value || std::is_same<Op, Min>::value) {
    // No rounding: the sequential scan is the answer, exactly.
    T expected = T{};
    for (std::size_t i = 0; i < n; ++i) {
      expected = i == 0 || p.flags[i] ? p.values[i] : op(expected, p.values[i]);
      if (!(result[i] == expected)) v.add_mismatch(i, static_cast<double>(result[i]), static_cast<double>(expected));
    }
  } else {
    // Rounded: a long double reference, and an allowance that grows with the position in the segment.
    const long double u = std::is_same<T, float>::value ? std::ldexp(1.0L, -24) : std::ldexp(1.0L, -53);
    long double expected = 0, magnitude = 0;
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const long double x = p.values[i];
      if (i == 0 || p.flags[i]) {
        expected = x;
        magnitude = std::fabs(x);
        k = 1;
      } else {
        expected = op(expected, x);
        magnitude += std::fabs(x);
        ++k;
      }
      // Sums: rounding errors that behave like a random walk (see README.md). Products: the worst case,
      // k - 1 roundings of relative size u compounded, because products of factors near 1 do not round
      // at random (tree orders keep dropping the same small second-order terms).
      const double allowed =
          std::is_same<Op, Sum>::value
              ? static_cast<double>(4 * u * std::sqrt(static_cast<long double>(k)) * magnitude)
              : static_cast<double>(std::expm1(static_cast<long double>(k - 1) * std::log1p(u)) * std::fabs(expected));
      const double error = static_cast<double>(std::fabs(static_cast<long double>(result[i]) - expected));
      v.add(i, static_cast<double>(result[i]), static_cast<double>(expected), allowed, error);
    }
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// The programs

void Lesson::declare(course::CommandLine& cli, const Step& step) {
  cli.add_size("n", kDefaultCount, "elements", 1, kMaxCount);
  cli.add_choice("type", "float", kValueTypeNames, "element type: int32, uint32, float, double, int64 or uint64",
                 "TYPE");
  cli.add_choice("op", "sum", kOperatorNames, "operator: sum, max, min or product", "OP");
  cli.add_choice("segments", "random", kPatternNames,
                 "segment lengths: random (about 1000 on average), single (one segment), ones (all of length 1) "
                 "or mixed (long and short)",
                 "PATTERN");
  cli.add_flag("host-clock", "time each run on the host's clock, from the first launch to the end of a stream "
                             "synchronization (launch overhead included)");
  if (step.options & kThreadsOption) cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
  if (step.options & kItemsOption)
    cli.add_integer_choice("items", 0, {8, 16, 32}, "elements per thread: 8, 16 or 32 (0: the step's choice)");
  if (step.options & kPaddingOption)
    cli.add_flag("no-padding", "leave out the shared-memory padding (to see the bank conflicts it avoids)");
  if (step.options & kScalarLoadsOption)
    cli.add_flag("scalar-loads", "each thread reads and writes its elements one at a time, not 16 bytes at a time");
  if (step.options & kStagedLoadsOption)
    cli.add_flag("staged-loads", "each warp reads and writes 32 neighbouring elements at a time (4 bytes each) and "
                                 "hands each thread its elements through shared memory");
  if (step.options & kPrefetchOption)
    cli.add_integer("prefetch-tiles", -1,
                    "how many tiles ahead of its own each block prefetches into the L2 cache (0: none; -1: the "
                    "step's choice)",
                    -1, 1 << 20);
}

void Lesson::read(const course::CommandLine& cli, const Step& step, Request& request) {
  request.n = cli.size("n");
  request.scan.type = static_cast<ValueType>(cli.choice("type"));
  request.scan.op = static_cast<Operator>(cli.choice("op"));
  request.pattern = static_cast<Pattern>(cli.choice("segments"));
  request.host_clock = cli.flag("host-clock");
  if (step.options & kThreadsOption) request.requested.threads = static_cast<int>(cli.integer("threads"));
  if (step.options & kItemsOption) request.requested.items = static_cast<int>(cli.integer("items"));
  if (step.options & kPaddingOption) request.requested.padding = !cli.flag("no-padding");
  if (step.options & kScalarLoadsOption) request.requested.scalar_loads = cli.flag("scalar-loads");
  if (step.options & kStagedLoadsOption) request.requested.staged_loads = cli.flag("staged-loads");
  if (step.options & kPrefetchOption) request.requested.prefetch_tiles = static_cast<int>(cli.integer("prefetch-tiles"));
  if (request.requested.scalar_loads && request.requested.staged_loads)
    throw course::UsageError("--scalar-loads and --staged-loads cannot be combined");
  if (!request.common.input.empty()) request.scan.type = file_value_type(request.common.input);
}

course::Measurement Lesson::describe(const Step& step, const Request& request) {
  course::Measurement m = course::step_measurement(kNumber, step);
  m.size = "n=" + std::to_string(request.n) + " " + name_of(request.scan.type) + " " + name_of(request.scan.op);
  // The bytes that must move: the values in, the flags in (one byte each), the values out.
  m.bytes = static_cast<double>(request.n) * (2.0 * value_bytes(request.scan.type) + 1.0);
  m.operations = static_cast<double>(request.n);  // the operator applied once per element, as step 01 does
  m.operation = "operator application";
  m.rate_unit = "GB/s";
  return m;
}

template <class T, class Op>
Problem<T> load_problem(Request& request) {
  const bool from_file = !request.common.input.empty();
  Problem<T> p = from_file ? read_problem<T>(request.common.input)
                           : make_problem<T>(request.n, request.scan.op, request.pattern, request.common.seed);
  require_defined<T, Op>(p, from_file ? request.common.input : std::string("the generated input"));
  request.n = p.values.size();
  return p;
}

course::TimingStats time_runs(const Request& request, cudaStream_t stream, const std::function<void(cudaStream_t)>& run,
                              const std::function<void(cudaStream_t)>& before_each) {
  if (!request.host_clock) return course::time_gpu(run, request.common.timing, stream, before_each);
  return course::time_cpu(
      [&] {
        run(stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
      },
      request.common.timing,
      [&] {
        before_each(stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
      });
}

template <class T, class Op>
int report(course::Measurement m, const Problem<T>& p, const std::vector<T>& result, const Request& request) {
  if (m.kind != "cpu") {
    m.device = course::query_device().name;
    course::set_bandwidth_ceiling(m, request.common, course::Bandwidth::kCopy);
  }
  const course::Verdict v = check<T, Op>(p, result.data());
  return course::finish_step(m, v.pass, v.describe(), request,
                             [&](const std::string& path) { course::write_single_vector(path, result); });
}

namespace {
template <class T>
void poison(std::vector<T>& result) {
  std::memset(static_cast<void*>(result.data()), 0xFF, result.size() * sizeof(T));
}

// Lesson::run for element type T and operator Op.
template <class T, class Op>
int run_step(const Step& step, Request& request) {
  const Problem<T> p = load_problem<T, Op>(request);
  const std::size_t n = p.values.size();
  course::Measurement m = Lesson::describe(step, request);
  std::vector<T> result(n);

  if (!course::runs_on_gpu(step)) {
    course::time_cpu_step(
        m, request, step.all_cores ? course::cpu_threads() : 1,
        [&] { step.run_cpu(p.values.data(), p.flags.data(), result.data(), n, request.scan); },
        [&] { poison(result); });
    return report<T, Op>(m, p, result, request);
  }
  course::require_cuda_device();
  const LaunchPlan plan = step.plan(n, request.scan, course::query_device(), request.requested);
  course::DeviceBuffer<T> d_values(n, "values"), d_result(n, "result");
  course::DeviceBuffer<std::uint8_t> d_flags(n, "flags");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  d_values.upload(p.values);
  d_flags.upload(p.flags);
  course::Stream stream;
  m.time = time_runs(
      request, stream.get(),
      [&](cudaStream_t s) {
        step.run_gpu(d_values.data(), d_flags.data(), d_result.data(), n, request.scan, plan, scratch.data(), s);
      },
      [&](cudaStream_t s) { d_result.poison(s); });
  d_result.download(result.data(), n);
  return report<T, Op>(m, p, result, request);
}
}  // namespace

int Lesson::run(const Step& step, Request& request) {
  return with_scan_types(request.scan, [&](auto value, auto op) -> int {
    return run_step<decltype(value), decltype(op)>(step, request);
  });
}

template <class T, class Op>
std::vector<T> run_gpu_once(const Step& step, const Problem<T>& p, const LaunchPlan& requested) {
  const std::size_t n = p.values.size();
  const Scan scan = scan_of<T, Op>();
  const LaunchPlan plan = step.plan(n, scan, course::query_device(), requested);
  course::DeviceBuffer<T> values(n, "values"), result(n, "result");
  course::DeviceBuffer<std::uint8_t> flags(n, "flags");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  values.upload(p.values);
  flags.upload(p.flags);
  result.poison();
  step.run_gpu(values.data(), flags.data(), result.data(), n, scan, plan, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return result.to_host();
}

template <class T, class Op>
std::vector<T> run_cpu_once(const Step& step, const Problem<T>& p) {
  std::vector<T> result(p.values.size());
  poison(result);
  step.run_cpu(p.values.data(), p.flags.data(), result.data(), p.values.size(), scan_of<T, Op>());
  return result;
}

// ---------------------------------------------------------------------------------------------
// The templates above, for every element type and operator.

#define SEGSCAN_FOR_TYPE(T)                                                                  \
  template Problem<T> make_problem<T>(std::size_t, Operator, Pattern, std::uint64_t);        \
  template Problem<T> read_problem<T>(const std::string&);                                  \
  template void write_problem<T>(const std::string&, const Problem<T>&);                    \
  SEGSCAN_FOR_OPERATOR(T, Sum) SEGSCAN_FOR_OPERATOR(T, Max) SEGSCAN_FOR_OPERATOR(T, Min)    \
  SEGSCAN_FOR_OPERATOR(T, Product)
#define SEGSCAN_FOR_OPERATOR(T, Op)                                                           \
  template Scan scan_of<T, Op>();                                                             \
  template void require_defined<T, Op>(const Problem<T>&, const std::string&);                \
  template course::Verdict check<T, Op>(const Problem<T>&, const T*);                         \
  template Problem<T> load_problem<T, Op>(Request&);                                         \
  template int report<T, Op>(course::Measurement, const Problem<T>&, const std::vector<T>&,   \
                             const Request&);                                                 \
  template std::vector<T> run_gpu_once<T, Op>(const Step&, const Problem<T>&, const LaunchPlan&); \
  template std::vector<T> run_cpu_once<T, Op>(const Step&, const Problem<T>&);

SEGSCAN_FOR_TYPE(std::int32_t)
SEGSCAN_FOR_TYPE(std::uint32_t)
SEGSCAN_FOR_TYPE(float)
SEGSCAN_FOR_TYPE(double)
SEGSCAN_FOR_TYPE(std::int64_t)
SEGSCAN_FOR_TYPE(std::uint64_t)

}  // namespace segscan
