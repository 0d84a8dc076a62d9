// The runtime's time inside task creation. OMPT reports task_create from inside the runtime's
// creation (libomp: after allocating the task and copying its firstprivates, before queueing it)
// and no return from it, so the time between a thread's events around a task_create is counted
// as its creator's work unless it is taken out. This file estimates that time per run (and per
// task construct when the trace holds enough samples) and claims it, creation by creation, from
// the creator's working time: the breakdown counts it as overhead, the ompP classes as task
// management, the task graph as runtime weight on the path (the method and its error:
// docs/BREAKDOWN.md, "Task creation: the estimate and its error").
//
// Estimate, from each thread's own stream (in time order; dependence records are part of the
// creation they follow):
//   - back-to-back: the gap between two task_create events of one thread with no other event
//     between them is one whole creation (the queueing of the first, the allocation of the
//     second) plus whatever the program ran between the two constructs;
//   - isolated (when a run has too few back-to-back gaps): a task_create between two other
//     events, the time from the event before it to the event after it: one creation plus the
//     runtime's and the program's time around it.
// The estimate is the 10th percentile of the back-to-back gaps, or of the isolated spans when
// there are fewer than kMinSamples back-to-back gaps: the creations with the least program code
// around them. Per construct: the same over the samples of that construct, when it has
// kMinSamples of them.
//
// Claims: each task_create claims its construct's estimate from its creator's working time not
// claimed yet, first since the creator's event before it, the rest after it up to the creator's
// next event; a creation never claims more than the working time around it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "format/event.h"
#include "format/event_views.h"
#include "format/experiment.h"

namespace tasklens::analysis {

struct CreationCost {
  static constexpr uint64_t kMinSamples = 32;
  enum class Method : uint8_t { kNone, kBackToBack, kIsolated };
  Method method = Method::kNone;
  uint64_t ns = 0;       // the run's estimate per creation (0: none, nothing is claimed)
  uint64_t samples = 0;  // gaps or spans it is drawn from
  std::unordered_map<uint64_t, uint64_t> by_construct;  // task_create codeptr -> its estimate

  // The estimate for a creation at `codeptr`.
  uint64_t of(uint64_t codeptr) const {
    auto it = by_construct.find(codeptr);
    return it != by_construct.end() ? it->second : ns;
  }
};
const char* creation_method_name(CreationCost::Method m);  // "back_to_back", "isolated", "none"

// The samples of one thread's events in time order, added to per-construct lists.
class CreationSampler {
 public:
  void add(const format::Event& e);  // the thread's next event (its time in ns)
  // The thread's next events, times in ticks of `clock` (a stream's chunk): only the events
  // around creations are converted.
  void add(const format::Event* events, size_t count, const format::Clock& clock);
  void next_thread();                        // the following events are another thread's
  void merge(const CreationSampler& other);  // adds its samples (another thread's)
  CreationCost estimate();                   // (reorders the samples)
  size_t samples() const { return back_to_back_.size() + isolated_.size(); }

 private:
  struct Sample {
    uint64_t codeptr, ns;
  };
  // The next event, its time in ns = to_ns(e.time).
  template <class ToNs>
  void take(const format::Event& e, const ToNs& to_ns);
  std::vector<Sample> back_to_back_, isolated_;
  bool have_prev_ = false;
  bool prev_create_ = false;
  uint64_t prev_time_ = 0, prev_code_ = 0;  // the time as given (ticks or ns)
  bool pending_ = false;  // an isolated task_create waits for the event after it
  uint64_t pending_ns_ = 0, pending_before_ = 0, pending_code_ = 0;
};

// Reads the experiment's streams (a bounded number of events per thread) and estimates. The
// result is kept for the experiment's directory: the passes of one report share one scan.
const CreationCost& creation_cost(const format::Experiment& x);

// True for the records that belong to the creation before them (its dependences).
inline bool part_of_creation(format::Kind k) {
  return k == format::Kind::kDependence || k == format::Kind::kTaskDependence;
}

// Per thread, how much of the working time between its events the creations claim.
class CreationClaims {
 public:
  struct Claim {
    uint64_t after_ns = 0;   // at the start of the interval: the previous creation's rest
    uint64_t before_ns = 0;  // at its end: this event's creation
    uint64_t total() const { return after_ns + before_ns; }
  };
  void begin(uint32_t threads, const CreationCost* cost);
  bool active() const { return cost_ && (cost_->ns || !cost_->by_construct.empty()); }
  // The thread's next event at e.time; `working`: it ran a task body since its event before.
  // The rest of a creation goes on past its dependence records (part_of_creation()).
  // Inline: three passes call it for every event, and the call cost a third of it (callgrind).
  __attribute__((always_inline)) Claim on_event(uint32_t thread, const format::Event& e,
                                                bool working) {
    Claim c;
    if (!cost_) return c;
    if (__builtin_expect(thread >= threads_.size(), 0)) grow(thread);
    Thread& th = threads_[thread];
    // Most events are no creation and follow one's rest: nothing to claim, nothing owed after.
    if (__builtin_expect(th.debt == 0 && e.kind != format::Kind::kTaskCreate, 1)) {
      th.seen = true;
      th.last = e.time;
      return c;
    }
    uint64_t d = th.seen && e.time > th.last ? e.time - th.last : 0;
    th.seen = true;
    th.last = e.time;
    if (!working) {
      th.debt = 0;
      return c;
    }
    c.after_ns = std::min(th.debt, d);
    th.debt = part_of_creation(e.kind) ? th.debt - c.after_ns : 0;
    if (e.kind == format::Kind::kTaskCreate) {
      uint64_t cost = cost_of(format::ev::TaskCreate::of(e).codeptr);
      c.before_ns = std::min(cost, d - c.after_ns);
      th.debt = cost - c.before_ns;
    }
    return c;
  }

 private:
  struct Thread {
    uint64_t last = 0;  // its latest event
    uint64_t debt = 0;  // what its latest creation still claims after it
    bool seen = false;
  };
  __attribute__((noinline)) void grow(uint32_t thread) { threads_.resize(thread + 1); }
  // The estimate of a creation at `code`. Most creations are of one of the last two constructs
  // (fib's two task constructs alternate): their estimates are kept.
  uint64_t cost_of(uint64_t code) {
    if (have_last_[0] && code == last_code_[0]) return last_cost_[0];
    if (have_last_[1] && code == last_code_[1]) return last_cost_[1];
    return look_up(code);
  }
  __attribute__((noinline)) uint64_t look_up(uint64_t code);
  const CreationCost* cost_ = nullptr;
  std::vector<Thread> threads_;
  bool have_last_[2] = {false, false};  // the estimates of the last two constructs, newest first
  uint64_t last_code_[2] = {0, 0}, last_cost_[2] = {0, 0};
};

}  // namespace tasklens::analysis
