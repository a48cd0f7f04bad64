// Lesson 03, segmented scan: what every step of the lesson shares on the host side.
//
// The problem: n values and n head flags. A flag of 1 starts a segment (the first element always
// starts one, whatever its flag says); the output is the inclusive scan of the values under an
// operator, restarted at every head:
//
//   values  10  3  2   1  3  4  9   5  0   11
//   flags    1  0  0   1  0  0  0   1  0    1
//   sum     10 13 15   1  4  8 17   5  5   11
//
// Operators sum, max, min and product (operators.h); element types int32, uint32, float, double, int64
// and uint64, both chosen at run time. Each step file writes its kernels once, as templates, and
// defines one `Step`, kThisStep; with_scan_types() below turns the run-time choice into the template
// arguments. Flags are one byte each on the GPU (see README.md for why). The lesson's main
// (step_main.cpp) hands the step to the course's step skeleton with the `Lesson` below; step 03, the
// page that shows the host side in full, runs its own host side with the pieces below.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "course/device.h"
#include "course/report.h"
#include "course/step_program.h"
#include "course/timing.h"
#include "course/verify.h"
#include "operators.h"

namespace segscan {

/// Default problem size: 60,000,000 elements (float sums by default), the largest size of the study.
constexpr std::size_t kDefaultCount = 60000000;
/// The most elements a course file can hold in one array (and so the largest --n).
constexpr std::size_t kMaxCount = 4294967295u;

/// The element types of the lesson.
enum class ValueType { Int32, UInt32, Float, Double, Int64, UInt64 };
/// The operators of the lesson.
enum class Operator { Sum, Max, Min, Product };
/// How the generator cuts the input into segments.
enum class Pattern {
  Random,  ///< each element starts a segment with probability 1/1000 (lengths about 1000 on average)
  Single,  ///< one segment: only the first element is a head
  Ones,    ///< every segment has length 1: every element is a head
  Mixed,   ///< seven segments in eight of 1 to 8 elements, one in eight of 10,000 to 1,000,000:
           ///< most segments are short, but nearly all elements lie in the long ones
};

/// What to scan: the element type and the operator.
struct Scan {
  ValueType type = ValueType::Float;
  Operator op = Operator::Sum;
};

/// The names of the types, operators and patterns (--type, --op, --segments), in their enums' order:
/// the programs declare them with CommandLine::add_choice, and choice() is the enum's value.
inline const std::vector<std::string> kValueTypeNames{"int32", "uint32", "float", "double", "int64", "uint64"};
inline const std::vector<std::string> kOperatorNames{"sum", "max", "min", "product"};
inline const std::vector<std::string> kPatternNames{"random", "single", "ones", "mixed"};

const char* name_of(ValueType type);
const char* name_of(Operator op);
const char* name_of(Pattern pattern);
std::size_t value_bytes(ValueType type);  ///< 4 or 8

/// Calls f(T{}, Op{}) with the C++ types that @p scan names (one of 24 combinations) and returns what
/// it returns. Every step's run() goes through here, so each step's templates are instantiated for
/// every element type and operator.
template <class T, class F>
decltype(auto) with_operator(Operator op, F&& f) {
  switch (op) {
    case Operator::Sum: return f(T{}, Sum{});
    case Operator::Max: return f(T{}, Max{});
    case Operator::Min: return f(T{}, Min{});
    case Operator::Product: return f(T{}, Product{});
  }
  throw std::logic_error("unknown operator");
}
template <class F>
decltype(auto) with_scan_types(Scan scan, F&& f) {
  switch (scan.type) {
    case ValueType::Int32: return with_operator<std::int32_t>(scan.op, f);
    case ValueType::UInt32: return with_operator<std::uint32_t>(scan.op, f);
    case ValueType::Float: return with_operator<float>(scan.op, f);
    case ValueType::Double: return with_operator<double>(scan.op, f);
    case ValueType::Int64: return with_operator<std::int64_t>(scan.op, f);
    case ValueType::UInt64: return with_operator<std::uint64_t>(scan.op, f);
  }
  throw std::logic_error("unknown value type");
}

/// A problem: values and flags (0 or 1), of the same length.
template <class T>
struct Problem {
  std::vector<T> values;
  std::vector<std::uint8_t> flags;
};

/// Seeded head flags: flags[0] is always 1, the rest follow @p pattern.
std::vector<std::uint8_t> make_flags(std::size_t n, Pattern pattern, std::uint64_t seed);

/// A seeded problem for operator @p op. Values are chosen so that every result is well defined:
///  - signed integer sums: uniform in [-R, R], R = min(2^20 or 2^40, (2^31 - 1 or 2^63 - 1) / n), so no
///    sum of up to n values can overflow; products: -1 or 1;
///  - unsigned integers: any value (sums and products wrap around, which is defined); products take
///    odd values, whose products stay odd and so never wrap to 0;
///  - max and min of integers: any value of the type;
///  - floating point: uniform in (-1, 1); products uniform in (0.999, 1.001), so that the logarithm of a
///    product of 60 million factors drifts to about -10 (each factor's logarithm averages about
///    -(0.001)^2 / 6), give or take 4.5 (one standard deviation), and stays far inside the range of a
///    float.
template <class T>
Problem<T> make_problem(std::size_t n, Operator op, Pattern pattern, std::uint64_t seed);

/// The element type stored in a lesson 03 file (its first array). @throws course::UsageError
ValueType file_value_type(const std::string& path);

/// Reads a problem from a course file: the values (1 x n of T), then the flags (1 x n int32). Throws
/// course::UsageError, naming the file, for a wrong or truncated file, arrays of different lengths, a
/// flag other than 0 or 1, or a floating-point value that is not finite.
template <class T>
Problem<T> read_problem(const std::string& path);

/// Writes a problem in the form read_problem() reads (flags widened to int32: the course format holds
/// 32- and 64-bit elements only).
template <class T>
void write_problem(const std::string& path, const Problem<T>& p);

/// Throws course::UsageError if a signed integer sum or product of some segment leaves the type (signed
/// overflow is undefined in C++, so such an input has no answer to check). Generated problems never do.
template <class T, class Op>
void require_defined(const Problem<T>& p, const std::string& source);

/// Compares @p result with the reference, a sequential scan: integers, max and min exactly; float and
/// double sums and products within a tolerance that grows with the segment (see README.md). For the
/// element at position k of its segment (k = 1 at the head):
///  - sums: |got - expected| <= 4 u sqrt(k) A, A = the sum of |x| over the k terms (rounding errors
///    of a sum in any order behave like a random walk of k steps, each at most u A);
///  - products: |got - expected| <= ((1 + u)^(k-1) - 1) |expected|, the worst case of k - 1 roundings;
/// u = 2^-24 for float, 2^-53 for double. The reference is accumulated in long double.
template <class T, class Op>
course::Verdict check(const Problem<T>& p, const T* result);

/// How a GPU step launches, chosen once outside the timed region.
struct LaunchPlan {
  int threads = 0;               ///< threads per block (0 in a request: the step's choice)
  int items = 0;                 ///< elements per thread (steps 07 to 09; 0: the step's choice)
  bool padding = true;           ///< step 05: pad shared memory against bank conflicts
  bool scalar_loads = false;     ///< step 07: each thread reads and writes its run one element at a time
  bool staged_loads = false;     ///< step 07: each warp reads and writes 32 neighbouring elements at a time,
                                 ///< and hands each thread its run through shared memory
  int prefetch_tiles = -1;       ///< step 09: how many tiles ahead each block prefetches into L2 (0: none;
                                 ///< -1 in a request: the step's choice)
  std::size_t shared_bytes = 0;  ///< dynamic shared memory per block (the warps' stages: step 07 with
                                 ///< staged_loads, steps 08 and 09)
  std::size_t scratch_bytes = 0; ///< device scratch the step needs
};

/// Options a step accepts besides the lesson's own (Step::options).
enum StepOption : unsigned {
  kThreadsOption = 1u,  ///< --threads
  kItemsOption = 2u,    ///< --items 8|16|32
  kPaddingOption = 4u,  ///< --no-padding
  kScalarLoadsOption = 8u,  ///< --scalar-loads
  kStagedLoadsOption = 16u,  ///< --staged-loads
  kPrefetchOption = 32u,     ///< --prefetch-tiles
};

/// One rung of the ladder.
struct Step {
  const char* number;  ///< "08"
  const char* title;   ///< "decoupled look-back"
  const char* kind;    ///< "cpu", "gpu" or "library"

  /// CPU steps: the scan of n elements; values and result hold n elements of the type @p scan names.
  void (*run_cpu)(const void* values, const std::uint8_t* flags, void* result, std::size_t n, Scan scan);

  /// GPU steps: the launch for n elements; `requested` carries --threads, --items, --no-padding,
  /// --scalar-loads, --staged-loads, --prefetch-tiles.
  LaunchPlan (*plan)(std::size_t n, Scan scan, const course::DeviceFacts& device, const LaunchPlan& requested);

  /// GPU steps: enqueues the scan into stream. values, flags and result are in device memory (result
  /// poisoned by the caller); scratch holds plan.scratch_bytes bytes. Every launch is checked.
  void (*run_gpu)(const void* values, const std::uint8_t* flags, void* result, std::size_t n, Scan scan,
                  const LaunchPlan& plan, void* scratch, cudaStream_t stream);

  unsigned options;  ///< StepOption bits: the options this step takes

  /// CPU steps: whether the step uses every core (it then takes --cpu-threads, and is reported as
  /// "CPU, N threads").
  bool all_cores = false;
};

/// The step a program or test was built with (each step file defines it).
extern const Step kThisStep;

/// What a step program was asked to do, with the element type taken from the input file when there
/// is one.
struct Request : course::StepRequest {
  std::size_t n = kDefaultCount;
  Scan scan;
  Pattern pattern = Pattern::Random;
  LaunchPlan requested;         ///< --threads, --items, --no-padding, --scalar-loads, --staged-loads,
                                ///< --prefetch-tiles
  bool host_clock = false;      ///< --host-clock: time on the host, launches and the wait included
};

/// Lesson 03 as the course's step skeleton sees it (course/step_program.h): its options, its
/// measurement, and one run of a step. Every step program is course::step_main<Lesson>.
struct Lesson {
  using Step = segscan::Step;
  using Request = segscan::Request;
  static constexpr const char* kNumber = "03";
  static constexpr const char* kProblem = "segmented inclusive scan";
  static constexpr const char* kSummary = "";
  static constexpr int kCpuReps = 3, kGpuReps = 20, kCpuWarmup = 3;
  static constexpr const char* kSetByInput[] = {"n", "type", "segments"};
  static bool every_core(const Step& step) { return step.all_cores; }
  /// --n, --type, --op, --segments, --host-clock; the options of Step::options.
  static void declare(course::CommandLine& cli, const Step& step);
  /// Their values, checked; with --input, the element type is the file's.
  static void read(const course::CommandLine& cli, const Step& step, Request& request);
  /// The step, the size, the bytes it must move (values in, flags in, values out) and the operator
  /// applications (one per element).
  static course::Measurement describe(const Step& step, const Request& request);
  /// Loads the problem, times the step (its result poisoned before every run), checks and reports.
  static int run(const Step& step, Request& request);
};

/// The problem the request asks for: read from --input, or generated; checked with require_defined().
/// The request's n becomes the problem's.
template <class T, class Op>
Problem<T> load_problem(Request& request);

/// Times @p run as the request says: with events on the GPU after warm-up (the default, L2 cache
/// evicted before each run), or with --host-clock on the host's clock from the first launch to the end
/// of a stream synchronization. @p before_each (untimed) poisons the output.
course::TimingStats time_runs(const Request& request, cudaStream_t stream, const std::function<void(cudaStream_t)>& run,
                              const std::function<void(cudaStream_t)>& before_each);

/// Checks @p result, completes and prints @p m (with the GPU's copy bandwidth as the ceiling of a GPU
/// step), writes --output, and returns the exit code.
template <class T, class Op>
int report(course::Measurement m, const Problem<T>& p, const std::vector<T>& result, const Request& request);

/// Runs a GPU step once on @p p (result poisoned first) and returns the result. Used by the tests.
template <class T, class Op>
std::vector<T> run_gpu_once(const Step& step, const Problem<T>& p, const LaunchPlan& requested = {});

/// Runs the CPU step on @p p and returns the result. Used by the tests.
template <class T, class Op>
std::vector<T> run_cpu_once(const Step& step, const Problem<T>& p);

/// The Scan that names T and Op.
template <class T, class Op>
Scan scan_of();

}  // namespace segscan
