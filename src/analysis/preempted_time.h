// The time each recorded thread was preempted (off its CPU while runnable, from the experiment's
// off_cpu.bin): what the simulated work leaves out of the time a task ran (docs/WHAT-IF.md).
// A run on a loaded machine otherwise carries the other processes' time in its tasks' work.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "format/off_cpu.h"

namespace tasklens::format {
struct Experiment;
}

namespace tasklens::analysis {

class PreemptedTime {
 public:
  // Reads the experiment's preempted intervals of threads [0, threads); none without one.
  void load(const format::Experiment* x, uint32_t threads);
  // The intervals given, per thread index (sorted, disjoint: as format::OffCpu has them).
  void load(std::vector<std::vector<format::OffCpuInterval>> intervals);
  // The preempted time of `thread` within [a, b). Calls for one thread must come with
  // non-decreasing a (a replay's order): each interval is passed once. Inline up to the common
  // answer, none (the passes ask at every stretch of a task's time).
  uint64_t within(uint32_t thread, uint64_t a, uint64_t b) {
    if (thread >= threads_ || b <= a) return 0;
    const std::vector<format::OffCpuInterval>& iv = intervals()[thread];
    const size_t i = next_[thread];
    if (i == iv.size() || (iv[i].begin_ns >= b && iv[i].end_ns > a)) return 0;
    return overlap(thread, a, b);
  }
  uint64_t total_ns() const { return total_ns_; }

 private:
  uint64_t overlap(uint32_t thread, uint64_t a, uint64_t b);  // within()'s walk

  using Intervals = std::vector<std::vector<format::OffCpuInterval>>;
  const Intervals& intervals() const { return off_ ? off_->preempted : owned_; }

  std::shared_ptr<const format::OffCpu> off_;  // the experiment's intervals (not copied), or
  Intervals owned_;                            // those given
  size_t threads_ = 0;                         // the threads of intervals() read
  std::vector<size_t> next_;  // per thread: the first interval that may end after a
  uint64_t total_ns_ = 0;
};

}  // namespace tasklens::analysis
