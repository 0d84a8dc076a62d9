// The simulation's scheduling policy (simulation.h): each worker's deque, the idle workers and
// whom a queued task wakes, and stealing under libomp's task scheduling constraint.
#include "simulate/simulation.h"

namespace tasklens::simulate::detail {

// Idle workers in two lists: free ones (any task will do) and constrained ones (idle_[1]);
// a worker's constraint does not change while it is idle.
void Simulation::go_idle(uint32_t w) {
  Worker& wk = workers_[w];
  if (wk.idle) return;
  wk.idle = true;
  wk.idle_list = constraint(w) != kNone;
  std::vector<uint32_t>& list = idle_[wk.idle_list];
  wk.idle_pos = uint32_t(list.size());
  list.push_back(w);
}

void Simulation::wake(uint32_t w) {
  if (w == kNone) return;
  Worker& wk = workers_[w];
  if (!wk.idle) return;
  std::vector<uint32_t>& list = idle_[wk.idle_list];
  uint32_t last = list.back();
  list[wk.idle_pos] = last;
  workers_[last].idle_pos = wk.idle_pos;
  list.pop_back();
  wk.idle = false;
  if (!wk.pending) schedule(w, now_);
}

// Task `task` was queued: a random free idle worker comes for it, else an idle worker whose
// waiting task is an ancestor of it (the nearest of at most kWakeAncestors), as among
// libomp's spinning threads the first that may take the task does.
void Simulation::wake_for(uint32_t task) {
  if (!idle_[0].empty()) {
    wake(idle_[0][random() % idle_[0].size()]);
    return;
  }
  if (idle_[1].empty()) return;
  uint32_t a = dag_.tasks[task].parent;
  for (uint32_t i = 0; i < kWakeAncestors && a != kNone; ++i, a = dag_.tasks[a].parent) {
    uint32_t w = ts_[a].worker;
    if (w != kNone && workers_[w].idle && constraint(w) == a) {
      wake(w);
      return;
    }
  }
}

// Nothing is scheduled but the program has not ended: let every idle worker look once more,
// the scheduling constraint aside (a graph the constraint would dead-lock, never libomp's).
bool Simulation::rescue() {
  if ((idle_[0].empty() && idle_[1].empty()) || relaxed_) return false;
  relaxed_ = true;
  for (const std::vector<uint32_t>& list : idle_) {
    std::vector<uint32_t> idle = list;
    for (uint32_t w : idle) wake(w);
  }
  return true;
}

// Numbers the creation tree in pre-order: the descendants of task t are the tasks numbered
// pre_[t] + 1 .. pre_[t] + size_[t] - 1. A task is created after its parent (a smaller index);
// one that is not (a damaged graph) counts as a root.
void Simulation::number_subtrees() {
  const auto n = uint32_t(dag_.tasks.size());
  size_.assign(n, 1);
  for (uint32_t t = n; t-- > 1;) {
    uint32_t p = dag_.tasks[t].parent;
    if (p < t) size_[p] += size_[t];
  }
  pre_.resize(n);
  std::vector<uint32_t> next(n);  // per task: the number its next child gets
  uint32_t roots = 0;
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t p = dag_.tasks[t].parent;
    if (p < t) {
      pre_[t] = next[p];
      next[p] += size_[t];
    } else {
      pre_[t] = roots;
      roots += size_[t];
    }
    next[t] = pre_[t] + 1;
  }
}

// The deques that hold tasks, each once (victims to look at without scanning every worker).
void Simulation::push_task(uint32_t w, uint32_t task) {
  Worker& wk = workers_[w];
  wk.deque.push_back(task);
  if (wk.ready_pos == kNone) {
    wk.ready_pos = uint32_t(ready_.size());
    ready_.push_back(w);
  }
}

void Simulation::popped(uint32_t w) {
  Worker& wk = workers_[w];
  if (!wk.deque.empty() || wk.ready_pos == kNone) return;
  uint32_t last = ready_.back();
  ready_[wk.ready_pos] = last;
  workers_[last].ready_pos = wk.ready_pos;
  ready_.pop_back();
  wk.ready_pos = kNone;
}

// The first allowed task from the head (libomp's __kmp_steal_task walks its deque the same
// way); at most deque_size entries are looked at, as libomp's deque holds no more.
bool Simulation::take_from(uint32_t v, uint32_t ref, uint32_t* task, size_t* budget) {
  std::deque<uint32_t>& d = workers_[v].deque;
  size_t limit = std::min<size_t>(d.size(), std::max<uint32_t>(cfg_.deque_size, 1));
  limit = std::min(limit, *budget);
  *budget -= limit;
  for (size_t i = 0; i < limit; ++i) {
    if (allowed(d[i], ref)) {
      *task = d[i];
      d.erase(d.begin() + std::ptrdiff_t(i));
      popped(v);
      return true;
    }
  }
  return false;
}

// A task for worker w to run: its own deque's tail, else a steal. kNone if none.
uint32_t Simulation::find_work(uint32_t w) {
  Worker& wk = workers_[w];
  const uint32_t ref = constraint(w);
  if (!wk.deque.empty() && allowed(wk.deque.back(), ref)) {
    uint32_t t = wk.deque.back();
    wk.deque.pop_back();
    popped(w);
    return t;
  }
  const auto n = uint32_t(workers_.size());
  if (n < 2) return kNone;
  uint32_t task = kNone;
  // A constrained worker looks at no more than kScanBudget queued tasks per attempt (it is
  // woken again when a task it may take is queued): bounded work however many workers wait.
  size_t budget = ref == kNone ? SIZE_MAX : kScanBudget;
  auto try_victim = [&](uint32_t v) {
    if (v == w || v == kNone || workers_[v].deque.empty() || budget == 0) return false;
    if (!take_from(v, ref, &task, &budget)) return false;
    wk.last_victim = v;
    ++result_.steals;
    return true;
  };
  if (try_victim(wk.last_victim)) return task;
  wk.last_victim = kNone;
  uint32_t v = uint32_t(random() % (n - 1));
  if (v >= w) ++v;
  if (try_victim(v)) return task;
  // libomp keeps drawing victims while it spins; the first one with a task wins: the workers
  // whose deques hold tasks, from a random one on (not every worker: idle ones are many).
  const auto k = uint32_t(ready_.size());
  if (k == 0) return kNone;
  uint32_t from = uint32_t(random() % k);
  for (uint32_t i = 0; i < k && budget; ++i) {
    if (try_victim(ready_[(from + i) % k])) return task;
  }
  return kNone;
}

}  // namespace tasklens::simulate::detail
