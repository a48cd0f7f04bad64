// Lesson 01, pairwise vector distance: what every step of the lesson shares on the host side.
//
// A is an M x N matrix and B a K x N matrix, both row-major: each row is a vector of N elements.
// Each step computes the M x K matrix C of squared Euclidean distances,
//
//     C[i][j] = sum over x of (A[i][x] - B[j][x])^2,
//
// in float32 (the default) or, steps 01 to 08, int32 (--type int32, the original study's setting).
// Every step file but step 03's defines one `Step`, kThisStep. The lesson's main (step_main.cpp)
// hands it to the course's step skeleton with the `Lesson` below (options, data, the reference,
// timing, the check, the report); the tests run it through run_gpu_once(). Step 03, the page that
// shows the host side in full, runs its own host side with the pieces below.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/cli.h"
#include "course/device.h"
#include "course/report.h"
#include "course/step_program.h"
#include "course/verify.h"

namespace distance {

/// Default problem size of the GPU steps: M = K = N = 4096.
constexpr std::size_t kDefaultSize = 4096;

/// The element type of a problem (--type).
enum class Type { Float32, Int32 };

/// The C++ type behind a Type.
template <Type> struct ElementOf;
template <> struct ElementOf<Type::Float32> { using type = float; };
template <> struct ElementOf<Type::Int32> { using type = std::int32_t; };

/// How a step computes C. It decides how far a float result may be from the reference (see check()).
enum class Form {
  Direct,         ///< (a - b)^2 summed term by term
  NormExpansion,  ///< ||a||^2 + ||b||^2 - 2 a.b, the form a matrix product can compute
  NormExpansionTf32,  ///< the norm expansion with every input of a.b rounded to TF32 (10-bit mantissa)
};

/// A problem: A (M x N) and B (K x N), row-major.
template <class T>
struct Problem {
  std::size_t m = 0;  ///< rows of A (and of C)
  std::size_t k = 0;  ///< rows of B (columns of C)
  std::size_t n = 0;  ///< elements of every vector
  std::vector<T> a;   ///< M x N
  std::vector<T> b;   ///< K x N
};

/// The width of the seeded int32 values for vectors of n elements: min(2000, floor(sqrt((2^31 - 1) / n))).
/// Two values differ by at most the width, so a distance is at most n x width^2 <= 2^31 - 1: no sum of
/// squared differences can overflow int32, whatever the order of the additions.
std::int64_t int_value_width(std::size_t n);

/// A seeded problem. float32: every element is offset + a value uniform in (-1, 1). int32: every
/// element is uniform among the int_value_width(n) + 1 whole numbers centred on the (whole) offset.
/// A and B come from unrelated streams of the same seed.
template <class T>
Problem<T> make_problem(std::size_t m, std::size_t k, std::size_t n, std::uint64_t seed, double offset = 0);

/// Writes a problem to a course binary file: A (M x N), then B (K x N).
template <class T>
void write_problem(const std::string& path, const Problem<T>& p);

/// Reads a problem written by write_problem(). Throws course::UsageError, naming the file, when it
/// is not a course file, is truncated, holds other types, when A and B differ in N, or when the
/// values could overflow: int32 needs N x (max - min)^2 <= 2^31 - 1 over A and B together; float32
/// needs finite values and N x (max - min)^2 within float's range.
template <class T>
Problem<T> read_problem(const std::string& path);

/// Checks that the values of a problem cannot overflow (the rule of read_problem()); `source` names
/// where they came from in the message.
template <class T>
void validate_values(const Problem<T>& p, const std::string& source);

/// The reference C: in double precision for float32 problems, exactly (in 64-bit integers) for int32.
std::vector<double> reference(const Problem<float>& p);
std::vector<std::int32_t> reference(const Problem<std::int32_t>& p);

/// Compares a float C with the reference, element by element, within
///     |C - C_ref| <= 4 u sqrt(N) C_ref + N 2^-126                                   (Direct)
///     |C - C_ref| <= 4 u sqrt(N) C_ref + 4 u (sqrt(N) + 2) (|a_i|^2 + |b_j|^2)       (NormExpansion)
///     NormExpansion's bound + 3 u_t (|a_i|^2 + |b_j|^2)                             (NormExpansionTf32)
/// with u = 2^-24, float's unit roundoff, and u_t = 2^-11, TF32's. A distance is a sum of N
/// non-negative terms, so its rounding error is relative to the distance itself and grows like sqrt(N)
/// for independent roundings; 4 leaves room for different orders of summation, the floor covers
/// underflow. The norm expansion subtracts
/// numbers as large as |a|^2 + |b|^2, and its error scales with them, not with the distance. A lost
/// term (one (a - b)^2 of an average size, C / N) is far outside the Direct bound. Every form is
/// PASS within its own bound; the report gives the largest relative error beside the verdict. In
/// TF32 each input of a product is off by up to u_t of itself, so each product a_x b_x by up to
/// (2 u_t + u_t^2) |a_x b_x| < 3 u_t |a_x b_x|; summed over x and doubled, that is at most
/// 3 u_t (|a|^2 + |b|^2), since 2 |a_x b_x| <= a_x^2 + b_x^2.
course::Verdict check(const Problem<float>& p, const std::vector<float>& c, const std::vector<double>& expected,
                      Form form);
/// int32 results must match exactly, whatever the form.
course::Verdict check(const Problem<std::int32_t>& p, const std::vector<std::int32_t>& c,
                      const std::vector<std::int32_t>& expected, Form form);

/// max over the elements of |C - C_ref| / C_ref (elements with C_ref = 0 count when C differs).
double max_relative_error(const std::vector<float>& c, const std::vector<double>& expected);
/// A relative error in two significant digits, "5.5e-07" (or "0").
std::string format_error(double error);

/// The ceiling of a GPU step, in G terms/s: one FP32 instruction per lane per clock for float32,
/// one 32-bit integer instruction per lane per clock for int32. One term is one (a - b)^2 added.
double issue_ceiling(const course::DeviceFacts& device, Type type);
/// The ceiling's name in the tables.
const char* issue_ceiling_name(Type type);
/// The ceiling of a step that makes `products` TF32 tensor-core products per term, in G terms/s: the
/// GPU's TF32 multiply-add rate divided by `products` (0 where the rate is not known).
double tensor_ceiling(const course::DeviceFacts& device, int products);
/// Its name in the tables.
std::string tensor_ceiling_name(int products);

/// How a GPU step launches, chosen once outside the timed region.
struct LaunchPlan {
  std::size_t scratch_bytes = 0;  ///< device scratch the step needs (row norms)
  bool scalar_loads = false;      ///< step 06: 4-byte global loads and stores even where 16-byte ones would do
};

/// One rung of the ladder.
struct Step {
  const char* number;  ///< "06"
  const char* title;   ///< "register tiles, 8 x 8 per thread"
  const char* kind;    ///< "cpu", "gpu" or "library"
  Form form;           ///< which tolerance its float results get
  std::size_t default_size;  ///< M = K = N when not given (the CPU steps run smaller)

  /// CPU steps: C from A and B.
  void (*cpu_float)(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n);
  void (*cpu_int)(const std::int32_t* a, const std::int32_t* b, std::int32_t* c, std::size_t m, std::size_t k,
                  std::size_t n);
  /// CPU steps: how many threads they run on (null: one).
  int (*cpu_threads)();

  /// GPU steps: the launch for an M x K x N problem of `type` (throws course::UsageError for what the
  /// step cannot do, course::NotSupportedError for what the GPU lacks). A float32-only step (gpu_int
  /// null) is never asked for int32: the driver refuses --type int32 for it first.
  LaunchPlan (*plan)(std::size_t m, std::size_t k, std::size_t n, Type type, const course::DeviceFacts& device);
  /// GPU steps: enqueue C = distances(A, B) into stream; a, b, c in device memory, c poisoned by the
  /// caller, `scratch` of plan.scratch_bytes bytes. gpu_int is null for a float32-only step.
  void (*gpu_float)(const float* a, const float* b, float* c, std::size_t m, std::size_t k, std::size_t n,
                    const LaunchPlan& plan, void* scratch, cudaStream_t stream);
  void (*gpu_int)(const std::int32_t* a, const std::int32_t* b, std::int32_t* c, std::size_t m, std::size_t k,
                  std::size_t n, const LaunchPlan& plan, void* scratch, cudaStream_t stream);
  /// Whether the step takes --scalar-loads (LaunchPlan::scalar_loads).
  bool takes_scalar_loads = false;
  /// TF32 tensor-core products per term (0: the step runs on the FP32 or integer cores); it decides
  /// the ceiling.
  int tf32_products = 0;
};

/// The step a program or test was built with (each step file but step 03 defines it).
extern const Step kThisStep;

/// The names --type takes, in Type's order: the element type is Type(cli.choice("type")).
inline const std::vector<std::string> kTypeNames{"float32", "int32"};
/// The centre of the seeded values (--offset), for values of @p type: at most 1,000,000, and whole for
/// int32. @throws course::UsageError for anything else
double parse_offset(const std::string& text, Type type);

/// What a step program was asked to do, with the sizes and the type taken from the input file when
/// there is one.
struct Request : course::StepRequest {
  Type type = Type::Float32;
  std::size_t m = 0, k = 0, n = 0;
  double offset = 0;              ///< --offset: where the seeded values are centred
  bool scalar_loads = false;      ///< --scalar-loads (steps that take it)
};

/// Lesson 01 as the course's step skeleton sees it (course/step_program.h): its options, its
/// measurement, and one run of a step. Every step program is course::step_main<Lesson>.
struct Lesson {
  using Step = distance::Step;
  using Request = distance::Request;
  static constexpr const char* kNumber = "01";
  static constexpr const char* kProblem = "pairwise squared distances";
  static constexpr const char* kSummary = "C[i][j] = sum over x of (A[i][x] - B[j][x])^2.";
  static constexpr int kCpuReps = 3, kGpuReps = 20, kCpuWarmup = 0;  // long CPU runs need no warm-up
  static constexpr const char* kSetByInput[] = {"m", "k", "n", "offset"};
  static bool every_core(const Step& step) { return step.cpu_threads != nullptr; }
  /// --m, --k, --n, --type, --offset; --scalar-loads for the steps that take it.
  static void declare(course::CommandLine& cli, const Step& step);
  /// Their values, checked; with --input, the type is the file's (a --type that disagrees is refused).
  static void read(const course::CommandLine& cli, const Step& step, Request& request);
  /// The step, the size, the terms (one per (i, j, x)) and the least traffic (A and B read, C written).
  static course::Measurement describe(const Step& step, const Request& request);
  /// Loads the problem, times the step (C poisoned before every run), checks and reports.
  static int run(const Step& step, Request& request);
};

/// The problem a request names, read from --input or made by the seeded generator; the request's
/// sizes become the problem's.
template <class T>
Problem<T> load_problem(Request& request);

/// Completes and prints the report of a run: the ceiling (GPU steps), the check against the
/// reference, the largest relative error; writes C to --output when asked. Returns the exit code.
template <class T>
int finish(course::Measurement m, const Step& step, const Problem<T>& p, const std::vector<T>& c,
           const Request& request);

/// Runs a GPU step once on `p` (C poisoned first) and returns C. Used by the tests.
template <class T>
std::vector<T> run_gpu_once(const Step& step, const Problem<T>& p, bool scalar_loads = false);

/// The options of the lesson's report programs (lesson01_accuracy, lesson01_register_tile_shapes):
/// --m, --k and --n, each `size` by default, and --seed.
void add_report_options(course::CommandLine& cli, std::size_t size);

/// What a report program runs its kernels on: A, B and C of an M x K x N float32 problem in device
/// memory, and room for the row norms (M + K floats). Refuses sizes the GPU's memory cannot hold.
struct ReportBuffers {
  ReportBuffers(std::size_t m, std::size_t k, std::size_t n);
  course::DeviceBuffer<float> a, b, c;
  course::DeviceBuffer<unsigned char> norms;
};

}  // namespace distance
