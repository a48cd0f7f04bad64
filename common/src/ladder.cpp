#include "course/ladder.h"

#include <ostream>

#include "course/text_table.h"

namespace course {

std::vector<LadderRow> make_ladder(const std::vector<Measurement>& steps) {
  // Between steps of the same size a speed-up is a ratio of times. A step run at another size (a slow
  // step at a reduced size, say) is compared by rate, work per second, instead; that needs the work
  // to be counted the same way for both.
  auto speedup = [](const Measurement& now, const Measurement& before) {
    if (now.size == before.size || now.rate() <= 0 || before.rate() <= 0)
      return before.time.median_ms / now.time.median_ms;
    return now.rate() / before.rate();
  };
  // The fastest CPU step that passed, by rate (by time when no rate is counted).
  const Measurement* fastest_cpu = nullptr;
  const Measurement* first_cpu = nullptr;
  for (const Measurement& m : steps) {
    if (m.kind != "cpu" || m.verdict != "PASS" || m.time.median_ms <= 0) continue;
    if (!first_cpu) first_cpu = &m;
    if (!fastest_cpu || speedup(m, *fastest_cpu) > 1.0) fastest_cpu = &m;
  }
  if (fastest_cpu == first_cpu) fastest_cpu = nullptr;  // one CPU step: the column would repeat "vs CPU"
  std::vector<LadderRow> rows;
  const Measurement* previous = nullptr;
  const Measurement* cpu = nullptr;
  for (const Measurement& m : steps) {
    LadderRow r;
    r.m = m;
    if (m.verdict == "PASS" && m.time.median_ms > 0) {
      if (previous) r.speedup_previous = speedup(m, *previous);
      if (cpu) r.speedup_cpu = speedup(m, *cpu);
      if (fastest_cpu) r.speedup_all_cores = speedup(m, *fastest_cpu);
      if (m.kind == "cpu" && !cpu) {
        cpu = &m;
        r.speedup_cpu = 1.0;
      }
      previous = &m;
    }
    rows.push_back(r);
  }
  return rows;
}

namespace {
std::string times(double x) { return x > 0 ? format_significant(x, 3) + "x" : "-"; }
}  // namespace

void print_ladder(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows) {
  out << title << "\n\n";
  // A size column only when the steps ran different sizes; otherwise the size is said once below.
  bool sizes_differ = false;
  for (const LadderRow& r : rows)
    if (r.m.verdict != "SKIP" && r.m.verdict != "ERROR" && r.m.size != rows.front().m.size) sizes_differ = true;
  bool all_cores = false;  // a second, faster CPU step: speed-ups over both are shown
  for (const LadderRow& r : rows) all_cores = all_cores || r.speedup_all_cores > 0;
  std::vector<std::string> headers{"step", "technique", "time ms", "min-max ms", "rate", "% of ceiling",
                                   "vs previous", all_cores ? "vs 1 core" : "vs CPU", "check"};
  if (all_cores) headers.insert(headers.end() - 1, "vs all cores");
  if (sizes_differ) headers.insert(headers.begin() + 2, "size");
  TextTable table(headers);
  for (const LadderRow& r : rows) {
    const Measurement& m = r.m;
    bool timed = m.time.median_ms > 0 && m.verdict != "SKIP";
    // A wrong answer has a time, but no rate worth comparing: it may have skipped the work.
    bool rated = timed && m.verdict == "PASS";
    std::string rate = rated && m.rate() > 0 ? format_significant(m.rate(), 4) + " " + m.rate_unit : "-";
    std::string pct = rated && m.ceiling > 0 ? format_significant(m.percent_of_ceiling(), 3) + "%" : "-";
    std::vector<std::string> cells{m.step, m.title, timed ? format_significant(m.time.median_ms, 4) : "-",
                                   timed ? format_significant(m.time.min_ms, 3) + "-" + format_significant(m.time.max_ms, 3) : "-",
                                   rate, pct, times(r.speedup_previous), times(r.speedup_cpu), m.verdict};
    if (all_cores) cells.insert(cells.end() - 1, times(r.speedup_all_cores));
    if (sizes_differ) cells.insert(cells.begin() + 2, m.size);
    table.add_row(cells);
  }
  table.print(out);
  // Say once what the ceiling was, and which size and device were used.
  for (const LadderRow& r : rows) {
    if (r.m.ceiling > 0) {
      out << "\nceiling: " << r.m.ceiling_name << " " << format_significant(r.m.ceiling, 4) << " " << r.m.rate_unit
          << (sizes_differ ? "" : "; size " + r.m.size) << "; device " << r.m.device << "\n";
      break;
    }
  }
  std::string skipped_because;
  for (const LadderRow& r : rows) {
    if (r.m.verdict == "SKIP") {
      if (r.m.detail != skipped_because) out << "SKIP: " << r.m.detail << "\n";
      skipped_because = r.m.detail;
    } else if (r.m.verdict != "PASS") {
      out << "step " << r.m.step << ": " << r.m.detail << "\n";
    }
  }
}

}  // namespace course
