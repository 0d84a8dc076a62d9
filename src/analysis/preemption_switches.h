// The experiment's preempted intervals (off_cpu.bin: a thread off its CPU while runnable) as one
// time-ordered list of switches off and back on: for the passes that
// split their stretches of a thread's time where it lost and got back its CPU (the breakdown's
// preempted column, the ompP classes' preempted time). One walk per replay, in time order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "format/experiment.h"
#include "format/off_cpu.h"

namespace tasklens::analysis {

class PreemptionSwitches {
 public:
  using Switch = format::OffCpuSwitch;

  // The switches of threads [0, threads); none without an experiment or its off_cpu.bin. The
  // list is the experiment's (format::OffCpu::switches, made once): the passes share it.
  void load(const format::Experiment* x, uint32_t threads) {
    off_.reset();
    list_ = nullptr;
    size_ = next_ = 0;
    threads_ = threads;
    if (!x) return;
    format::off_cpu(*x);
    off_ = x->off_cpu_cache;
    list_ = off_->switches.data();
    size_ = off_->switches.size();
    skip_others();
  }

  bool left() const { return next_ < size_; }  // switches not passed yet
  bool due(uint64_t t) const { return left() && list_[next_].time <= t; }
  // Calls f(switch) for the switches at or before t, in time order.
  template <class F>
  void pass(uint64_t t, F&& f) {
    while (due(t)) {
      f(list_[next_++]);
      skip_others();
    }
  }

 private:
  // Past the switches of threads the replay does not have (a damaged off_cpu.bin).
  void skip_others() {
    while (left() && list_[next_].thread >= threads_) ++next_;
  }

  std::shared_ptr<const format::OffCpu> off_;  // the experiment's, kept alive
  const Switch* list_ = nullptr;               // its switches
  size_t size_ = 0, next_ = 0;
  uint32_t threads_ = 0;
};

}  // namespace tasklens::analysis
