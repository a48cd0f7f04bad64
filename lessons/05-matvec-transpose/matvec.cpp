// Lesson 05, C = A^T (A v): what the lesson's step programs share. The course's step skeleton
// (course/step_program.h) parses the command line; the lesson makes or reads the problem, computes the
// double-precision reference, runs the step (timed, with C poisoned before every run), checks C within
// the stated tolerance and reports.
#include "matvec.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/check.h"
#include "course/data.h"
#include "course/errors.h"
#include "course/ranks.h"

namespace matvec {

Problem make_problem(std::size_t rows, std::size_t columns, std::uint64_t seed) {
  Problem p;
  p.rows = rows;
  p.columns = columns;
  p.a = course::uniform_floats(rows * columns, -1.0f, 1.0f, seed);
  p.v = course::uniform_floats(columns, -1.0f, 1.0f, seed ^ 0x5EC7ull);
  return p;
}

void write_problem(const std::string& path, const Problem& p) {
  course::BinaryWriter out(path);
  out.write(p.a.data(), p.rows, p.columns);
  out.write(p.v);
  out.close();
}

void require_fits_in_file(std::size_t rows, std::size_t columns) {
  if (static_cast<double>(rows) * columns > 4294967295.0)
    throw course::UsageError("--m x --n is more than 2^32 - 1 elements, beyond what the course's files hold");
}

Problem read_problem(const std::string& path) {
  course::BinaryReader in(path);
  course::Array<float> a = in.read<float>();
  course::Array<float> v = in.read<float>();
  in.expect_end();
  if (v.rows != 1 || v.columns != a.columns)
    throw course::UsageError(path + ": v must be one row of " + std::to_string(a.columns) + " values to match A (" +
                             std::to_string(a.rows) + " x " + std::to_string(a.columns) + "), it is " +
                             std::to_string(v.rows) + " x " + std::to_string(v.columns));
  Problem p;
  p.rows = a.rows;
  p.columns = a.columns;
  p.a = std::move(a.values);
  p.v = std::move(v.values);
  return p;
}

namespace {

// sum_i f(A_ij) w_i for every column j, row by row (A is read in order); each thread sums a band of
// rows into its own copy. C = A^T B with f the identity; the tolerance's s_j^2 with f squaring.
template <class OfA>
std::vector<double> column_sums(const Problem& p, const std::vector<double>& w, OfA f) {
  const std::size_t n = p.columns;
  const long long rows = static_cast<long long>(p.rows);
  std::vector<double> sums(n, 0.0);
#pragma omp parallel
  {
    std::vector<double> mine(n, 0.0);
#pragma omp for schedule(static)
    for (long long r = 0; r < rows; ++r) {
      const float* row = p.a.data() + static_cast<std::size_t>(r) * n;
      const double w_r = w[static_cast<std::size_t>(r)];
      for (std::size_t j = 0; j < n; ++j) mine[j] += f(static_cast<double>(row[j])) * w_r;
    }
#pragma omp critical
    for (std::size_t j = 0; j < n; ++j) sums[j] += mine[j];
  }
  return sums;
}

}  // namespace

std::vector<double> reference(const Problem& p) {
  const std::size_t m = p.rows, n = p.columns;
  std::vector<double> b(m);
  const long long rows = static_cast<long long>(m);
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    const float* row = p.a.data() + static_cast<std::size_t>(r) * n;
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) sum += static_cast<double>(row[j]) * p.v[j];
    b[static_cast<std::size_t>(r)] = sum;
  }
  return column_sums(p, b, [](double a) { return a; });  // C = A^T B
}

course::Tolerance sum_tolerance(std::size_t terms, const std::vector<double>& scales) {
  double largest = 0;
  for (double x : scales) largest = std::max(largest, std::fabs(x));
  course::Tolerance t;
  t.absolute = 4.0 * std::ldexp(1.0, -24) * std::sqrt(static_cast<double>(terms)) * largest;
  return t;
}

course::Tolerance tolerance(const Problem& p, const std::vector<double>& expected) {
  // Where the terms cancel, C is small but its rounding is not: rounding grows with the terms, not
  // with their sum. So each C_j's scale is also the root of the sum of its terms' squares, taken
  // along the whole path (A_ij B_i, and B_i's own terms A_ik v_k): s_j^2 = sum_i A_ij^2 (B_i^2 +
  // sum_k A_ik^2 v_k^2). Where nothing cancels, max |C_j| is the larger, and the rule is as before.
  const std::size_t m = p.rows, n = p.columns;
  std::vector<double> row_weight(m);  // B_i^2 + sum_k (A_ik v_k)^2
  const long long rows = static_cast<long long>(m);
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    const float* row = p.a.data() + static_cast<std::size_t>(r) * n;
    double sum = 0, squares = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double term = static_cast<double>(row[k]) * p.v[k];
      sum += term;
      squares += term * term;
    }
    row_weight[static_cast<std::size_t>(r)] = sum * sum + squares;
  }
  const std::vector<double> squares = column_sums(p, row_weight, [](double a) { return a * a; });
  std::vector<double> scales = expected;
  for (std::size_t j = 0; j < n; ++j) scales.push_back(std::sqrt(squares[j]));
  return sum_tolerance(m + n, scales);
}

namespace {

// The layouts with their --layout names, in one list for the names and the parser.
constexpr std::pair<RowLayout, const char*> kLayoutNames[] = {
    {RowLayout::kAuto, "auto"},   {RowLayout::kWarp, "warp"},       {RowLayout::kBlock, "block"},
    {RowLayout::kGroup, "group"}, {RowLayout::kCluster, "cluster"}, {RowLayout::kWide, "wide"}};

// The --name values of a list of (value, name) pairs, in its order: cli.choice() indexes the list.
template <class T, std::size_t N>
std::vector<std::string> names_of(const std::pair<T, const char*> (&choices)[N]) {
  std::vector<std::string> names;
  for (const auto& choice : choices) names.push_back(choice.second);
  return names;
}

constexpr std::pair<int, const char*> kPrefetch[] = {{1, "on"}, {-1, "off"}, {0, "auto"}};
constexpr std::pair<int, const char*> kWarpE32Ways[] = {{0, "lines"}, {1, "first-element"}, {2, "registers"}};

}  // namespace

std::string layout_name(RowLayout layout) {
  for (const auto& [value, name] : kLayoutNames)
    if (value == layout) return name;
  return "auto";
}

void require_layout_holds(RowLayout layout, std::size_t columns) {
  const auto most = [&](const char* name, std::size_t longest) {
    if (columns > longest)
      throw course::UsageError(std::string("--layout ") + name + " holds rows of at most " + std::to_string(longest) +
                               " columns, not " + std::to_string(columns));
  };
  if (layout == RowLayout::kWarp) most("warp", kWarpRowColumns);
  if (layout == RowLayout::kBlock) most("block", kBlockRowColumns);
  if (layout == RowLayout::kGroup || layout == RowLayout::kCluster) most(layout_name(layout).c_str(), kGroupRowColumns);
}

void require_step_has_layout(RowLayout layout, const Step& step) {
  const bool group = layout == RowLayout::kGroup || layout == RowLayout::kCluster;
  if (group && !(step.options & kGroupLayoutsOption))
    throw course::UsageError("--layout " + layout_name(layout) + ": step " + step.number +
                             " holds rows in a warp or a block; groups of blocks are step 08's");
  if (layout == RowLayout::kWide && !(step.options & kWideLayoutOption))
    throw course::UsageError("--layout wide: step " + std::string(step.number) + " holds rows in a warp, a block" +
                             (step.options & kGroupLayoutsOption ? " or a group of blocks" : "") +
                             "; the wide layout is step 10's");
}

void require_layout_fits(RowLayout layout, const Step& step, std::size_t columns) {
  require_step_has_layout(layout, step);
  require_layout_holds(layout, columns);
}

void require_layout_options_apply(const LaunchPlan& requested, std::size_t columns) {
  // The layout the rows go to, where it is the warp's or the block's: these depend on N alone.
  RowLayout layout = requested.layout;
  if (layout == RowLayout::kAuto)
    layout = columns <= kWarpRowColumns ? RowLayout::kWarp : columns <= kBlockRowColumns ? RowLayout::kBlock
                                                                                          : RowLayout::kGroup;
  const bool longer = requested.layout == RowLayout::kAuto && layout == RowLayout::kGroup;
  const std::string rows_go = "rows of " + std::to_string(columns) + " columns go to " +
                              (longer ? std::string("step 06's two passes") : "the " + layout_name(layout) + " layout");
  if (requested.block_threads != 0 && layout != RowLayout::kBlock)
    throw course::UsageError("--block-threads: " + rows_go + ", not the block layout");
  if (requested.block_threads == 512 && columns > kBlockRowColumns / 2)
    throw course::UsageError("--block-threads 512 holds rows of at most " + std::to_string(kBlockRowColumns / 2) +
                             " columns, not " + std::to_string(columns));
  if (requested.prefetch_request != 0 && layout != RowLayout::kWarp && layout != RowLayout::kBlock)
    throw course::UsageError("--prefetch: " + rows_go + ", not the warp or block layout");
  if (requested.warp_e32 != 0 && (layout != RowLayout::kWarp || columns <= kWarpRowColumns / 2))
    throw course::UsageError("--warp-e32: " + rows_go +
                             (layout == RowLayout::kWarp ? " with at most 16 values a lane" : "") +
                             ", not the warp layout with 17 to 32 values a lane (513 to 1024 columns)");
}

void require_stages_hold(const LaunchPlan& requested) {
  if (requested.stages != 0 && (requested.stages < requested.rows_ahead + 2 || requested.stages > kMaxStages))
    throw course::UsageError("--stages " + std::to_string(requested.stages) + ": posting " +
                             std::to_string(requested.rows_ahead) + " rows ahead takes " +
                             std::to_string(requested.rows_ahead + 2) + " to " + std::to_string(kMaxStages) +
                             " stages (one applied, those posted, at least one in flight)");
}

void Lesson::declare(course::CommandLine& cli, const Step& step) {
  cli.add_size("m", kDefaultRows, "rows of A", 1, 4294967295ull);
  cli.add_size("n", kDefaultColumns, "columns of A (and elements of v)", 1, 4294967295ull);
  if (course::runs_on_gpu(step)) {
    cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
    cli.add_integer("blocks", 0, "blocks per grid for steps that choose it (0: the step's choice)", 0, 2147483647);
  }
  if (step.options & kIdeasApartOptions) {
    cli.add_integer_choice("rows", 0, {1, 4}, "rows at a time: 1 or 4 (0: the step's choice, 4)");
    cli.add_flag("scalar-loads", "4-byte loads even where 16-byte loads would do");
  }
  if (step.options & kSharedVectorOption)
    cli.add_flag("no-shared-vector", "read the vector from global memory, not through shared-memory tiles");
  if (step.options & kWholeRowsOption)
    cli.add_flag("whole-rows", "a warp per whole row in A v, even where rows are too few to fill the GPU");
  if (step.options & kLayoutOption)
    cli.add_choice("layout", "auto", names_of(kLayoutNames),
                   std::string("who holds a row: warp, block") +
                       (step.options & kGroupLayoutsOption ? ", group, cluster" : "") +
                       (step.options & kWideLayoutOption ? ", wide" : "") +
                       (step.options & kRowsAheadOption  // steps 09 to 11 (and 10b) probe for rows a block holds
                            ? " (auto: chosen by N, and for rows a block holds by timing a block and a group on this GPU)"
                            : " (auto: chosen by N)"));
  if (step.options & kRowsAheadOption)
    cli.add_integer_choice("rows-ahead", 3, {1, 2, 3, 4},
                           "the group and wide layouts: rows (groups of rows) whose parts a block posts before it "
                           "waits for the oldest's, 1 to 4");
  if (step.options & kStagesOption)
    cli.add_integer("stages", 0, "the group and wide layouts: rows (groups of rows) a block keeps in shared memory, "
                                 "one applied, those posted ahead, the rest in flight (0: rows ahead + 3)", 0, kMaxStages);
  if (step.options & kPrefetchOption)
    cli.add_choice("prefetch", "auto", names_of(kPrefetch),
                   "step 07's warp and block layouts: on keeps the next row's loads in flight while a row is worked "
                   "on, off loads each row when it is needed (auto: on for warps, off for blocks)",
                   "on|off");
  if (step.options & kWarpE32Option)
    cli.add_choice("warp-e32", "lines", names_of(kWarpE32Ways),
                   "step 07's warp layout on rows of 513 to 1024 columns: read by whole lines with v and C in shared "
                   "memory (lines), from each row's first element (first-element), or that with v and C in registers, "
                   "one block per SM (registers)",
                   "WAY");
  if (step.options & kBlockThreadsOption)
    cli.add_integer_choice("block-threads", 0, {512, 1024}, "step 07's block layout: threads per block, 512 or 1024 "
                                                            "(0: 512 up to 8192 columns, else 1024)");
  if (step.options & kProcessesOption) {
    cli.add_integer("gpus", 0, "processes to start, one per GPU (default: every GPU of the machine)", 1, 4096);
    cli.add_text("nccl-id", "", "under Slurm's srun: a file every task sees, where rank 0 hands NCCL's id to the "
                                "others of its srun (and removes it once they have read it)", "FILE");
  }
  if (step.options & kGpusOption) {
    cli.add_integer("gpus", 0, "GPUs to share A's rows (default: every GPU of the machine)", 1, 4096);
    cli.add_flag("scaling", "print the table of 1, 2, 4, ... GPUs (as many as the machine has) instead of one run");
  }
  if (step.options & kNoBulkCopyOption)
    cli.add_flag("no-bulk-copy", "the group and wide layouts: every thread copies its own values of a row, where "
                                 "the bulk copy engine would copy the block's whole run");
}

void Lesson::read(const course::CommandLine& cli, const Step& step, Request& request) {
  request.rows = cli.size("m");
  request.columns = cli.size("n");
  if (course::runs_on_gpu(step)) {
    request.requested.threads = static_cast<int>(cli.integer("threads"));
    request.requested.blocks = static_cast<int>(cli.integer("blocks"));
  }
  if (step.options & kIdeasApartOptions) {
    request.requested.rows_at_a_time = static_cast<int>(cli.integer("rows"));
    request.requested.scalar_loads = cli.flag("scalar-loads");
  }
  if (step.options & kSharedVectorOption) request.requested.shared_vector = !cli.flag("no-shared-vector");
  if (step.options & kWholeRowsOption) request.requested.whole_rows = cli.flag("whole-rows");
  if (step.options & kNoBulkCopyOption) request.requested.no_bulk_copy = cli.flag("no-bulk-copy");
  if (step.options & kProcessesOption) {
    request.gpus = cli.integer("gpus");
    request.nccl_id = cli.text("nccl-id");
    const course::Rank me = course::this_rank();  // refused here, before the GPU is looked for
    if (me.ranks > 1 && me.shared.empty() && request.nccl_id.empty())
      throw course::UsageError("started by " + me.launcher + ": --nccl-id FILE must name a file every process sees");
  }
  if (step.options & kGpusOption) {
    request.gpus = cli.integer("gpus");
    request.scaling = cli.flag("scaling");
    if (request.scaling && cli.given("gpus")) throw course::UsageError("--scaling runs every number of GPUs: leave out --gpus");
  }
  if (step.options & kPrefetchOption) request.requested.prefetch_request = kPrefetch[cli.choice("prefetch")].first;
  if (step.options & kWarpE32Option) request.requested.warp_e32 = kWarpE32Ways[cli.choice("warp-e32")].first;
  if (step.options & kBlockThreadsOption) request.requested.block_threads = static_cast<int>(cli.integer("block-threads"));
  if (step.options & kRowsAheadOption) request.requested.rows_ahead = static_cast<int>(cli.integer("rows-ahead"));
  if (step.options & kStagesOption) {
    request.requested.stages = static_cast<int>(cli.integer("stages"));
    require_stages_hold(request.requested);
  }
  if (step.options & kLayoutOption) {
    const RowLayout layout = kLayoutNames[cli.choice("layout")].first;
    require_step_has_layout(layout, step);
    request.requested.layout = layout;
    if (request.common.input.empty()) {  // else: plan()
      require_layout_holds(layout, request.columns);
      require_layout_options_apply(request.requested, request.columns);
    }
  }
}

course::Measurement Lesson::describe(const Step& step, const Request& request) {
  const std::size_t m = request.rows, n = request.columns;
  course::Measurement r = course::step_measurement(kNumber, step);
  r.size = std::to_string(m) + "x" + std::to_string(n);
  // The bytes the step needs: A read once or twice, v read and C written once.
  r.bytes = static_cast<double>(step.matrix_reads) * m * n * sizeof(float) + 2.0 * n * sizeof(float);
  r.operations = 2.0 * m * n;  // each element of A in one multiply-add of A v and one of A^T B
  r.operation = "multiply-add";
  r.rate_unit = "GB/s";
  return r;
}

Problem load_problem(const Request& request) {
  if (!request.common.input.empty()) return read_problem(request.common.input);
  require_fits_in_file(request.rows, request.columns);
  return make_problem(request.rows, request.columns, request.common.seed);
}

namespace {

// The verdict (within tolerance() of the double-precision reference), the report, and C to --output.
int finish(const course::Measurement& m, const Problem& p, const std::vector<float>& c, const Request& request) {
  const std::vector<double> expected = reference(p);
  const course::Verdict v = course::compare_close(c.data(), expected.data(), p.columns, tolerance(p, expected));
  return course::finish_step(m, v.pass, v.describe(), request,
                             [&](const std::string& path) { course::write_single_vector(path, c); });
}

// What a step chose by size, for the text report: steps 07 to 11's layout and grid (or their two
// passes), and the pieces A v cuts rows into where they are few (steps 05, 06 and the two passes).
std::string describe_launch(const Step& step, const LaunchPlan& plan, std::size_t columns) {
  std::string text;
  if (plan.layout != RowLayout::kAuto) {
    text = layout_name(plan.layout) + " layout, " + std::to_string(plan.blocks) + " blocks of " +
           std::to_string(plan.threads) + " threads";
    const std::size_t group = (columns + kGroupBlockColumns - 1) / kGroupBlockColumns;
    if (plan.layout == RowLayout::kGroup) text += " in groups of " + std::to_string(group) + ", launched cooperatively";
    if (plan.layout == RowLayout::kCluster) text += " in clusters of " + std::to_string(group);
    if ((plan.layout == RowLayout::kGroup || plan.layout == RowLayout::kCluster || plan.layout == RowLayout::kWide) &&
        plan.stages > 0)
      text += ", " + std::to_string(plan.rows_ahead) + " rows ahead in " + std::to_string(plan.stages) + " stages";
    if (plan.layout_choice == LayoutChoice::kProbed)
      text += plan.layout == RowLayout::kBlock
                  ? ", faster than groups of " + std::to_string(group) + " blocks in a probe of both on this GPU"
                  : ", faster than a block per row in a probe of both on this GPU";
    if (plan.layout_choice == LayoutChoice::kUnprobed)
      text += ", not timed against groups of blocks: the matrix is under twice the L2 cache";
    if (plan.finish_in_launch) text += ", C added up in the same launch after a grid barrier";
    if (plan.layout == RowLayout::kWarp || plan.layout == RowLayout::kBlock)
      text += plan.prefetch ? ", the next row's loads in flight" : ", each row loaded when it is needed";
    if (plan.layout == RowLayout::kWarp && plan.warp_e32 != 0)
      text += plan.warp_e32 == 1 ? ", rows read from their first element" : ", rows read from their first element, v and C "
                                                                             "in registers";
  } else if (step.options & kWideLayoutOption) {
    text = "two passes, as step 06 (the wide layout cannot run these rows on this GPU)";
  } else if (step.options & kGroupLayoutsOption) {
    text = columns > kGroupRowColumns ? "two passes, as step 06 (rows longer than a group of blocks holds: step 10 "
                                        "shares them among all blocks)"
                                      : "two passes, as step 06 (no group of blocks runs on this GPU)";
  } else if (step.options & kLayoutOption) {
    text = "two passes, as step 06 (rows longer than a block holds: step 08 shares them among blocks)";
  }
  if (plan.row_pieces > 1)
    text += (text.empty() ? "" : "; ") + std::string("A v cuts each row into ") + std::to_string(plan.row_pieces) +
            " pieces";
  return text;
}

}  // namespace

int report_gpu(course::Measurement m, const Problem& p, const std::vector<float>& c, const Request& request,
               int gpus) {
  const course::DeviceFacts device = course::query_device();
  m.device = gpus > 1 ? std::to_string(gpus) + " x " + device.name : device.name;
  // The products read A and write only C: their ceiling is the read-only stream (of every GPU at work).
  course::set_bandwidth_ceiling(m, request.common, course::Bandwidth::kRead);
  m.ceiling *= gpus;
  if (gpus > 1) m.ceiling_name = "read bandwidth of " + std::to_string(gpus) + " GPUs";
  m.compute_ceiling = gpus * device.fp32_instruction_rate_gops();  // one multiply-add per lane per clock
  return finish(m, p, c, request);
}

int Lesson::run(const Step& step, Request& request) {
  const Problem p = load_problem(request);
  request.rows = p.rows;
  request.columns = p.columns;
  course::Measurement m = describe(step, request);
  std::vector<float> c(p.columns);
  if (!course::runs_on_gpu(step)) {
    course::time_cpu_step(m, request, step.all_cores ? course::cpu_threads() : 1,
                          [&] { step.run_cpu(p.a.data(), p.v.data(), c.data(), p.rows, p.columns); },
                          [&] { std::fill(c.begin(), c.end(), NAN); });
    return finish(m, p, c, request);
  }
  course::require_cuda_device();
  const LaunchPlan plan = step.plan(p.rows, p.columns, course::query_device(), request.requested);
  m.launch = describe_launch(step, plan, p.columns);
  course::DeviceBuffer<float> d_a(p.a.size(), "matrix A"), d_v(p.columns, "vector v"), d_c(p.columns, "vector C");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  d_a.upload(p.a);
  d_v.upload(p.v);
  course::time_gpu_step(
      m, request,
      [&](cudaStream_t s) {
        step.run_gpu(d_a.data(), d_v.data(), d_c.data(), p.rows, p.columns, plan, scratch.data(), s);
      },
      [&](cudaStream_t s) { d_c.poison(s); });
  d_c.download(c.data(), p.columns);  // the last timed run's answer
  return report_gpu(m, p, c, request);
}

std::vector<float> run_gpu_once(const Step& step, const Problem& p, const LaunchPlan& requested) {
  const course::DeviceFacts device = course::query_device();
  const LaunchPlan plan = step.plan(p.rows, p.columns, device, requested);
  course::DeviceBuffer<float> a(p.a.size(), "matrix A"), v(p.columns, "vector v"), c(p.columns, "vector C");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  a.upload(p.a);
  v.upload(p.v);
  c.poison();
  step.run_gpu(a.data(), v.data(), c.data(), p.rows, p.columns, plan, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return c.to_host();
}

}  // namespace matvec
