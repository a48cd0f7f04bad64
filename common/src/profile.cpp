#include "course/profile.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ostream>

#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/process.h"
#include "course/text_table.h"
#include "json_writer.h"

namespace course {

namespace {

const char* const kStallPrefix = "smsp__average_warps_issue_stalled_";
const char* const kStallSuffix = "_per_issue_active.ratio";

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// "2,621,606.40" -> 2621606.4; false for anything that is not a plain number.
bool to_number(const std::string& text, double& value) {
  std::string digits;
  for (char c : text)
    if (c != ',') digits += c;
  if (digits.empty()) return false;
  char* end = nullptr;
  value = std::strtod(digits.c_str(), &end);
  return end != nullptr && *end == '\0';
}

double metric(const KernelSummary& k, const std::string& name, bool& found) {
  auto it = k.metrics.find(name);
  if (it == k.metrics.end()) {
    found = false;
    return 0;
  }
  return it->second;
}

}  // namespace

const std::vector<Counter>& counters() {
  static const std::vector<Counter> all{
      {"time_us", "time us", {"gpu__time_duration.sum"},
       "the kernel's time while profiled, in microseconds (the profiler runs the GPU at its base clock, so "
       "times are longer than in the ladder)"},
      {"dram_pct", "DRAM %", {"dram__throughput.avg.pct_of_peak_sustained_elapsed"},
       "device-memory throughput as a share of its peak: a memory-bound kernel near 90% is done"},
      {"dram_mb", "DRAM MB", {"dram__bytes_read.sum", "dram__bytes_write.sum"},
       "megabytes read from and written to device memory: set beside the bytes the problem must move, it "
       "shows data read twice, or served by the L2 cache instead"},
      {"l2_hit", "L2 hit %", {"lts__t_sector_hit_rate.pct"},
       "share of the L2 cache's sector requests it served itself, without device memory"},
      {"sectors_per_load", "sectors/load",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"},
       "32-byte sectors per warp-wide global load instruction: 4 when the 32 threads read 32 neighbouring "
       "floats (coalesced), 16 for neighbouring 16-byte loads, up to 32 when each thread needs a sector of "
       "its own"},
      {"sectors_per_store", "sectors/store",
       {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"},
       "the same for global stores"},
      {"smem_ld_conflicts", "smem ld conflicts", {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"},
       "shared-memory bank conflicts on loads: the extra passes needed when threads of a warp ask one of the "
       "32 banks for different words"},
      {"smem_st_conflicts", "smem st conflicts", {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"},
       "the same for shared-memory stores"},
      {"smem_ld_passes", "passes/smem load",
       {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "smsp__sass_inst_executed_op_shared_ld.sum"},
       "passes (wavefronts) per warp-wide shared-memory load: 1 without conflicts for 4-byte loads (4 for "
       "16-byte loads), n for an n-way conflict"},
      {"occupancy", "occupancy %", {"sm__warps_active.avg.pct_of_peak_sustained_active"},
       "achieved occupancy: the warps resident on an SM as a share of the most it can hold"},
      {"registers", "regs", {"launch__registers_per_thread"},
       "registers per thread; more registers leave room for fewer warps"},
      {"fma_pipe", "FMA pipe %", {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"},
       "share of cycles the FP32 multiply-add pipe was busy: the arithmetic ceiling of a floating-point kernel"},
      {"alu_pipe", "ALU pipe %", {"sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"},
       "share of the integer and logic pipe's issue slots used: the ceiling of integer add-min work"},
      {"sm_busy", "SM busy %", {"sm__throughput.avg.pct_of_peak_sustained_elapsed"},
       "the busiest unit of the SMs as a share of its peak throughput"},
      {"inst_per_element", "inst/element", {"smsp__thread_inst_executed.sum"},
       "instructions executed by all threads, per element of the problem: the work the code spends on each"},
      {"top_stall", "top stall", {std::string("regex:") + kStallPrefix + ".*_per_issue_active\\.ratio"},
       "why warps most often waited instead of issuing, and how many warps waited for it per issued "
       "instruction: long_scoreboard = a global-memory load, short_scoreboard = shared memory or a special "
       "function, barrier = __syncthreads, membar = a memory fence, wait = a fixed-latency dependency, "
       "math_pipe_throttle = an arithmetic pipe is full, lg_throttle and mio_throttle = the memory "
       "instruction queues are full, not_selected = ready but another warp issued (plenty of work)"},
  };
  return all;
}

const Counter& counter(const std::string& key) {
  for (const Counter& c : counters())
    if (c.key == key) return c;
  std::string known;
  for (const Counter& c : counters()) known += (known.empty() ? "" : ", ") + c.key;
  throw UsageError("unknown counter '" + key + "' (known: " + known + ")");
}

std::string ncu_metric_list(const std::vector<std::string>& keys) {
  std::vector<std::string> metrics{"gpu__time_duration.sum"};  // always: it weights the averages
  for (const std::string& key : keys)
    for (const std::string& m : counter(key).metrics)
      if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  std::string list;
  for (const std::string& m : metrics) list += (list.empty() ? "" : ",") + m;
  return list;
}

std::vector<KernelLaunch> parse_ncu_raw_csv(const std::string& text) {
  const std::vector<std::string> lines = lines_of(text);
  auto line = lines.begin();
  while (line != lines.end() && !starts_with(*line, "\"ID\",")) ++line;
  if (line == lines.end())
    throw UsageError("no Nsight Compute CSV header (a line starting \"ID\") in the profiler's output");
  const std::vector<std::string> header = fields_of(*line);
  const auto kernel_column = std::find(header.begin(), header.end(), "Kernel Name") - header.begin();
  std::vector<KernelLaunch> launches;
  for (++line; line != lines.end(); ++line) {
    if (line->empty() || (*line)[0] != '"') continue;  // the program's own output, interleaved
    std::vector<std::string> fields = fields_of(*line);
    if (fields.size() != header.size() || fields[0].empty()) continue;  // the units line, or a stray line
    KernelLaunch k;
    if (kernel_column < static_cast<long>(fields.size())) k.kernel = fields[kernel_column];
    for (std::size_t i = 0; i < fields.size(); ++i) {
      double value = 0;
      if (header[i].find("__") != std::string::npos && to_number(fields[i], value)) k.metrics[header[i]] = value;
    }
    launches.push_back(k);
  }
  return launches;
}

std::string short_kernel_name(const std::string& full_name) {
  std::string name = full_name;
  if (starts_with(name, "void ")) name = name.substr(5);
  // Cut the parameter list: the first '(' outside template brackets.
  int depth = 0;
  std::size_t cut = name.size();
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    // "(anonymous namespace)" is part of a qualifier, not a parameter list.
    if (name[i] == '(' && depth == 0 && name.compare(i, 21, "(anonymous namespace)") != 0) {
      cut = i;
      break;
    }
  }
  name = name.substr(0, cut);
  // Drop qualifiers: the last "::" outside template brackets.
  depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (depth == 0 && name[i] == ':' && name[i + 1] == ':') start = i + 2;
  }
  name = name.substr(start);
  // Drop the qualifiers inside the template arguments too: "tiles<floyd_warshall::Panels>" reads
  // "tiles<Panels>".
  for (const std::string anonymous : {"(anonymous namespace)::", "<unnamed>::"})
    for (auto at = name.find(anonymous, 1); at != std::string::npos; at = name.find(anonymous, 1))
      name.erase(at, anonymous.size());
  for (auto at = name.find("::"); at != std::string::npos; at = name.find("::")) {
    std::size_t begin = at;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(name[begin - 1])) || name[begin - 1] == '_')) --begin;
    name.erase(begin, at + 2 - begin);
  }
  auto open = name.find('<');
  if (open != std::string::npos && name.size() - open > 24) name = name.substr(0, open) + "<...>";
  if (name.size() > 40) name = name.substr(0, 37) + "...";  // a library's generated kernel names
  return name;
}

std::vector<KernelSummary> summarise_by_kernel(const std::vector<KernelLaunch>& launches,
                                               const std::vector<std::string>& ignore) {
  std::vector<KernelSummary> out;
  std::vector<double> weight;  // total duration of each summary so far
  for (const KernelLaunch& launch : launches) {
    const std::string name = short_kernel_name(launch.kernel);
    if (std::find(ignore.begin(), ignore.end(), name) != ignore.end()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const KernelSummary& s) { return s.kernel == name; });
    if (it == out.end()) {
      out.push_back(KernelSummary{name, 0, {}});
      weight.push_back(0);
      it = out.end() - 1;
    }
    const std::size_t index = static_cast<std::size_t>(it - out.begin());
    auto duration = launch.metrics.find("gpu__time_duration.sum");
    const double w = duration != launch.metrics.end() ? duration->second : 1.0;
    const double before = weight[index], after = before + w;
    for (const auto& [name_of_metric, value] : launch.metrics) {
      double& combined = it->metrics[name_of_metric];
      if (ends_with(name_of_metric, ".sum")) combined += value;
      else if (starts_with(name_of_metric, "launch__")) combined = it->launches == 0 ? value : std::max(combined, value);
      else combined = after > 0 ? (combined * before + value * w) / after : value;
    }
    weight[index] = after;
    ++it->launches;
  }
  return out;
}

double elements_with(const std::string& own_arguments, double own_elements, const std::string& more_arguments) {
  return without_options_of(own_arguments, more_arguments) == own_arguments ? own_elements : 0;
}

std::string counter_cell(const std::string& key, const KernelSummary& k, double elements) {
  const Counter& c = counter(key);
  bool found = true;
  if (key == "top_stall") {
    std::string worst;
    double most = -1;
    for (const auto& [name, value] : k.metrics) {
      if (!starts_with(name, kStallPrefix) || !ends_with(name, kStallSuffix)) continue;
      std::string reason = name.substr(std::string(kStallPrefix).size(),
                                       name.size() - std::string(kStallPrefix).size() - std::string(kStallSuffix).size());
      if (reason == "selected") continue;  // issuing, not waiting
      if (value > most) {
        most = value;
        worst = reason;
      }
    }
    return worst.empty() ? "-" : worst + " " + format_significant(most, 2);
  }
  std::vector<double> v;
  for (const std::string& m : c.metrics) v.push_back(metric(k, m, found));
  if (!found) return "-";
  if (key == "time_us") return format_significant(v[0] / 1e3, 3);
  if (key == "dram_mb") return format_significant((v[0] + v[1]) / 1e6, 3);
  if (key == "sectors_per_load" || key == "sectors_per_store" || key == "smem_ld_passes")
    return v[1] > 0 ? format_significant(v[0] / v[1], 3) : "-";
  if (key == "smem_ld_conflicts" || key == "smem_st_conflicts") return format_count(static_cast<unsigned long long>(v[0]));
  if (key == "registers") return format_count(static_cast<unsigned long long>(v[0]));
  if (key == "inst_per_element") return elements > 0 ? format_significant(v[0] / elements, 3) : "-";
  return format_significant(v[0], 3);  // percentages
}

void write_counters_csv(std::ostream& out, const std::vector<std::string>& keys, const std::vector<CounterRow>& rows) {
  out << "step,program,kernel,launches";
  for (const std::string& key : keys) out << "," << csv_field(key);
  out << "\n";
  // Kernel names and cells are always quoted: a template's arguments hold commas, and a cell may.
  for (const CounterRow& r : rows) {
    out << csv_field(r.step) << "," << csv_field(r.program) << "," << csv_field(r.kernel, Quoting::Always) << ","
        << r.launches;
    for (const std::string& cell : r.cells) out << "," << csv_field(cell, Quoting::Always);
    out << "\n";
  }
}

void write_counters_json(std::ostream& out, const std::vector<std::string>& keys, const std::vector<CounterRow>& rows) {
  std::vector<nlohmann::ordered_json> items;
  for (const CounterRow& r : rows) {
    nlohmann::ordered_json object{{"step", r.step}, {"program", r.program}, {"kernel", r.kernel}, {"launches", r.launches}};
    for (std::size_t i = 0; i < keys.size() && i < r.cells.size(); ++i) object[keys[i]] = r.cells[i];
    items.push_back(std::move(object));
  }
  write_json_lines(out, items);
}

bool ncu_permission_denied(const std::string& output) { return output.find("ERR_NVGPUCTRPERM") != std::string::npos; }

}  // namespace course
