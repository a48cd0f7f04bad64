/// @file charts.h
/// @brief The runner's charts, drawn as SVG: a ladder's bars and a lesson's roofline.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "course/ladder.h"

namespace course {

/// Draws a ladder as an SVG bar chart: one bar per step that passed, on a logarithmic scale. The bars
/// show the rate, with the ceiling marked when known; when every step ran the same size but they
/// count different work (one pass over the data against two), they show speed instead (times faster
/// than the slowest step), with time and rate as labels, so the fastest step has the longest bar.
void write_ladder_svg(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows);

/// Draws a lesson's roofline as SVG: each step that passed and counted both bytes and operations is a
/// point at its operational intensity (operations per byte) and its operation rate, under the two roofs
/// of the GPU: @p memory_gbs times the intensity (the memory roof, named @p memory_name), and the
/// steps' compute_ceiling.
void write_roofline_svg(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows,
                        double memory_gbs, const std::string& memory_name);

}  // namespace course
