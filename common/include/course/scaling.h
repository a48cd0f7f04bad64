/// @file scaling.h
/// @brief The table of a multi-GPU step's --scaling report: the time on 1, 2, 4, ... GPUs, and on K
/// GPUs the time lost against perfect scaling split into what it is made of.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "course/text_table.h"
#include "course/timing.h"

namespace course {

/// What a --scaling report measures on K > 1 GPUs, each a median time in ms.
struct ScalingTimes {
  double run_ms = 0;              ///< the whole run: every GPU's part, then the collective
  double part_alone_ms = 0;       ///< GPU 0's part by itself, with that GPU to itself
  double parts_together_ms = 0;   ///< every GPU's part at once, without the collective
  double collective_alone_ms = 0; ///< the collective by itself
};

/// On K GPUs, the time lost against perfect scaling (the run less T1 / K, T1 the time on one GPU)
/// is the sum of three differences of measured times, so nothing is left unnamed:
///   fixed      = GPU 0's part alone - T1 / K: what a part costs beyond its share of the work (launches,
///                a last pass, the grid's last wave), which does not shrink with the part;
///   together   = every part at once - GPU 0's part alone: the slowest GPU's part, and what the GPUs
///                cost each other while they work at once;
///   collective = the run - every part at once: what the collective adds in the run (beside it, the
///                collective timed alone).
struct ScalingLoss {
  double lost_ms = 0;        ///< the run - T1 / K
  double fixed_ms = 0;       ///< GPU 0's part alone - T1 / K
  double together_ms = 0;    ///< every part at once - GPU 0's part alone
  double collective_ms = 0;  ///< the run - every part at once
};
/// The loss on @p gpus GPUs against @p one_gpu_ms (T1), split as ScalingLoss says.
ScalingLoss split_scaling_loss(double one_gpu_ms, std::size_t gpus, const ScalingTimes& times);

/// The report's table: a row per GPU count, checked answers in the last column.
class ScalingTable {
 public:
  /// @param part       what each GPU holds, in the footnote ("band of rows", "share of the array")
  /// @param collective what joins the parts, in the headers and footnote ("all-reduce")
  ScalingTable(std::string part, std::string collective);
  /// The one-GPU row, T1: the time every other row is compared with. Comes first.
  void add_one_gpu(double run_ms, bool pass);
  /// The row of @p gpus GPUs (more than one).
  /// @throws std::logic_error before the one-GPU row
  void add(std::size_t gpus, const ScalingTimes& times, bool pass);
  /// The table, then a footnote saying what its columns are.
  void print(std::ostream& out) const;

 private:
  std::string part_, collective_;
  double one_gpu_ms_ = 0;
  TextTable table_;
};

/// The rows of a --scaling report: the same work on 1, 2, 4, ... of @p every_gpu. For each count,
/// @p make(devices) builds the machine, which has run() (every GPU's part, then the collective),
/// run_parts() (every GPU's part alone), all_reduce() (the collective alone) and
/// time(work, options) (course::time_gpus on its GPUs); @p passes(machine) checks its answer after a
/// whole run; on more than one GPU, @p part_alone_ms(k) times GPU 0's part of k GPUs by itself.
/// @return whether every answer passed
template <class Make, class Passes, class PartAloneMs>
bool add_scaling_rows(ScalingTable& table, const std::vector<int>& every_gpu, const TimingOptions& timing,
                      const Make& make, const Passes& passes, const PartAloneMs& part_alone_ms) {
  bool all_pass = true;
  for (std::size_t k = 1; k <= every_gpu.size(); k *= 2) {
    auto machine = make(std::vector<int>(every_gpu.begin(), every_gpu.begin() + static_cast<long>(k)));
    ScalingTimes times;
    times.run_ms = machine.time([&] { machine.run(); }, timing).median_ms;
    const bool pass = passes(machine);
    all_pass = all_pass && pass;
    if (k == 1) {
      table.add_one_gpu(times.run_ms, pass);
      continue;
    }
    times.parts_together_ms = machine.time([&] { machine.run_parts(); }, timing).median_ms;
    times.collective_alone_ms = machine.time([&] { machine.all_reduce(); }, timing).median_ms;
    times.part_alone_ms = part_alone_ms(k);
    table.add(k, times, pass);
  }
  return all_pass;
}

}  // namespace course
