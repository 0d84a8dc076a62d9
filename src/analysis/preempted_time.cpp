// PreemptedTime: the preempted intervals of each thread, walked once in time order.
#include "analysis/preempted_time.h"

#include <algorithm>

#include "format/experiment.h"

namespace tasklens::analysis {

void PreemptedTime::load(const format::Experiment* x, uint32_t threads) {
  off_.reset();
  owned_.clear();
  threads_ = 0;
  next_.assign(threads, 0);
  total_ns_ = 0;
  if (!x) return;
  // The experiment's own (read once, format::off_cpu): every pass that loads them shares them.
  threads_ = std::min<size_t>(format::off_cpu(*x).preempted.size(), threads);
  off_ = x->off_cpu_cache;
}

void PreemptedTime::load(std::vector<std::vector<format::OffCpuInterval>> intervals) {
  off_.reset();
  owned_ = std::move(intervals);
  threads_ = owned_.size();
  next_.assign(owned_.size(), 0);
  total_ns_ = 0;
}

uint64_t PreemptedTime::overlap(uint32_t thread, uint64_t a, uint64_t b) {
  const std::vector<format::OffCpuInterval>& iv = intervals()[thread];
  size_t& i = next_[thread];
  while (i < iv.size() && iv[i].end_ns <= a) ++i;
  uint64_t ns = 0;
  for (size_t k = i; k < iv.size() && iv[k].begin_ns < b; ++k) {
    ns += std::min(b, iv[k].end_ns) - std::max(a, iv[k].begin_ns);
  }
  total_ns_ += ns;
  return ns;
}

}  // namespace tasklens::analysis
