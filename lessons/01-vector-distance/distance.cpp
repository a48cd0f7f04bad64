// Lesson 01, pairwise vector distance: what the lesson's step programs share. The course's step
// skeleton (course/step_program.h) parses the command line; the lesson makes or reads the problem,
// computes the reference, runs the step (timed, with C poisoned before every run), checks C (exactly
// for int32, within the stated tolerance for float32) and reports.
#include "distance.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "course/binary_file.h"
#include "course/buffers.h"
#include "course/data.h"
#include "course/errors.h"

namespace distance {

namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
// Where B's values come from: a stream of the same seed unrelated to A's.
constexpr std::uint64_t kSecondStream = 0x9E3779B97F4A7C15ull;

std::string dims(std::size_t rows, std::size_t columns) {
  return std::to_string(rows) + " x " + std::to_string(columns);
}

}  // namespace

std::int64_t int_value_width(std::size_t n) {
  const std::int64_t most = kInt32Max / static_cast<std::int64_t>(std::min<std::size_t>(n, kInt32Max + 1ull));
  std::int64_t width = static_cast<std::int64_t>(std::sqrt(static_cast<double>(most)));
  while (width * width > most) --width;
  while ((width + 1) * (width + 1) <= most) ++width;
  return std::min<std::int64_t>(width, 2000);
}

template <>
Problem<float> make_problem<float>(std::size_t m, std::size_t k, std::size_t n, std::uint64_t seed, double offset) {
  Problem<float> p;
  p.m = m;
  p.k = k;
  p.n = n;
  const float low = static_cast<float>(offset - 1.0), high = static_cast<float>(offset + 1.0);
  p.a = course::uniform_floats(m * n, low, high, seed);
  p.b = course::uniform_floats(k * n, low, high, seed + kSecondStream);
  return p;
}

template <>
Problem<std::int32_t> make_problem<std::int32_t>(std::size_t m, std::size_t k, std::size_t n, std::uint64_t seed,
                                                 double offset) {
  const std::int64_t width = int_value_width(n);
  if (width < 1)
    throw course::UsageError("int32 vectors of " + std::to_string(n) +
                             " elements: no range of values keeps every distance within int32");
  const std::int64_t low = static_cast<std::int64_t>(std::llround(offset)) - width / 2;
  Problem<std::int32_t> p;
  p.m = m;
  p.k = k;
  p.n = n;
  auto draw = [&](std::size_t count, std::uint64_t s) {
    const std::vector<std::int64_t> wide = course::uniform_integers(count, low, low + width, s);
    return std::vector<std::int32_t>(wide.begin(), wide.end());
  };
  p.a = draw(m * n, seed);
  p.b = draw(k * n, seed + kSecondStream);
  return p;
}

template <class T>
void write_problem(const std::string& path, const Problem<T>& p) {
  course::BinaryWriter out(path);
  out.write(p.a.data(), p.m, p.n);
  out.write(p.b.data(), p.k, p.n);
  out.close();
}

template <class T>
void validate_values(const Problem<T>& p, const std::string& source) {
  if (p.a.empty() || p.b.empty()) return;
  const auto [a_low, a_high] = std::minmax_element(p.a.begin(), p.a.end());
  const auto [b_low, b_high] = std::minmax_element(p.b.begin(), p.b.end());
  const T low = std::min(*a_low, *b_low), high = std::max(*a_high, *b_high);
  if constexpr (std::is_floating_point<T>::value) {
    for (const std::vector<T>* values : {&p.a, &p.b})
      for (std::size_t i = 0; i < values->size(); ++i)
        if (!std::isfinite((*values)[i]))
          throw course::UsageError(source + ": " + (values == &p.a ? "A" : "B") +
                                   " holds a value that is not finite, at [" + std::to_string(i / p.n) + "][" +
                                   std::to_string(i % p.n) + "]");
    const double span = static_cast<double>(high) - static_cast<double>(low);
    if (static_cast<double>(p.n) * span * span > FLT_MAX)
      throw course::UsageError(source + ": values span [" + std::to_string(low) + ", " + std::to_string(high) +
                               "]: with N = " + std::to_string(p.n) + " a distance could overflow float32");
  } else {
    // N x (max - min)^2 <= 2^31 - 1, computed without overflow: a span above 46340 already fails.
    const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(high) - low);
    if (span > 46340 || static_cast<std::uint64_t>(p.n) * span * span > static_cast<std::uint64_t>(kInt32Max))
      throw course::UsageError(source + ": values span [" + std::to_string(low) + ", " + std::to_string(high) +
                               "]: with N = " + std::to_string(p.n) +
                               " a distance could overflow int32 (N x (max - min)^2 must be at most 2147483647)");
  }
}

template <class T>
Problem<T> read_problem(const std::string& path) {
  course::BinaryReader in(path);
  course::Array<T> a = in.read<T>();
  course::Array<T> b = in.read<T>();
  in.expect_end();
  if (a.columns != b.columns)
    throw course::UsageError(path + ": A is " + dims(a.rows, a.columns) + " and B is " + dims(b.rows, b.columns) +
                             ": their rows must have the same number of elements");
  Problem<T> p;
  p.m = a.rows;
  p.k = b.rows;
  p.n = a.columns;
  p.a = std::move(a.values);
  p.b = std::move(b.values);
  validate_values(p, path);
  return p;
}

namespace {

// C in the precision Acc (double for float32 input, 64-bit integers for int32), every term exact or
// nearly so. B is transposed first, so that the innermost loop runs along a row of C with independent
// sums (which the compiler can vectorize), and the work goes in blocks of 8 rows x 256 columns whose
// sums (16 KB) are meant to stay in the L1 cache.
template <class Acc, class T>
std::vector<Acc> exact_distances(const Problem<T>& p) {
  const std::size_t m = p.m, k = p.k, n = p.n;
  std::vector<Acc> bt(n * k);
  const long long columns = static_cast<long long>(k);
#pragma omp parallel for schedule(static)
  for (long long jj = 0; jj < columns; ++jj) {
    const std::size_t j = static_cast<std::size_t>(jj);
    for (std::size_t x = 0; x < n; ++x) bt[x * k + j] = static_cast<Acc>(p.b[j * n + x]);
  }
  constexpr std::size_t kRows = 8, kColumns = 256;
  const std::size_t row_blocks = (m + kRows - 1) / kRows, column_blocks = (k + kColumns - 1) / kColumns;
  std::vector<Acc> c(m * k);
  const long long blocks = static_cast<long long>(row_blocks * column_blocks);
#pragma omp parallel for schedule(dynamic)
  for (long long block = 0; block < blocks; ++block) {
    const std::size_t i0 = static_cast<std::size_t>(block) / column_blocks * kRows;
    const std::size_t j0 = static_cast<std::size_t>(block) % column_blocks * kColumns;
    const std::size_t rows = std::min(kRows, m - i0), cols = std::min(kColumns, k - j0);
    Acc sums[kRows][kColumns] = {};
    for (std::size_t x = 0; x < n; ++x) {
      const Acc* b_x = bt.data() + x * k + j0;
      for (std::size_t r = 0; r < rows; ++r) {
        const Acc a_ix = static_cast<Acc>(p.a[(i0 + r) * n + x]);
        Acc* sum = sums[r];
        for (std::size_t q = 0; q < cols; ++q) {
          const Acc d = a_ix - b_x[q];
          sum[q] += d * d;
        }
      }
    }
    for (std::size_t r = 0; r < rows; ++r)
      std::copy(sums[r], sums[r] + cols, c.begin() + static_cast<std::ptrdiff_t>((i0 + r) * k + j0));
  }
  return c;
}

// Squared norms of the rows of an R x N matrix, in double.
std::vector<double> squared_norms(const std::vector<float>& x, std::size_t rows, std::size_t n) {
  std::vector<double> norms(rows);
  const long long count = static_cast<long long>(rows);
#pragma omp parallel for schedule(static)
  for (long long r = 0; r < count; ++r) {
    double sum = 0;
    const float* row = x.data() + static_cast<std::size_t>(r) * n;
    for (std::size_t e = 0; e < n; ++e) sum += static_cast<double>(row[e]) * row[e];
    norms[static_cast<std::size_t>(r)] = sum;
  }
  return norms;
}

}  // namespace

std::vector<double> reference(const Problem<float>& p) { return exact_distances<double>(p); }

std::vector<std::int32_t> reference(const Problem<std::int32_t>& p) {
  const std::vector<std::int64_t> wide = exact_distances<std::int64_t>(p);
  std::vector<std::int32_t> c(wide.size());
  for (std::size_t i = 0; i < wide.size(); ++i) {
    if (wide[i] > kInt32Max) throw course::UsageError("a distance exceeds int32: the values were not validated");
    c[i] = static_cast<std::int32_t>(wide[i]);
  }
  return c;
}

course::Verdict check(const Problem<float>& p, const std::vector<float>& c, const std::vector<double>& expected,
                      Form form) {
  const double u = std::ldexp(1.0, -24), root_n = std::sqrt(static_cast<double>(p.n));
  const double floor = static_cast<double>(p.n) * std::ldexp(1.0, -126);
  std::vector<double> norms_a, norms_b;
  const bool expansion = form == Form::NormExpansion || form == Form::NormExpansionTf32;
  // The TF32 inputs' share of the bound (distance.h): 3 u_t (|a|^2 + |b|^2).
  const double tf32_share = form == Form::NormExpansionTf32 ? 3.0 * std::ldexp(1.0, -11) : 0.0;
  if (expansion) {
    norms_a = squared_norms(p.a, p.m, p.n);
    norms_b = squared_norms(p.b, p.k, p.n);
  }
  course::Verdict v;
  v.checked = c.size();
  for (std::size_t e = 0; e < c.size(); ++e) {
    double allowed = 4.0 * u * root_n * expected[e] + floor;
    if (expansion)
      allowed += (4.0 * u * (root_n + 2.0) + tf32_share) * (norms_a[e / p.k] + norms_b[e % p.k]);
    v.add(e, c[e], expected[e], allowed);
  }
  return v;
}

course::Verdict check(const Problem<std::int32_t>&, const std::vector<std::int32_t>& c,
                      const std::vector<std::int32_t>& expected, Form) {
  return course::compare_exact(c.data(), expected.data(), c.size());
}

double max_relative_error(const std::vector<float>& c, const std::vector<double>& expected) {
  double worst = 0;
  for (std::size_t e = 0; e < c.size(); ++e) {
    const double error = std::fabs(static_cast<double>(c[e]) - expected[e]);
    if (std::isnan(error)) return INFINITY;
    if (error == 0) continue;
    worst = std::max(worst, expected[e] > 0 ? error / expected[e] : INFINITY);
  }
  return worst;
}

std::string format_error(double error) {
  if (error == 0) return "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", error);
  return text;
}

double issue_ceiling(const course::DeviceFacts& device, Type type) {
  if (type == Type::Int32) return device.peak_int32_gops();
  return static_cast<double>(device.fp32_lanes_per_sm()) * device.multiprocessors * device.sm_clock_ghz;
}

const char* issue_ceiling_name(Type type) {
  return type == Type::Int32 ? "integer issue rate (1 instruction per term)"
                             : "FP32 issue rate (1 instruction per term)";
}

double tensor_ceiling(const course::DeviceFacts& device, int products) {
  return device.tf32_tensor_rate_gops() / products;
}

std::string tensor_ceiling_name(int products) {
  return products == 1 ? "TF32 tensor-core rate (1 product per term)"
                       : "TF32 tensor-core rate (" + std::to_string(products) + " products per term)";
}

double parse_offset(const std::string& text, Type type) {
  const double offset = course::parse_number(text, "offset");
  if (offset > 1e6) throw course::UsageError("--offset: " + text + " is too large (at most 1000000)");
  if (type == Type::Int32 && offset != std::floor(offset))
    throw course::UsageError("--offset: int32 values need a whole offset, not " + text);
  return offset;
}

namespace {

// The element type stored in a course file, from its first header.
Type type_of_file(const std::string& path) {
  course::BinaryReader in(path);
  const course::ArrayHeader h = in.read_header();
  if (h.type == course::ElementType::Float32) return Type::Float32;
  if (h.type == course::ElementType::Int32) return Type::Int32;
  throw course::UsageError(path + ": holds " + course::element_type_name(h.type) +
                           "; the lesson reads float32 or int32 matrices");
}

const std::string& type_name(Type type) { return kTypeNames[static_cast<std::size_t>(type)]; }

}  // namespace

void Lesson::declare(course::CommandLine& cli, const Step& step) {
  const std::size_t most = 4294967295ull;  // the course's files hold dimensions below 2^32
  cli.add_size("m", step.default_size, "rows of A (vectors on the left), rows of C", 1, most);
  cli.add_size("k", step.default_size, "rows of B (vectors on the right), columns of C", 1, most);
  cli.add_size("n", step.default_size, "elements of every vector", 1, most);
  cli.add_choice("type", "float32", kTypeNames,
                 "float32: values uniform in (offset - 1, offset + 1); int32: whole numbers in a range of width "
                 "min(2000, sqrt((2^31 - 1) / N)) around the offset, so that no distance can overflow",
                 "TYPE");
  cli.add_text("offset", "0", "centre of the seeded values (at most 1000000): a large offset puts the vectors far "
                              "from the origin and close to each other, where the norm expansion loses accuracy",
               "X");
  if (step.takes_scalar_loads)
    cli.add_flag("scalar-loads", "4-byte global loads and stores even where 16-byte ones would do");
}

void Lesson::read(const course::CommandLine& cli, const Step& step, Request& request) {
  request.scalar_loads = step.takes_scalar_loads && cli.flag("scalar-loads");
  request.type = static_cast<Type>(cli.choice("type"));
  request.offset = parse_offset(cli.text("offset"), request.type);
  if (!request.common.input.empty()) {
    const Type in_file = type_of_file(request.common.input);
    if (cli.given("type") && in_file != request.type)
      throw course::UsageError(request.common.input + ": holds " + type_name(in_file) + ", not the " +
                               type_name(request.type) + " that --type asks for");
    request.type = in_file;
    return;
  }
  request.m = cli.size("m");
  request.k = cli.size("k");
  request.n = cli.size("n");
  if (request.type == Type::Int32 && int_value_width(request.n) < 1)
    throw course::UsageError("--n " + std::to_string(request.n) + ": int32 vectors that long could overflow int32");
}

template <class T>
Problem<T> load_problem(Request& request) {
  Problem<T> p = request.common.input.empty()
                     ? make_problem<T>(request.m, request.k, request.n, request.common.seed, request.offset)
                     : read_problem<T>(request.common.input);
  request.m = p.m;
  request.k = p.k;
  request.n = p.n;
  return p;
}

course::Measurement Lesson::describe(const Step& step, const Request& request) {
  course::Measurement r = course::step_measurement(kNumber, step);
  r.size = std::to_string(request.m) + "x" + std::to_string(request.k) + "x" + std::to_string(request.n);
  if (request.type == Type::Int32) r.size += " int32";
  r.operations = static_cast<double>(request.m) * request.k * request.n;  // one term per (i, j, x)
  r.operation = "term";
  // The least traffic: A and B read once, C written once (4-byte elements either way).
  r.bytes = 4.0 * (static_cast<double>(request.m) * request.n + static_cast<double>(request.k) * request.n +
                   static_cast<double>(request.m) * request.k);
  r.rate_unit = "G terms/s";
  return r;
}

template <class T>
int finish(course::Measurement m, const Step& step, const Problem<T>& p, const std::vector<T>& c,
           const Request& request) {
  if (course::runs_on_gpu(step)) {
    const course::DeviceFacts device = course::query_device();
    m.device = device.name;
    if (step.tf32_products > 0) {
      m.ceiling = m.compute_ceiling = tensor_ceiling(device, step.tf32_products);
      m.ceiling_name = tensor_ceiling_name(step.tf32_products);
    } else {
      m.ceiling = m.compute_ceiling = issue_ceiling(device, request.type);
      m.ceiling_name = issue_ceiling_name(request.type);
    }
  }
  const auto expected = reference(p);
  const course::Verdict v = check(p, c, expected, step.form);
  std::string detail = v.describe(p.k);
  if constexpr (std::is_floating_point<T>::value)
    detail += "; largest relative error " + format_error(max_relative_error(c, expected));
  return course::finish_step(m, v.pass, detail, request, [&](const std::string& path) {
    course::BinaryWriter out(path);
    out.write(c.data(), p.m, p.k);
    out.close();
  });
}

namespace {

// The step's functions for element type T.
template <class T>
void (*cpu_function(const Step& step))(const T*, const T*, T*, std::size_t, std::size_t, std::size_t) {
  if constexpr (std::is_same<T, float>::value) return step.cpu_float;
  else return step.cpu_int;
}

template <class T>
void (*gpu_function(const Step& step))(const T*, const T*, T*, std::size_t, std::size_t, std::size_t,
                                       const LaunchPlan&, void*, cudaStream_t) {
  if constexpr (std::is_same<T, float>::value) return step.gpu_float;
  else return step.gpu_int;
}

// Lesson::run for element type T.
template <class T>
int run_step(const Step& step, Request& request) {
  const Problem<T> p = load_problem<T>(request);
  course::Measurement m = Lesson::describe(step, request);
  std::vector<T> c(p.m * p.k);

  if (!course::runs_on_gpu(step)) {
    const auto run = cpu_function<T>(step);
    course::time_cpu_step(m, request, step.cpu_threads != nullptr ? step.cpu_threads() : 1,
                          [&] { run(p.a.data(), p.b.data(), c.data(), p.m, p.k, p.n); },
                          [&] { std::fill(c.begin(), c.end(), static_cast<T>(-1)); });
    return finish(m, step, p, c, request);
  }
  course::require_cuda_device();
  const auto run = gpu_function<T>(step);
  if (run == nullptr)
    throw course::UsageError(std::string("--type int32: step ") + step.number + " computes float32 only");
  LaunchPlan plan = step.plan(p.m, p.k, p.n, request.type, course::query_device());
  plan.scalar_loads = request.scalar_loads;
  course::ensure_device_memory((p.a.size() + p.b.size() + c.size()) * sizeof(T) + plan.scratch_bytes,
                               "A, B, C and the step's scratch");
  course::DeviceBuffer<T> d_a(p.a.size(), "matrix A"), d_b(p.b.size(), "matrix B"), d_c(c.size(), "matrix C");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  d_a.upload(p.a);
  d_b.upload(p.b);
  course::time_gpu_step(
      m, request,
      [&](cudaStream_t s) { run(d_a.data(), d_b.data(), d_c.data(), p.m, p.k, p.n, plan, scratch.data(), s); },
      [&](cudaStream_t s) { d_c.poison(s); });
  d_c.download(c.data(), c.size());  // the last timed run's answer
  return finish(m, step, p, c, request);
}

}  // namespace

int Lesson::run(const Step& step, Request& request) {
  if (request.type == Type::Int32) return run_step<std::int32_t>(step, request);
  return run_step<float>(step, request);
}

template <class T>
std::vector<T> run_gpu_once(const Step& step, const Problem<T>& p, bool scalar_loads) {
  const auto run = gpu_function<T>(step);
  if (run == nullptr) throw std::logic_error(std::string("step ") + step.number + " has no kernel for this type");
  const Type type = std::is_same<T, float>::value ? Type::Float32 : Type::Int32;
  LaunchPlan plan = step.plan(p.m, p.k, p.n, type, course::query_device());
  plan.scalar_loads = scalar_loads;
  course::DeviceBuffer<T> a(p.a.size(), "matrix A"), b(p.b.size(), "matrix B"), c(p.m * p.k, "matrix C");
  course::DeviceBuffer<unsigned char> scratch(plan.scratch_bytes, "scratch");
  a.upload(p.a);
  b.upload(p.b);
  c.poison();
  run(a.data(), b.data(), c.data(), p.m, p.k, p.n, plan, scratch.data(), nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return c.to_host();
}

void add_report_options(course::CommandLine& cli, std::size_t size) {
  cli.add_size("m", size, "rows of A", 1, 65536);
  cli.add_size("k", size, "rows of B", 1, 65536);
  cli.add_size("n", size, "elements of every vector", 1, 65536);
  cli.add_integer("seed", 1, "seed of the generator", 0, 1LL << 62);
}

ReportBuffers::ReportBuffers(std::size_t m, std::size_t k, std::size_t n) {
  course::ensure_device_memory((m * n + k * n + m * k + m + k) * sizeof(float), "A, B, C and the norms");
  a = course::DeviceBuffer<float>(m * n, "matrix A");
  b = course::DeviceBuffer<float>(k * n, "matrix B");
  c = course::DeviceBuffer<float>(m * k, "matrix C");
  norms = course::DeviceBuffer<unsigned char>((m + k) * sizeof(float), "row norms");
}

// The two element types the lesson computes with.
template Problem<float> read_problem<float>(const std::string&);
template Problem<std::int32_t> read_problem<std::int32_t>(const std::string&);
template void write_problem<float>(const std::string&, const Problem<float>&);
template void write_problem<std::int32_t>(const std::string&, const Problem<std::int32_t>&);
template void validate_values<float>(const Problem<float>&, const std::string&);
template void validate_values<std::int32_t>(const Problem<std::int32_t>&, const std::string&);
template Problem<float> load_problem<float>(Request&);
template Problem<std::int32_t> load_problem<std::int32_t>(Request&);
template int finish<float>(course::Measurement, const Step&, const Problem<float>&, const std::vector<float>&,
                           const Request&);
template int finish<std::int32_t>(course::Measurement, const Step&, const Problem<std::int32_t>&,
                                  const std::vector<std::int32_t>&, const Request&);
template std::vector<float> run_gpu_once<float>(const Step&, const Problem<float>&, bool);
template std::vector<std::int32_t> run_gpu_once<std::int32_t>(const Step&, const Problem<std::int32_t>&, bool);

}  // namespace distance
