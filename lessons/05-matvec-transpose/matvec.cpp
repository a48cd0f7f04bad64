// Lesson 05, C = A^T (A v): the plumbing every step program shares. It parses the command line, makes
// or reads the problem, computes the double-precision reference, runs the step (timed, with C
// poisoned before every run), checks C within the stated tolerance and prints the report.
#include "matvec.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"

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

std::vector<double> reference(const Problem& p) {
  const std::size_t m = p.rows, n = p.columns;
  std::vector<double> b(m), c(n, 0.0);
  const long long rows = static_cast<long long>(m);
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < rows; ++r) {
    const float* row = p.a.data() + static_cast<std::size_t>(r) * n;
    double sum = 0;
    for (std::size_t j = 0; j < n; ++j) sum += static_cast<double>(row[j]) * p.v[j];
    b[static_cast<std::size_t>(r)] = sum;
  }
  // C = A^T B, row by row (A is read in order); each thread sums a band of rows into its own C.
#pragma omp parallel
  {
    std::vector<double> mine(n, 0.0);
#pragma omp for schedule(static)
    for (long long r = 0; r < rows; ++r) {
      const float* row = p.a.data() + static_cast<std::size_t>(r) * n;
      const double b_r = b[static_cast<std::size_t>(r)];
      for (std::size_t j = 0; j < n; ++j) mine[j] += row[j] * b_r;
    }
#pragma omp critical
    for (std::size_t j = 0; j < n; ++j) c[j] += mine[j];
  }
  return c;
}

course::Tolerance sum_tolerance(std::size_t terms, const std::vector<double>& expected) {
  double largest = 0;
  for (double x : expected) largest = std::max(largest, std::fabs(x));
  course::Tolerance t;
  t.absolute = 4.0 * std::ldexp(1.0, -24) * std::sqrt(static_cast<double>(terms)) * largest;
  return t;
}

course::Tolerance tolerance(const Problem& p, const std::vector<double>& expected) {
  return sum_tolerance(p.rows + p.columns, expected);
}

namespace {

bool is_gpu(const Step& step) { return step.run_gpu != nullptr; }

int report(course::Measurement m, const Problem& p, const std::vector<float>& c, const course::CommonOptions& common) {
  const std::vector<double> expected = reference(p);
  const course::Verdict v = course::compare_close(c.data(), expected.data(), p.columns, tolerance(p, expected));
  m.verdict = v.pass ? "PASS" : "FAIL";
  m.detail = v.describe();
  course::print_measurement(std::cout, m, common.format);
  if (!common.output.empty()) course::write_single_vector(common.output, c);
  return v.pass ? course::kExitPass : course::kExitFail;
}

int run_cpu_step(const Step& step, const Problem& p, const course::CommonOptions& common) {
  course::Measurement m = describe(step, p.rows, p.columns);
  std::vector<float> c(p.columns);
  m.device = course::cpu_description(step.all_cores ? course::cpu_threads() : 1);
  m.time = course::time_cpu([&] { step.run_cpu(p.a.data(), p.v.data(), c.data(), p.rows, p.columns); },
                            common.timing, [&] { std::fill(c.begin(), c.end(), NAN); });
  return report(m, p, c, common);
}

std::string layout_name(RowLayout layout) {
  switch (layout) {
    case RowLayout::kWarp: return "warp";
    case RowLayout::kBlock: return "block";
    case RowLayout::kGroup: return "group";
    case RowLayout::kCluster: return "cluster";
    case RowLayout::kWide: return "wide";
    default: return "auto";
  }
}

// What a step chose by size, for the text report: step 07's layout and grid (or its two passes), and
// the pieces A v cuts rows into where they are few (steps 05, 06 and step 07's two passes).
std::string describe_launch(const Step& step, const LaunchPlan& plan, std::size_t columns) {
  std::string text;
  if (plan.layout != RowLayout::kAuto) {
    text = layout_name(plan.layout) + " layout, " + std::to_string(plan.blocks) + " blocks of " +
           std::to_string(plan.threads) + " threads";
    const std::size_t group = (columns + kGroupBlockColumns - 1) / kGroupBlockColumns;
    if (plan.layout == RowLayout::kGroup) text += " in groups of " + std::to_string(group) + ", launched cooperatively";
    if (plan.layout == RowLayout::kCluster) text += " in clusters of " + std::to_string(group);
  } else if (step.number == "07") {
    text = "two passes, as step 06 (the wide layout cannot run these rows on this GPU)";
  }
  if (plan.row_pieces > 1)
    text += (text.empty() ? "" : "; ") + std::string("A v cuts each row into ") + std::to_string(plan.row_pieces) +
            " pieces";
  return text;
}

int run_gpu_step(const Step& step, const Problem& p, const Options& options) {
  course::Measurement m = describe(step, p.rows, p.columns);
  const LaunchPlan plan = step.plan(p.rows, p.columns, course::query_device(), options.requested);
  m.launch = describe_launch(step, plan, p.columns);
  course::DeviceBuffer<float> d_a(p.a.size(), "matrix A"), d_v(p.columns, "vector v"), d_c(p.columns, "vector C");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  d_a.upload(p.a);
  d_v.upload(p.v);
  course::Stream stream;
  m.time = course::time_gpu(
      [&](cudaStream_t s) {
        step.run_gpu(d_a.data(), d_v.data(), d_c.data(), p.rows, p.columns, plan, scratch.data(), s);
      },
      options.common.timing, stream.get(), [&](cudaStream_t s) { d_c.poison(s); });
  std::vector<float> c(p.columns);
  d_c.download(c.data(), p.columns);
  return report_gpu(m, p, c, options);
}

}  // namespace

course::Measurement describe(const Step& step, std::size_t m, std::size_t n) {
  course::Measurement r;
  r.lesson = "05";
  r.step = step.number;
  r.title = step.title;
  r.kind = step.kind;
  r.size = std::to_string(m) + "x" + std::to_string(n);
  // The bytes the step needs: A read once or twice, v read and C written once.
  r.bytes = static_cast<double>(step.matrix_reads) * m * n * sizeof(float) + 2.0 * n * sizeof(float);
  r.operations = 2.0 * m * n;  // each element of A in one multiply-add of A v and one of A^T B
  r.operation = "multiply-add";
  r.rate_unit = "GB/s";
  return r;
}

Problem load_problem(const Options& options) {
  if (!options.common.input.empty()) return read_problem(options.common.input);
  if (static_cast<double>(options.rows) * options.columns > 4294967295.0)
    throw course::UsageError("--m x --n is more than 2^32 - 1 elements, beyond what the course's files hold");
  return make_problem(options.rows, options.columns, options.common.seed);
}

int report_gpu(course::Measurement m, const Problem& p, const std::vector<float>& c, const Options& options) {
  const course::DeviceFacts device = course::query_device();
  m.device = device.name;
  // The products read A and write only C: their ceiling is the read-only stream.
  m.ceiling = options.common.read_bandwidth_gbs > 0 ? options.common.read_bandwidth_gbs
                                                    : course::measure_read_bandwidth_gbs();
  m.ceiling_name = "read bandwidth";
  m.compute_ceiling = device.fp32_instruction_rate_gops();  // one multiply-add per lane per clock
  return report(m, p, c, options.common);
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

namespace {

RowLayout parse_layout(const std::string& name) {
  if (name == "auto") return RowLayout::kAuto;
  if (name == "warp") return RowLayout::kWarp;
  if (name == "block") return RowLayout::kBlock;
  if (name == "group") return RowLayout::kGroup;
  if (name == "cluster") return RowLayout::kCluster;
  if (name == "wide") return RowLayout::kWide;
  throw course::UsageError("--layout: " + name + " is not auto, warp, block, group, cluster or wide");
}

}  // namespace

bool parse_options(int argc, char** argv, const Step& step, Options& options) {
  options.program = course::program_name(argv[0]);
  course::CommandLine cli(options.program, std::string("Lesson 05, step ") + step.number + ": C = A^T (A v), " +
                                               step.title + ". A is M x N, v has N elements, both from (-1, 1).");
  cli.add_size("m", kDefaultRows, "rows of A", 1, 4294967295ull);
  cli.add_size("n", kDefaultColumns, "columns of A (and elements of v)", 1, 4294967295ull);
  cli.add_common_options(is_gpu(step) ? 20 : 3);
  if (is_gpu(step)) {
    cli.add_integer("threads", 0, "threads per block (0: the step's choice)", 0, 1024);
    cli.add_integer("blocks", 0, "blocks per grid for steps that choose it (0: the step's choice)", 0, 2147483647);
  }
  if (step.options & kIdeasApartOptions) {
    cli.add_integer("rows", 0, "rows at a time: 1 or 4 (0: the step's choice, 4)", 0, 4);
    cli.add_flag("scalar-loads", "4-byte loads even where 16-byte loads would do");
  }
  if (step.options & kSharedVectorOption)
    cli.add_flag("no-shared-vector", "read the vector from global memory, not through shared-memory tiles");
  if (step.options & kLayoutOption)
    cli.add_text("layout", "auto", "who holds a row: warp, block, group, cluster or wide (auto: chosen by N)", "NAME");
  if (step.all_cores) cli.add_cpu_threads_option();
  if (!cli.parse(argc, argv)) return false;
  if (step.all_cores) course::set_cpu_threads(static_cast<int>(cli.integer("cpu-threads")));
  options.common = cli.common();
  options.rows = cli.size("m");
  options.columns = cli.size("n");
  if (!options.common.input.empty() && (cli.given("m") || cli.given("n")))
    throw course::UsageError("--m/--n and --input cannot be combined (the file sets the size)");
  if (is_gpu(step)) {
    options.requested.threads = static_cast<int>(cli.integer("threads"));
    options.requested.blocks = static_cast<int>(cli.integer("blocks"));
  }
  if (step.options & kIdeasApartOptions) {
    const long long rows = cli.integer("rows");
    if (rows != 0 && rows != 1 && rows != 4) throw course::UsageError("--rows: " + std::to_string(rows) + " is not 1 or 4");
    options.requested.rows_at_a_time = static_cast<int>(rows);
    options.requested.scalar_loads = cli.flag("scalar-loads");
  }
  if (step.options & kSharedVectorOption) options.requested.shared_vector = !cli.flag("no-shared-vector");
  if (step.options & kLayoutOption) {
    options.requested.layout = parse_layout(cli.text("layout"));
    if (options.common.input.empty()) require_layout_holds(options.requested.layout, options.columns);  // else: plan()
  }
  return true;
}

int step_main(int argc, char** argv, const Step& step) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&]() -> int {
    Options options;
    if (!parse_options(argc, argv, step, options)) return course::kExitPass;  // --help
    std::string why;
    // Without a GPU, skip before making the problem (an --input file is still read, so it is still checked).
    if (is_gpu(step) && options.common.input.empty() && !course::cuda_device_available(&why))
      return course::report_skipped(program, describe(step, options.rows, options.columns), why,
                                    options.common.format);
    const Problem p = load_problem(options);
    if (!is_gpu(step)) return run_cpu_step(step, p, options.common);
    if (!course::cuda_device_available(&why))
      return course::report_skipped(program, describe(step, p.rows, p.columns), why, options.common.format);
    return run_gpu_step(step, p, options);
  });
}

}  // namespace matvec
