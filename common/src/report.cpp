#include "course/report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <ostream>
#include <sstream>

#include "course/errors.h"

namespace course {

double Measurement::rate() const {
  if (time.median_ms <= 0) return 0;
  double seconds = time.median_ms * 1e-3;
  double count = rate_unit == "GB/s" ? bytes : operations;
  return count / seconds / 1e9;
}

double Measurement::percent_of_ceiling() const { return ceiling > 0 ? 100.0 * rate() / ceiling : 0; }

double Measurement::operational_intensity() const { return bytes > 0 && operations > 0 ? operations / bytes : 0; }

double Measurement::operation_rate() const {
  return time.median_ms > 0 ? operations / (time.median_ms * 1e-3) / 1e9 : 0;
}

std::string format_significant(double value, int significant) {
  if (value == 0) return "0";
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(value))));
  int decimals = std::max(0, std::min(9, significant - 1 - magnitude));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string format_count(unsigned long long value) {
  std::string digits = std::to_string(value), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {
std::string plain(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char esc[8];
          std::snprintf(esc, sizeof esc, "\\u%04x", c);
          out += esc;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double x) { return std::isfinite(x) ? plain(x) : "null"; }

double to_double(const std::string& s) {
  if (s.empty()) return 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0') throw UsageError("not a number in a measurement row: '" + s + "'");
  return v;
}

constexpr const char* kColumns[] = {"lesson", "step", "title", "kind", "size", "device", "median_ms", "min_ms",
                                    "max_ms", "reps", "bytes", "operations", "rate_unit", "rate", "ceiling",
                                    "ceiling_name", "percent_of_ceiling", "verdict", "detail", "operation",
                                    "compute_ceiling"};
constexpr std::size_t kColumnCount = sizeof kColumns / sizeof kColumns[0];

std::vector<std::string> fields_of(const Measurement& m) {
  return {m.lesson, m.step, m.title, m.kind, m.size, m.device, plain(m.time.median_ms), plain(m.time.min_ms),
          plain(m.time.max_ms), std::to_string(m.time.reps), plain(m.bytes), plain(m.operations), m.rate_unit,
          plain(m.rate()), plain(m.ceiling), m.ceiling_name, plain(m.percent_of_ceiling()), m.verdict, m.detail,
          m.operation, plain(m.compute_ceiling)};
}
}  // namespace

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

std::string csv_header() {
  std::string out;
  for (std::size_t i = 0; i < kColumnCount; ++i) out += (i ? "," : "") + std::string(kColumns[i]);
  return out;
}

std::string to_csv(const Measurement& m) {
  std::string out;
  auto fields = fields_of(m);
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
  return out;
}

Measurement from_csv(const std::string& line) {
  auto f = split_csv_line(line);
  if (f.size() != kColumnCount)
    throw UsageError("a measurement row has " + std::to_string(kColumnCount) + " fields, this one has " +
                     std::to_string(f.size()));
  Measurement m;
  m.lesson = f[0];
  m.step = f[1];
  m.title = f[2];
  m.kind = f[3];
  m.size = f[4];
  m.device = f[5];
  m.time.median_ms = to_double(f[6]);
  m.time.min_ms = to_double(f[7]);
  m.time.max_ms = to_double(f[8]);
  m.time.reps = static_cast<int>(to_double(f[9]));
  m.bytes = to_double(f[10]);
  m.operations = to_double(f[11]);
  m.rate_unit = f[12];
  m.ceiling = to_double(f[14]);
  m.ceiling_name = f[15];
  m.verdict = f[17];
  m.detail = f[18];
  m.operation = f[19];
  m.compute_ceiling = to_double(f[20]);
  return m;
}

std::string to_json(const Measurement& m) {
  auto f = fields_of(m);
  std::string out = "{";
  for (std::size_t i = 0; i < kColumnCount; ++i) {
    bool numeric = (i >= 6 && i <= 11) || i == 13 || i == 14 || i == 16 || i == 20;
    out += (i ? ", " : "") + json_string(kColumns[i]) + ": ";
    if (!numeric) {
      out += json_string(f[i]);
    } else {
      // printf writes a negative NaN as "-nan": any NaN or infinity becomes null.
      out += f[i].find("nan") != std::string::npos || f[i].find("inf") != std::string::npos ? "null" : f[i];
    }
  }
  return out + "}";
}

void print_measurement(std::ostream& out, const Measurement& m, OutputFormat format) {
  if (format == OutputFormat::Csv) {
    out << csv_header() << "\n" << to_csv(m) << "\n";
    return;
  }
  if (format == OutputFormat::Json) {
    out << to_json(m) << "\n";
    return;
  }
  out << "lesson " << m.lesson << ", step " << m.step << ": " << m.title << "  [" << m.kind << ", " << m.device
      << "]\n";
  if (m.verdict == "SKIP") {
    out << "  skipped: " << m.detail << "\n";
    return;
  }
  out << "  size    " << m.size << "\n";
  if (!m.launch.empty()) out << "  launch  " << m.launch << "\n";
  out << "  time    " << format_significant(m.time.median_ms, 4) << " ms median (min "
      << format_significant(m.time.min_ms, 4) << ", max " << format_significant(m.time.max_ms, 4) << "; "
      << m.time.reps << " timed runs)\n";
  if (m.rate() > 0) {
    out << "  rate    " << format_significant(m.rate(), 4) << " " << m.rate_unit;
    if (m.ceiling > 0)
      out << " = " << format_significant(m.percent_of_ceiling(), 3) << "% of " << m.ceiling_name << " ("
          << format_significant(m.ceiling, 4) << " " << m.rate_unit << ")";
    out << "\n";
  }
  out << "  check   " << m.detail << "\n";
}

int report_skipped(const std::string& program, Measurement m, const std::string& why, OutputFormat format) {
  m.device = "none";
  m.verdict = "SKIP";
  m.detail = "no CUDA device (" + why + ")";
  std::cerr << program << ": skipped: " << m.detail << "\n";
  print_measurement(std::cout, m, format);
  return kExitSkipped;
}

TextTable::TextTable(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != headers_.size()) throw std::invalid_argument("table row has the wrong number of cells");
  rows_.push_back(std::move(cells));
}

namespace {
bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  char c = s[0];
  return std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '.') && s.size() > 1);
}
}  // namespace

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      std::string pad(width[c] - cells[c].size(), ' ');
      bool right = !header && looks_numeric(cells[c]);
      text += (c ? "  " : "") + (right ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : ""));
    }
    out << text << "\n";
  };
  line(headers_, true);
  std::size_t total = 0;
  for (std::size_t w : width) total += w;
  out << std::string(total + 2 * (width.size() - 1), '-') << "\n";
  for (const auto& row : rows_) line(row, false);
}

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

void write_ladder_csv(std::ostream& out, const std::vector<LadderRow>& rows) {
  out << csv_header() << ",speedup_previous,speedup_cpu,speedup_all_cores\n";
  for (const LadderRow& r : rows)
    out << to_csv(r.m) << "," << plain(r.speedup_previous) << "," << plain(r.speedup_cpu) << ","
        << plain(r.speedup_all_cores) << "\n";
}

void write_ladder_json(std::ostream& out, const std::vector<LadderRow>& rows) {
  out << "[\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string object = to_json(rows[i].m);
    object.pop_back();  // reopen the object to add the speed-ups
    out << "  " << object << ", \"speedup_previous\": " << json_number(rows[i].speedup_previous)
        << ", \"speedup_cpu\": " << json_number(rows[i].speedup_cpu)
        << ", \"speedup_all_cores\": " << json_number(rows[i].speedup_all_cores) << "}" << (i + 1 < rows.size() ? "," : "")
        << "\n";
  }
  out << "]\n";
}

namespace {
std::string xml_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}
}  // namespace

void write_ladder_svg(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows) {
  std::vector<const LadderRow*> shown;
  double ceiling = 0;
  std::string unit, ceiling_name = "ceiling";
  for (const LadderRow& r : rows) {
    if (r.m.verdict != "PASS" || r.m.rate() <= 0) continue;
    shown.push_back(&r);
    if (r.m.ceiling > ceiling) {
      ceiling = r.m.ceiling;
      if (!r.m.ceiling_name.empty()) ceiling_name = r.m.ceiling_name;
    }
    unit = r.m.rate_unit;
  }
  // When every step solved the same problem but they count different work (one pass over the data
  // against two, say), a rate would hide which is fastest: the bars then show speed, times faster
  // than the slowest step, and the rate is only a label. Otherwise (the same work, or steps run at
  // different sizes) the bars show the rate, under the ceiling.
  bool same_size = true, same_work = true;
  for (const LadderRow* r : shown) {
    same_size = same_size && r->m.size == shown.front()->m.size;
    const double work = r->m.rate_unit == "GB/s" ? r->m.bytes : r->m.operations;
    const double first = shown.front()->m.rate_unit == "GB/s" ? shown.front()->m.bytes : shown.front()->m.operations;
    same_work = same_work && work == first;
  }
  const bool by_speed = same_size && !same_work;
  double slowest = 0;
  for (const LadderRow* r : shown) slowest = std::max(slowest, r->m.time.median_ms);
  auto value = [&](const Measurement& m) { return by_speed ? slowest / m.time.median_ms : m.rate(); };
  double low = 0, high = 0;
  for (const LadderRow* r : shown) {
    low = low == 0 ? value(r->m) : std::min(low, value(r->m));
    high = std::max(high, value(r->m));
  }
  if (!by_speed) high = std::max(high, ceiling);
  const double label_width = 380, bar_width = 420, value_width = 170, row_height = 26, top = 44;
  const double width = label_width + bar_width + value_width, height = top + row_height * shown.size() + 36;
  // Decades that cover every bar, so the scale reads in powers of ten.
  const double first_decade = shown.empty() ? 0 : std::floor(std::log10(low));
  const double last_decade = shown.empty() ? 1 : std::ceil(std::log10(high));
  const double decades = std::max(1.0, last_decade - first_decade);
  auto x_of = [&](double v) { return label_width + bar_width * (std::log10(v) - first_decade) / decades; };
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << xml_text(title) << "</text>\n";
  out << "<text x=\"10\" y=\"36\" fill=\"#555\">"
      << (by_speed ? "speed: times faster than the slowest step, on a logarithmic scale (longer is faster); "
                     "labels: time and rate"
                   : xml_text(unit) + " on a logarithmic scale (longer is faster)")
      << "</text>\n";
  for (double d = first_decade; d <= first_decade + decades; d += 1) {
    const double x = label_width + bar_width * (d - first_decade) / decades;
    out << "<line x1=\"" << x << "\" y1=\"" << top - 4 << "\" x2=\"" << x << "\" y2=\"" << height - 28
        << "\" stroke=\"#ddd\"/>\n";
    out << "<text x=\"" << x << "\" y=\"" << height - 14 << "\" text-anchor=\"middle\" fill=\"#555\">"
        << format_significant(std::pow(10.0, d), 1) << (by_speed ? "x" : "") << "</text>\n";
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    const Measurement& m = shown[i]->m;
    const double y = top + row_height * i;
    const std::string colour = m.kind == "cpu" ? "#9aa5b1" : (m.kind == "library" ? "#e0a030" : "#3b7dd8");
    out << "<text x=\"" << label_width - 8 << "\" y=\"" << y + 16 << "\" text-anchor=\"end\">"
        << xml_text(m.step + "  " + m.title) << "</text>\n";
    out << "<rect x=\"" << label_width << "\" y=\"" << y + 4 << "\" width=\"" << std::max(1.0, x_of(value(m)) - label_width)
        << "\" height=\"" << row_height - 8 << "\" fill=\"" << colour << "\"/>\n";
    const std::string label = by_speed ? format_significant(m.time.median_ms, 3) + " ms, " +
                                             format_significant(m.rate(), 3) + " " + m.rate_unit
                                       : format_significant(m.rate(), 3);
    out << "<text x=\"" << x_of(value(m)) + 4 << "\" y=\"" << y + 16 << "\" fill=\"#222\">" << xml_text(label)
        << "</text>\n";
  }
  if (!by_speed && ceiling > 0 && !shown.empty()) {
    const double x = x_of(ceiling);
    out << "<line x1=\"" << x << "\" y1=\"" << top - 4 << "\" x2=\"" << x << "\" y2=\"" << height - 28
        << "\" stroke=\"#c0392b\" stroke-dasharray=\"4 3\"/>\n";
    out << "<text x=\"" << x - 4 << "\" y=\"" << top - 8 << "\" text-anchor=\"end\" fill=\"#c0392b\">"
        << xml_text(ceiling_name) << "</text>\n";
  }
  out << "</svg>\n";
}

void write_roofline_svg(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows,
                        double memory_gbs, const std::string& memory_name) {
  std::vector<const Measurement*> points;
  double compute = 0;
  std::string operation = "operations", compute_name;
  for (const LadderRow& r : rows) {
    const Measurement& m = r.m;
    if (m.verdict != "PASS" || m.operational_intensity() <= 0 || m.operation_rate() <= 0) continue;
    points.push_back(&m);
    compute = std::max(compute, m.compute_ceiling);
    if (!m.operation.empty()) operation = m.operation + "s";
  }
  const double width = 820, height = 440, left = 80, right = 250, top = 50, bottom = 60;
  const double plot_w = width - left - right, plot_h = height - top - bottom;
  // The axes span the points, the ridge (where the roofs meet) and the compute roof, in whole decades.
  double x_low = 1e300, x_high = 0, y_low = 1e300, y_high = 0;
  for (const Measurement* m : points) {
    x_low = std::min(x_low, m->operational_intensity());
    x_high = std::max(x_high, m->operational_intensity());
    y_low = std::min(y_low, m->operation_rate());
    y_high = std::max(y_high, m->operation_rate());
  }
  const double ridge = memory_gbs > 0 && compute > 0 ? compute / memory_gbs : 0;
  if (ridge > 0) {
    x_low = std::min(x_low, ridge);
    x_high = std::max(x_high, ridge);
  }
  if (compute > 0) y_high = std::max(y_high, compute);
  if (memory_gbs > 0 && !points.empty()) y_low = std::min(y_low, memory_gbs * x_low);
  const bool empty = points.empty();
  const double x0 = empty ? -1 : std::floor(std::log10(x_low) - 0.3), x1 = empty ? 2 : std::ceil(std::log10(x_high) + 0.3);
  const double y0 = empty ? 0 : std::floor(std::log10(y_low) - 0.3), y1 = empty ? 3 : std::ceil(std::log10(y_high) + 0.3);
  auto px = [&](double x) { return left + plot_w * (std::log10(x) - x0) / (x1 - x0); };
  auto py = [&](double y) { return top + plot_h * (1 - (std::log10(y) - y0) / (y1 - y0)); };
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << xml_text(title) << "</text>\n";
  out << "<text x=\"10\" y=\"36\" fill=\"#555\">G " << xml_text(operation)
      << "/s against " << xml_text(operation) << " per byte, both logarithmic; the roofs are this GPU's limits</text>\n";
  for (double d = x0; d <= x1; d += 1) {
    const double x = px(std::pow(10.0, d));
    out << "<line x1=\"" << x << "\" y1=\"" << top << "\" x2=\"" << x << "\" y2=\"" << top + plot_h
        << "\" stroke=\"#eee\"/>\n<text x=\"" << x << "\" y=\"" << top + plot_h + 16
        << "\" text-anchor=\"middle\" fill=\"#555\">" << format_significant(std::pow(10.0, d), 1) << "</text>\n";
  }
  for (double d = y0; d <= y1; d += 1) {
    const double y = py(std::pow(10.0, d));
    out << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << left + plot_w << "\" y2=\"" << y
        << "\" stroke=\"#eee\"/>\n<text x=\"" << left - 6 << "\" y=\"" << y + 4
        << "\" text-anchor=\"end\" fill=\"#555\">" << format_significant(std::pow(10.0, d), 1) << "</text>\n";
  }
  out << "<text x=\"" << left + plot_w / 2 << "\" y=\"" << height - 18 << "\" text-anchor=\"middle\">"
      << xml_text(operation) << " per byte (operational intensity)</text>\n";
  out << "<text x=\"16\" y=\"" << top + plot_h / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
      << top + plot_h / 2 << ")\">G " << xml_text(operation) << " per second</text>\n";
  if (empty)
    out << "<text x=\"" << left + 10 << "\" y=\"" << top + 20 << "\" fill=\"#555\">no step counted both its bytes "
        << "and its operations</text>\n";
  // The roofs, clipped to the plot: the memory roof rises with the intensity until it meets the
  // compute roof.
  out << "<clipPath id=\"plot\"><rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << plot_w << "\" height=\""
      << plot_h << "\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n";
  if (memory_gbs > 0) {
    const double xa = std::pow(10.0, x0), xb = compute > 0 ? std::min(ridge, std::pow(10.0, x1)) : std::pow(10.0, x1);
    const double ya = std::max(memory_gbs * xa, std::pow(10.0, y0));
    const double xa_clipped = ya / memory_gbs;
    out << "<line x1=\"" << px(xa_clipped) << "\" y1=\"" << py(ya) << "\" x2=\"" << px(xb) << "\" y2=\""
        << py(memory_gbs * xb) << "\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n";
  }
  if (compute > 0) {
    const double xa = ridge > 0 ? std::max(ridge, std::pow(10.0, x0)) : std::pow(10.0, x0);
    out << "<line x1=\"" << px(xa) << "\" y1=\"" << py(compute) << "\" x2=\"" << left + plot_w << "\" y2=\""
        << py(compute) << "\" stroke=\"#c0392b\" stroke-width=\"2\"/>\n";
  }
  out << "</g>\n";
  // The roofs are named at the top of the legend, in their colour.
  if (memory_gbs > 0 && !empty)
    out << "<text x=\"" << left + plot_w + 8 << "\" y=\"" << top + 12 << "\" fill=\"#c0392b\" font-size=\"11\">"
        << "sloped roof: " << xml_text(memory_name) << " " << format_significant(memory_gbs, 4) << " GB/s</text>\n";
  if (compute > 0 && !empty)
    out << "<text x=\"" << left + plot_w + 8 << "\" y=\"" << top + 28 << "\" fill=\"#c0392b\" font-size=\"11\">"
        << "flat roof: " << format_significant(compute, 4) << " G " << xml_text(operation) << "/s</text>\n";
  // Points that fall on one spot (steps at the same intensity and rate) share one label, "04 05 07";
  // labels alternate right and left so that neighbours do not run into each other.
  std::vector<std::pair<std::pair<double, double>, std::string>> labels;
  for (const Measurement* m : points) {
    const std::string colour = m->kind == "cpu" ? "#9aa5b1" : (m->kind == "library" ? "#e0a030" : "#3b7dd8");
    const double x = px(m->operational_intensity()), y = py(m->operation_rate());
    out << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"5\" fill=\"" << colour << "\"/>\n";
    bool joined = false;
    for (auto& [at, text] : labels)
      if (!joined && std::fabs(at.first - x) < 6 && std::fabs(at.second - y) < 6) {
        text += " " + m->step;
        joined = true;
      }
    if (!joined) labels.push_back({{x, y}, m->step});
  }
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const bool on_left = i % 2 == 1;
    const auto& [at, text] = labels[i];
    out << "<text x=\"" << (on_left ? at.first - 8 : at.first + 8) << "\" y=\"" << at.second + 4 << "\""
        << (on_left ? " text-anchor=\"end\"" : "") << " fill=\"#222\">" << xml_text(text) << "</text>\n";
  }
  // The legend: each step's number and title.
  for (std::size_t i = 0; i < points.size(); ++i) {
    std::string title = points[i]->title;
    if (title.size() > 34) title = title.substr(0, 33) + "...";
    out << "<text x=\"" << left + plot_w + 8 << "\" y=\"" << top + 60 + 16 * i << "\" fill=\"#333\" font-size=\"11\">"
        << xml_text(points[i]->step + " " + title) << "</text>\n";
  }
  out << "</svg>\n";
}

StudyFigures parse_study_figures(const std::string& text, const std::string& name) {
  StudyFigures f;
  std::stringstream lines(text);
  std::string line;
  bool header = true;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = split_csv_line(line);
    if (header) {
      f.label_title = fields.front();
      f.columns.assign(fields.begin() + 1, fields.end());
      header = false;
      continue;
    }
    if (fields.size() != f.columns.size() + 1)
      throw UsageError(name + ": a line has " + std::to_string(fields.size()) + " fields, the header " +
                       std::to_string(f.columns.size() + 1) + ": " + line);
    f.labels.push_back(fields.front());
    f.rows.emplace_back(fields.begin() + 1, fields.end());
  }
  if (header) throw UsageError(name + ": no header line");
  return f;
}

std::string fastest_in_row(const Sweep& sweep, const SweepRow& row) {
  std::string best = "-";
  double best_ms = 0;
  for (std::size_t s = 0; s < row.cells.size() && s < sweep.steps.size(); ++s) {
    const Measurement& m = row.cells[s];
    if (m.verdict != "PASS" || m.time.median_ms <= 0) continue;
    if (best == "-" || m.time.median_ms < best_ms) {
      best = sweep.steps[s];
      best_ms = m.time.median_ms;
    }
  }
  return best;
}

namespace {
std::string sweep_cell(const Measurement& m) {
  if (m.verdict.empty()) return "-";
  if (m.verdict == "PASS") return format_significant(m.time.median_ms, 4);
  return m.verdict;
}
}  // namespace

void print_sweep(std::ostream& out, const std::string& title, const Sweep& sweep) {
  out << title << "\n\n";
  std::vector<std::string> headers{sweep.label_title};
  for (const std::string& step : sweep.steps) headers.push_back(step + " ms");
  headers.push_back("fastest");
  for (const std::string& c : sweep.study_columns) headers.push_back("study: " + c + " ms");
  TextTable table(headers);
  for (const SweepRow& row : sweep.rows) {
    std::vector<std::string> cells{row.label};
    for (std::size_t s = 0; s < sweep.steps.size(); ++s)
      cells.push_back(s < row.cells.size() ? sweep_cell(row.cells[s]) : "-");
    cells.push_back(fastest_in_row(sweep, row));
    for (std::size_t c = 0; c < sweep.study_columns.size(); ++c)
      cells.push_back(c < row.study.size() && !row.study[c].empty() ? row.study[c] : "-");
    table.add_row(cells);
  }
  table.print(out);
  // The legend: each step's title and kind, taken from the first row that ran it, and the device.
  out << "\n";
  std::string device;
  for (std::size_t s = 0; s < sweep.steps.size(); ++s) {
    std::string what = "(not run)";
    for (const SweepRow& row : sweep.rows) {
      if (s < row.cells.size() && !row.cells[s].verdict.empty() && !row.cells[s].title.empty()) {
        what = row.cells[s].title;
        if (row.cells[s].kind == "gpu" || row.cells[s].kind == "library")
          if (device.empty() && row.cells[s].verdict != "SKIP") device = row.cells[s].device;
        break;
      }
    }
    out << sweep.steps[s] << ": " << what << "\n";
  }
  if (!device.empty()) out << "device " << device << "\n";
  for (const SweepRow& row : sweep.rows)
    for (std::size_t s = 0; s < row.cells.size() && s < sweep.steps.size(); ++s) {
      const Measurement& m = row.cells[s];
      if (!m.verdict.empty() && m.verdict != "PASS" && m.verdict != "SKIP")
        out << row.label << ", step " << sweep.steps[s] << ": " << m.detail << "\n";
    }
}

void write_sweep_csv(std::ostream& out, const Sweep& sweep) {
  out << csv_field(sweep.label_title);
  for (const std::string& step : sweep.steps) out << ",step_" << step << "_ms,step_" << step << "_check";
  out << ",fastest";
  for (const std::string& c : sweep.study_columns) out << "," << csv_field("study_" + c + "_ms");
  out << "\n";
  for (const SweepRow& row : sweep.rows) {
    out << csv_field(row.label);
    for (std::size_t s = 0; s < sweep.steps.size(); ++s) {
      const bool ran = s < row.cells.size() && !row.cells[s].verdict.empty();
      out << "," << (ran && row.cells[s].time.median_ms > 0 ? plain(row.cells[s].time.median_ms) : "") << ","
          << (ran ? row.cells[s].verdict : "");
    }
    out << "," << fastest_in_row(sweep, row);
    for (std::size_t c = 0; c < sweep.study_columns.size(); ++c)
      out << "," << (c < row.study.size() ? csv_field(row.study[c]) : "");
    out << "\n";
  }
}

void write_sweep_json(std::ostream& out, const Sweep& sweep) {
  out << "[\n";
  for (std::size_t r = 0; r < sweep.rows.size(); ++r) {
    const SweepRow& row = sweep.rows[r];
    out << "  {\"label\": " << json_string(row.label) << ", \"fastest\": " << json_string(fastest_in_row(sweep, row))
        << ", \"steps\": [";
    bool first = true;
    for (std::size_t s = 0; s < row.cells.size() && s < sweep.steps.size(); ++s) {
      if (row.cells[s].verdict.empty()) continue;
      out << (first ? "" : ", ") << to_json(row.cells[s]);
      first = false;
    }
    out << "], \"study\": {";
    for (std::size_t c = 0; c < sweep.study_columns.size() && c < row.study.size(); ++c)
      out << (c ? ", " : "") << json_string(sweep.study_columns[c]) << ": " << json_string(row.study[c]);
    out << "}}" << (r + 1 < sweep.rows.size() ? "," : "") << "\n";
  }
  out << "]\n";
}

}  // namespace course
