// ProfilePass: perf_event counters per task in a trace (`tasklens run --counters`). The recorder
// writes each thread's counter values (running totals) just before every task switch; the delta
// since the thread's previous sample is what the task that ran in between consumed, so it goes to
// the thread's current task, and an instance's sums over its fragments go to its construct's
// statistics when it ends (as profile mode does in the process, recorder/profiler.cpp).
#include "analysis/profile.h"
#include "format/event_views.h"

namespace tasklens::analysis {

void ProfilePass::counters(const replay::Record& rec, const replay::TaskModel&) {
  const auto c = format::ev::Counters::of(rec.ev);
  ThreadState& ts = thread_state(rec.thread);
  Run* run = current_run(rec.thread);
  // Bounded by the event's own limit and by the metadata's counters: a damaged `first` or
  // `count` is ignored, never an index.
  uint32_t n = c.count < format::kCountersPerEvent ? c.count : format::kCountersPerEvent;
  if (n == 0 || c.first >= counter_count_) {
    ++bad_counter_samples_;
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t index = uint32_t(c.first) + i;
    if (index >= counter_count_) {
      ++bad_counter_samples_;
      break;
    }
    uint64_t v = c.value(i);
    uint32_t bit = 1u << index;
    // A running total never decreases: a smaller value (damage, a reopened group) starts over.
    // An implicit task's counters are those of the explicit fragments in its stubs (exit_stub):
    // profile mode reads none at its own switches.
    if ((ts.counter_valid & bit) && v >= ts.counter_last[index] && run && !run->implicit) {
      run->counter_sum[index] += v - ts.counter_last[index];
      run->fragment_counters[index] += v - ts.counter_last[index];
    }
    ts.counter_last[index] = v;
    ts.counter_valid |= bit;
  }
}

void ProfilePass::add_counters(const Run& x, TaskConstruct& c) {
  for (size_t i = 0; i < c.counters.size() && i < x.counter_sum.size(); ++i) {
    c.counters[i].second.add(x.counter_sum[i]);
  }
}

}  // namespace tasklens::analysis
