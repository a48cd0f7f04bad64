#include "course/json.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <ostream>

#include "course/csv.h"
#include "json_writer.h"
#include "measurement_columns.h"

namespace course {

using nlohmann::ordered_json;

ordered_json json_number(double value) {
  const double figure = std::strtod(csv_number(value).c_str(), nullptr);
  if (!std::isfinite(figure)) return nullptr;
  // Whole numbers well inside the range where doubles hold every integer are written as integers:
  // "4", not "4.0".
  if (figure == std::floor(figure) && std::fabs(figure) < 1e15) return static_cast<std::int64_t>(figure);
  return figure;
}

std::string json_line(const ordered_json& value) {
  const auto scalar = [](const ordered_json& v) { return v.dump(-1, ' ', false, ordered_json::error_handler_t::replace); };
  if (value.is_object()) {
    std::string out = "{";
    for (auto item = value.begin(); item != value.end(); ++item)
      out += (item == value.begin() ? "" : ", ") + scalar(item.key()) + ": " + json_line(item.value());
    return out + "}";
  }
  if (value.is_array()) {
    std::string out = "[";
    for (auto item = value.begin(); item != value.end(); ++item)
      out += (item == value.begin() ? "" : ", ") + json_line(*item);
    return out + "]";
  }
  return scalar(value);
}

void write_json_lines(std::ostream& out, const std::vector<ordered_json>& items) {
  out << "[\n";
  for (std::size_t i = 0; i < items.size(); ++i) out << "  " << json_line(items[i]) << (i + 1 < items.size() ? "," : "") << "\n";
  out << "]\n";
}

namespace {
ordered_json measurement_object(const Measurement& m) {
  const auto fields = measurement_fields(m);
  ordered_json object = ordered_json::object();
  for (std::size_t i = 0; i < kMeasurementColumnCount; ++i) {
    const MeasurementColumn& column = kMeasurementColumns[i];
    if (column.numeric)
      object[column.name] = json_number(std::strtod(fields[i].c_str(), nullptr));
    else
      object[column.name] = fields[i];
  }
  return object;
}
}  // namespace

std::string to_json(const Measurement& m) { return json_line(measurement_object(m)); }

void write_ladder_json(std::ostream& out, const std::vector<LadderRow>& rows) {
  std::vector<ordered_json> items;
  for (const LadderRow& r : rows) {
    ordered_json object = measurement_object(r.m);
    object["speedup_previous"] = json_number(r.speedup_previous);
    object["speedup_cpu"] = json_number(r.speedup_cpu);
    object["speedup_all_cores"] = json_number(r.speedup_all_cores);
    items.push_back(std::move(object));
  }
  write_json_lines(out, items);
}

void write_sweep_json(std::ostream& out, const Sweep& sweep) {
  std::vector<ordered_json> items;
  for (const SweepRow& row : sweep.rows) {
    ordered_json steps = ordered_json::array(), study = ordered_json::object();
    for (std::size_t s = 0; s < row.cells.size() && s < sweep.steps.size(); ++s)
      if (!row.cells[s].verdict.empty()) steps.push_back(measurement_object(row.cells[s]));
    for (std::size_t c = 0; c < sweep.study_columns.size() && c < row.study.size(); ++c)
      study[sweep.study_columns[c]] = row.study[c];
    items.push_back(ordered_json{{"label", row.label}, {"fastest", fastest_in_row(sweep, row)}, {"steps", steps},
                                 {"study", study}});
  }
  write_json_lines(out, items);
}

}  // namespace course
