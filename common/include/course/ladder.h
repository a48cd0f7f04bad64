/// @file ladder.h
/// @brief A lesson's ladder: its steps' measurements in order, each with its speed-ups over the previous
/// step and over the CPU, and the text table that shows them.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "course/measurement.h"

namespace course {

/// One row of a lesson's ladder: a measurement and its speed-ups.
struct LadderRow {
  Measurement m;                ///< the step's measurement
  double speedup_previous = 0;  ///< how many times faster than the previous passing step (0: none)
  double speedup_cpu = 0;       ///< how many times faster than the first CPU step (0: none)
  double speedup_all_cores = 0; ///< how many times faster than the fastest CPU step, when the ladder
                                ///< has a second, faster one (every core, vector instructions; 0: none)
};

/// Computes the speed-ups of a ladder: over the previous step that passed (skipped and failed steps
/// are shown but do not serve as a baseline), over the first CPU step, and over the fastest CPU step
/// when the ladder has more than one (a sequential loop and one on every core). Between steps of the same
/// size a speed-up is a ratio of times (so a step that needs fewer bytes for the same answer gets the
/// credit); a step run at another size is compared by rate instead.
std::vector<LadderRow> make_ladder(const std::vector<Measurement>& steps);

/// Prints a ladder as a table under @p title: per step its time, rate, share of the ceiling,
/// speed-ups and check; then the ceiling, size and device once, and why steps failed or were skipped.
void print_ladder(std::ostream& out, const std::string& title, const std::vector<LadderRow>& rows);

}  // namespace course
