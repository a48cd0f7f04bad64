// Lesson 05, C = A^T (A v): what every step of the lesson shares on the host side.
//
// A is an M x N matrix of floats in row-major order, v a vector of N floats. Each step computes
// B = A v (M floats), then C = A^T B (N floats), without ever forming A^T: the second product reads
// A with transposed indexing. Every step file defines one `Step`, kThisStep. The lesson's main
// (step_main.cpp) hands it to the course's step skeleton with the `Lesson` below (arguments, the
// problem, the reference, timing, verification, report); the tests run it through run_gpu_once().
// Step 03 runs its own host side on one page, with the pieces below (load_problem, Lesson::describe,
// report_gpu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "course/device.h"
#include "course/step_program.h"
#include "course/verify.h"

namespace matvec {

/// Default problem size: a 16384 x 16384 matrix (1 GiB).
constexpr std::size_t kDefaultRows = 16384;
constexpr std::size_t kDefaultColumns = 16384;

/// A problem: the matrix and the vector.
struct Problem {
  std::size_t rows = 0;     ///< M
  std::size_t columns = 0;  ///< N
  std::vector<float> a;     ///< M x N, row-major
  std::vector<float> v;     ///< N
};

/// A seeded problem: every element of A and v uniform in (-1, 1).
Problem make_problem(std::size_t rows, std::size_t columns, std::uint64_t seed);

/// Writes a problem to a course binary file: A (M x N float32), then v (1 x N float32).
void write_problem(const std::string& path, const Problem& p);

/// Throws course::UsageError when an M x N matrix is more than the course's files hold (2^32 - 1
/// elements).
void require_fits_in_file(std::size_t rows, std::size_t columns);

/// Reads a problem written by write_problem(). Throws course::UsageError for a file that is not a
/// course file, is truncated, holds the wrong types, or whose v does not have N elements.
Problem read_problem(const std::string& path);

/// The reference, in double precision: C = A^T (A v).
std::vector<double> reference(const Problem& p);

/// The tolerance for a float result against the double reference: per element,
/// 4 * 2^-24 * sqrt(M + N) * max_j max(|C_j|, s_j), where s_j^2 = sum_i A_ij^2 (B_i^2 + sum_k
/// (A_ik v_k)^2) is the size of C_j's terms along its whole path. Rounding errors of long sums of
/// independent terms grow like the square root of their number (M + N terms lie on the way from A
/// and v to each C_j) times the terms' size, which s_j stands for where the terms cancel and |C_j|
/// does not; a factor of 4 leaves room for the summation orders of different steps. A lost row or
/// column (one term of size ~|A||B|) is far larger than this and fails.
course::Tolerance tolerance(const Problem& p, const std::vector<double>& expected);

/// The same rule for any float result made of sums along a path of `terms` terms:
/// 4 * 2^-24 * sqrt(terms) * max(scales), scales being what each result's rounding scales with: the
/// expected results themselves (tolerance() above), or each result's sum of |terms|, which also holds
/// where the terms cancel (the exercises: M terms for A^T x, N for A x).
course::Tolerance sum_tolerance(std::size_t terms, const std::vector<double>& scales);

/// Who holds a row of A in steps 07 to 11 until its B_i is known (--layout).
enum class RowLayout {
  kAuto,     ///< chosen by the row's length N
  kWarp,     ///< a warp per row: 32 lanes x 32 values
  kBlock,    ///< a block per group of rows: 512 or 1024 threads x 4, 8 or 16 values
  kGroup,    ///< a group of up to 8 blocks per row: 8 x 512 threads x 16 values (a cooperative launch)
  kCluster,  ///< the same groups launched as clusters (compute capability 9.0+)
  kWide,     ///< every block a slice of every row (a cooperative launch), up to 16 values per thread of the grid
};

/// How steps 09 to 11 chose between a block per row and a group of blocks per row, for rows that a
/// block holds (the launch line says which).
enum class LayoutChoice {
  kByLength,  ///< no choice between the two: the row's length or --layout decided
  kProbed,    ///< both timed once on this GPU (in this process), the faster kept
  kUnprobed,  ///< the block layout, untimed: the matrix is under twice the L2 cache, where the probe costs more
};

/// The longest row (columns) a layout holds; kWide and kAuto: any.
constexpr std::size_t kWarpRowColumns = 32 * 32;
constexpr std::size_t kBlockRowColumns = 1024 * 16;
constexpr std::size_t kGroupBlockColumns = 512 * 16;  ///< of a row, per block of a group (or cluster)
constexpr std::size_t kGroupRowColumns = 8 * kGroupBlockColumns;

/// The layout's name, as --layout takes it: "warp", "block", ...
std::string layout_name(RowLayout layout);

/// Throws course::UsageError (one line) when `layout` cannot hold rows of `columns` elements.
void require_layout_holds(RowLayout layout, std::size_t columns);

/// Throws course::UsageError (one line) when `layout` is not one of the step's: step 07 holds rows in a
/// warp or a block, steps 08 and 09 also in a group of blocks (or a cluster), steps 10 and 11 also in the
/// wide layout (Step::options says which).
struct Step;
void require_step_has_layout(RowLayout layout, const Step& step);

/// Both checks, as a step's plan makes them: `layout` is one of the step's, and holds rows of `columns`
/// elements (an --input file's rows may be too long for it).
void require_layout_fits(RowLayout layout, const Step& step, std::size_t columns);

/// How a GPU step launches, chosen once outside the timed region.
struct LaunchPlan {
  int threads = 0;                ///< threads per block
  int blocks = 0;                 ///< blocks per grid (for steps that choose it)
  int parts = 0;                  ///< row or column parts that produce partial sums (steps 04-06, and the
                                  ///< fallback of steps 07 to 11)
  std::size_t scratch_bytes = 0;  ///< device scratch: B, partial sums
  int row_pieces = 1;             ///< steps 05, 06 and 07 to 11's fallback: pieces each row of A v is cut into
  bool whole_rows = false;        ///< step 05 (--whole-rows): a warp per whole row in A v, even where rows are few
  int rows_at_a_time = 0;         ///< step 06: rows a warp takes together (A v) and rows in flight (A^T B); 0: 4
  bool scalar_loads = false;      ///< step 06: 4-byte loads even where 16-byte loads would do
  bool shared_vector = true;      ///< step 04: the vector's tiles through shared memory (else read from global)
  RowLayout layout = RowLayout::kAuto;  ///< steps 07 to 11: who holds a row (the plan names the one it chose)
  bool bulk_copies = false;       ///< steps 09 to 11's group and wide layouts: rows may go through the bulk copy
                                  ///< engine (the plan's choice: off with no_bulk_copy)
  bool no_bulk_copy = false;      ///< steps 09 to 11 (--no-bulk-copy): every thread copies its own values, even where
                                  ///< the engine could (a request; the plan answers with bulk_copies)
  int rows_ahead = 3;             ///< steps 09 to 11's group and wide layouts (--rows-ahead 1 to 4): rows (groups of
                                  ///< rows) whose parts a block posts before it waits for the parts of the oldest
  int stages = 0;                 ///< steps 09 to 11's group and wide layouts (--stages): rows (groups of rows) a
                                  ///< block keeps in shared memory, one applied, rows_ahead posted, the rest in
                                  ///< flight; 0: rows_ahead + 3 (the plan names the number it chose)
  LayoutChoice layout_choice = LayoutChoice::kByLength;  ///< steps 09 to 11: how the block or group layout
                                                         ///< was chosen for rows a block holds
  bool finish_in_launch = false;  ///< step 10b: the fused kernel adds the partial C's itself, after a grid barrier
                                  ///< (no second launch)
  int prefetch_request = 0;       ///< step 07's warp and block layouts (--prefetch on or off): 1 keeps the next row's
                                  ///< loads in flight while a row is worked on, -1 loads each row only when it is
                                  ///< needed, 0 leaves it to the step (a request; the plan answers with prefetch)
  bool prefetch = false;          ///< the plan's choice: on in the warp layout, off in the block layout
  int warp_e32 = 0;               ///< step 07's warp layout on rows of 513 to 1024 columns (--warp-e32): 0 whole
                                  ///< lines with v and C in shared memory, 1 from each row's first element, 2 that
                                  ///< with v and C in registers (warp_rows::WideRowWay)
  int block_threads = 0;          ///< step 07's block layout (--block-threads 512 or 1024; 0: by N, 512 up to 8192
                                  ///< columns); the plan's threads say what it chose
};

/// Throws course::UsageError (one line) when step 07's --block-threads, --prefetch or --warp-e32 was asked for
/// rows that the step gives to a layout they do not apply to (the warp and block layouts go by N alone,
/// longer rows go to two passes).
void require_layout_options_apply(const LaunchPlan& requested, std::size_t columns);

/// The most stages of rows the group and wide layouts keep (--stages); shared memory may allow fewer.
constexpr int kMaxStages = 7;

/// Throws course::UsageError (one line) when --stages cannot hold one row applied, --rows-ahead rows
/// posted and one in flight (0 takes the step's choice and always holds).
void require_stages_hold(const LaunchPlan& requested);

/// Options a step takes besides the lesson's own (Step::options).
enum StepOption : unsigned {
  kIdeasApartOptions = 1u,    ///< --rows 1|4 and --scalar-loads: step 06's two ideas, one at a time
  kSharedVectorOption = 2u,   ///< --no-shared-vector: step 04 without its shared-memory tiles
  kLayoutOption = 4u,         ///< --layout: steps 07 to 11 with one of their layouts, whatever N is
  kNoBulkCopyOption = 8u,     ///< --no-bulk-copy: steps 09 to 11's group and wide layouts without the bulk copy
                              ///< engine
  kRowsAheadOption = 16u,     ///< --rows-ahead 1 to 4: steps 09 to 11's group and wide layouts posting 1 to 4 rows
                              ///< (groups of rows) ahead
  kPrefetchOption = 32u,      ///< --prefetch on|off: step 07's warp and block layouts with or without the next row
                              ///< in flight
  kBlockThreadsOption = 64u,  ///< --block-threads 512|1024: step 07's block layout with blocks of that size
  kWarpE32Option = 128u,      ///< --warp-e32 lines|first-element|registers: step 07's warp layout on rows of 513
                              ///< to 1024 columns read and held each way
  kGroupLayoutsOption = 256u,    ///< --layout also takes group and cluster (steps 08 to 11)
  kWholeRowsOption = 512u,       ///< --whole-rows: step 05's A v without cutting few rows into pieces
  kWideLayoutOption = 1024u,     ///< --layout also takes wide (steps 10 and 11)
  kGpusOption = 2048u,           ///< --gpus K and --scaling: step 13 on K GPUs, or its table of 1, 2, 4, ... GPUs
  kProcessesOption = 4096u,      ///< --gpus K and --nccl-id FILE: step 14, one process per GPU
  kStagesOption = 8192u,         ///< --stages N: steps 09 to 11's group and wide layouts with N stages of rows
};

/// One rung of the ladder.
struct Step {
  const char* number;  ///< "07"
  const char* title;   ///< "fused single pass, A read once"
  const char* kind;    ///< "cpu", "gpu" or "library"

  /// CPU steps: C (N floats) from A and v.
  void (*run_cpu)(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns);

  /// GPU steps: the launch for an M x N problem; `requested` carries --threads/--blocks.
  LaunchPlan (*plan)(std::size_t rows, std::size_t columns, const course::DeviceFacts& device,
                     const LaunchPlan& requested);

  /// GPU steps: enqueues C = A^T (A v) into stream; a, v, c in device memory, c poisoned by the
  /// caller; `scratch` holds plan.scratch_bytes bytes (B and any partial sums live there).
  void (*run_gpu)(const float* a, const float* v, float* c, std::size_t rows, std::size_t columns,
                  const LaunchPlan& plan, void* scratch, cudaStream_t stream);

  /// How many times the step reads A (2 for two passes, 1 for the fused step): the report counts
  /// the bytes the step actually needs.
  int matrix_reads;

  /// CPU steps: whether the step uses every core (reported as "CPU, N threads").
  bool all_cores = false;

  /// StepOption bits: the options this step takes besides --threads and --blocks.
  unsigned options = 0;
};

/// The step a program or test was built with (each step file defines it).
extern const Step kThisStep;

/// What a step program was asked to do.
struct Request : course::StepRequest {
  std::size_t rows = kDefaultRows;        ///< --m (when the problem is generated)
  std::size_t columns = kDefaultColumns;  ///< --n (when the problem is generated)
  LaunchPlan requested;  ///< the launch options of Step::options: --threads, --blocks (0: the step's choice),
                         ///< --rows, --scalar-loads, --no-shared-vector, --whole-rows, --layout, --prefetch,
                         ///< --block-threads, --warp-e32, --rows-ahead, --no-bulk-copy
  long long gpus = 0;    ///< --gpus (step 13): how many GPUs, 0 for every GPU of the machine
  bool scaling = false;  ///< --scaling (step 13): the table of 1, 2, 4, ... GPUs instead of one run
  std::string nccl_id;   ///< --nccl-id (step 14): where rank 0 hands NCCL's id to the others under Slurm
};

/// Lesson 05 as the course's step skeleton sees it (course/step_program.h): its options, its
/// measurement, and one run of a step. Every step program is course::step_main<Lesson>.
struct Lesson {
  using Step = matvec::Step;
  using Request = matvec::Request;
  static constexpr const char* kNumber = "05";
  static constexpr const char* kProblem = "C = A^T (A v)";
  static constexpr const char* kSummary = "A is M x N, v has N elements, both from (-1, 1).";
  static constexpr int kCpuReps = 3, kGpuReps = 20, kCpuWarmup = 3;
  static constexpr const char* kSetByInput[] = {"m", "n"};
  static bool every_core(const Step& step) { return step.all_cores; }
  /// --m and --n; --threads and --blocks for GPU steps; the options of Step::options.
  static void declare(course::CommandLine& cli, const Step& step);
  static void read(const course::CommandLine& cli, const Step& step, Request& request);
  /// The step, the size, the bytes the step needs (A read once or twice, v read and C written once)
  /// and the multiply-adds (two per element of A).
  static course::Measurement describe(const Step& step, const Request& request);
  /// Loads the problem, times the step (C poisoned before every run), checks and reports.
  static int run(const Step& step, Request& request);
};

/// The problem: read from --input, or made with make_problem() from --m, --n and --seed. Throws
/// course::UsageError when M x N is more than the course's files hold (2^32 - 1 elements).
Problem load_problem(const Request& request);

/// Finishes a GPU step's measurement: adds the GPU and the ceilings, checks `c` against the reference
/// within tolerance(), prints the report and writes --output. Returns the program's exit code (0 only
/// on PASS). A step on @p gpus GPUs (step 13) names them and counts every GPU's bandwidth in its ceiling.
int report_gpu(course::Measurement m, const Problem& p, const std::vector<float>& c, const Request& request,
               int gpus = 1);

/// Runs a GPU step once (output poisoned first) and returns C. Used by the tests.
std::vector<float> run_gpu_once(const Step& step, const Problem& p, const LaunchPlan& requested = {});

}  // namespace matvec
