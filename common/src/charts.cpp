#include "course/charts.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <utility>

#include "course/text_table.h"

namespace course {

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
    // A bar needs a finite rate, and the scale a finite ceiling: an infinite one would need endless decades.
    if (r.m.verdict != "PASS" || !(r.m.rate() > 0) || !std::isfinite(r.m.rate())) continue;
    shown.push_back(&r);
    if (std::isfinite(r.m.ceiling) && r.m.ceiling > ceiling) {
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

}  // namespace course
