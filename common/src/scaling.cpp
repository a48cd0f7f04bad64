#include "course/scaling.h"

#include <ostream>
#include <stdexcept>
#include <utility>

namespace course {

ScalingLoss split_scaling_loss(double one_gpu_ms, std::size_t gpus, const ScalingTimes& t) {
  const double share_ms = one_gpu_ms / static_cast<double>(gpus);
  return {t.run_ms - share_ms, t.part_alone_ms - share_ms, t.parts_together_ms - t.part_alone_ms,
          t.run_ms - t.parts_together_ms};
}

ScalingTable::ScalingTable(std::string part, std::string collective)
    : part_(std::move(part)),
      collective_(std::move(collective)),
      table_({"GPUs", "time ms", "speed-up", "efficiency", "lost ms", "fixed ms", "together ms", collective_ + " ms",
              collective_ + " alone ms", "check"}) {}

void ScalingTable::add_one_gpu(double run_ms, bool pass) {
  one_gpu_ms_ = run_ms;
  table_.add_row({"1", format_significant(run_ms, 4), "1.00x", "100%", "-", "-", "-", "-", "-", pass ? "PASS" : "FAIL"});
}

void ScalingTable::add(std::size_t gpus, const ScalingTimes& times, bool pass) {
  if (one_gpu_ms_ <= 0) throw std::logic_error("ScalingTable: the one-GPU row comes first");
  const double speedup = one_gpu_ms_ / times.run_ms;
  const ScalingLoss loss = split_scaling_loss(one_gpu_ms_, gpus, times);
  table_.add_row({std::to_string(gpus), format_significant(times.run_ms, 4), format_significant(speedup, 3) + "x",
                  format_significant(100 * speedup / static_cast<double>(gpus), 3) + "%",
                  format_significant(loss.lost_ms, 3), format_significant(loss.fixed_ms, 3),
                  format_significant(loss.together_ms, 3), format_significant(loss.collective_ms, 3),
                  format_significant(times.collective_alone_ms, 3), pass ? "PASS" : "FAIL"});
}

void ScalingTable::print(std::ostream& out) const {
  table_.print(out);
  out << "\nspeed-up and efficiency against 1 GPU (T1); on K GPUs, lost = the time - T1 / K = fixed + together + "
      << collective_ << ", where fixed = GPU 0's " << part_ << " alone - T1 / K, together = every " << part_
      << " at once - GPU 0's " << part_ << " alone, and " << collective_ << " = the time - every " << part_
      << " at once; the " << collective_ << " also timed alone\n";
}

}  // namespace course
