// The experiment's preempted intervals (off_cpu.bin: a thread off its CPU while runnable) as one
// time-ordered list of switches off and back on: for the passes that
// split their stretches of a thread's time where it lost and got back its CPU (the breakdown's
// preempted column, the ompP classes' preempted time). One walk per replay, in time order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "format/experiment.h"
#include "format/off_cpu.h"

namespace tasklens::analysis {

class PreemptionSwitches {
 public:
  struct Switch {
    uint64_t time;
    uint32_t thread;
    bool off;  // the thread lost its CPU (true) or got it back
  };

  // The intervals of threads [0, threads); none without an experiment or its off_cpu.bin.
  void load(const format::Experiment* x, uint32_t threads) {
    list_.clear();
    next_ = 0;
    if (!x) return;
    const format::OffCpu& off = format::off_cpu(*x);
    for (uint32_t t = 0; t < off.preempted.size() && t < threads; ++t) {
      for (const format::OffCpuInterval& iv : off.preempted[t]) {
        list_.push_back({iv.begin_ns, t, true});
        list_.push_back({iv.end_ns, t, false});
      }
    }
    std::stable_sort(list_.begin(), list_.end(),
                     [](const Switch& a, const Switch& b) { return a.time < b.time; });
  }

  bool left() const { return next_ < list_.size(); }  // switches not passed yet
  bool due(uint64_t t) const { return left() && list_[next_].time <= t; }
  // Calls f(switch) for the switches at or before t, in time order.
  template <class F>
  void pass(uint64_t t, F&& f) {
    while (due(t)) f(list_[next_++]);
  }

 private:
  std::vector<Switch> list_;
  size_t next_ = 0;
};

}  // namespace tasklens::analysis
