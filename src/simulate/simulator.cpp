// simulate(): the recorded task graph on P workers under libomp's policy (simulator.h); the
// workers' main loop, task creation and completion, and the waits (simulation.h).
#include "simulate/simulator.h"

#include "simulate/simulation.h"

namespace tasklens::simulate {
namespace detail {

SimResult Simulation::run() {
  for (uint32_t w = 1; w < workers_.size(); ++w) go_idle(w);
  start(0, 0);
  schedule(0, 0);
  while (!done_) {
    if (queue_.empty()) {
      if (!rescue()) {
        result_.stalled = true;
        break;
      }
      continue;
    }
    auto [t, w] = queue_.top();
    queue_.pop();
    now_ = t;
    workers_[w].pending = false;
    step(w);
  }
  result_.wall_ns = done_ ? end_ : now_;
  uint64_t total = result_.wall_ns * workers_.size();
  uint64_t busy = result_.work_ns + result_.overhead_ns;
  result_.idle_ns = total > busy ? total - busy : 0;
  return result_;
}

bool Simulation::satisfied(uint32_t task, uint32_t w) {
  TaskState& s = ts_[task];
  switch (s.wait) {
    case Wait::kNone:
      return true;
    case Wait::kTaskwait:
      if (s.live_children) return false;
      // Over: left as it was, the task's next children would count as waited for (it would
      // run each at once from its own deque, as a task in a taskwait does).
      s.wait = Wait::kNone;
      return true;
    case Wait::kDepend: {
      // The task that stands for it: the item the waiting task's pc has just passed.
      const DagTask& d = dag_.tasks[task];
      if (ts_[uint32_t(dag_.items[d.first_item + s.pc - 1].value)].preds_left) return false;
      s.wait = Wait::kNone;
      return true;
    }
    case Wait::kGroup:
      if (groups_[s.open_group].live) return false;
      // Closed once: asked again, the task must not pop a second (perhaps no) group.
      s.open_group = groups_[s.open_group].prev_open;
      s.wait = Wait::kNone;
      return true;
    case Wait::kBarrier: {
      const RegionState& rs = regions_[s.region];
      if (rs.gen <= s.wait_gen) return false;
      // The member goes on with the first implicit task of its chain.
      const DagRegion& r = dag_.regions[s.region];
      uint32_t first = chain_first(r, rs.size, s.team_index % rs.size);
      s.wait = Wait::kNone;
      if (first != s.team_index) switch_member(w, r.members[first]);
      return true;
    }
    case Wait::kJoin:
      return false;  // fork() or the last member clears it
  }
  return true;
}

// Returns the time the creator spends starting the child at once on a full deque (0 when not).
uint64_t Simulation::create(uint32_t parent, uint32_t child, uint32_t w) {
  TaskState& p = ts_[parent];
  TaskState& c = ts_[child];
  const DagTask& d = dag_.tasks[child];
  ++p.live_children;
  c.region = p.region;
  if (c.region != kNone) ++regions_[c.region].live_explicit;
  c.group = p.open_group != kNone ? p.open_group : p.group;
  // A group counts its own tasks and its nested groups that hold tasks: a task is added to its
  // innermost group only, and the count goes up the nesting only where a group stops being
  // empty (O(1) amortized, not O(nesting) per task).
  for (uint32_t g = c.group; g != kNone; g = groups_[g].parent) {
    if (groups_[g].live++) break;
  }
  c.created = true;
  c.preds_left = d.preds ? preds_left_at_creation(child) : 0;
  Worker& wk = workers_[w];
  bool cut = d.construct != kNone && dag_.constructs[d.construct].group == cfg_.cutoff_construct;
  if (cut && d.depth > cfg_.cutoff_depth && d.preds == 0 && d.succs == 0) {
    ++result_.inlined;
    c.inlined = true;
    if (d.construct < costs_.creation_ns.size()) wk.credit += costs_.creation_ns[d.construct];
    start(child, w);
    return 0;
  }
  if (cut) ++result_.kept;
  if (d.is_explicit) ++result_.tasks;
  if (c.preds_left) return 0;  // queued when its last predecessor completes
  if (d.undeferred) {
    start(child, w);  // runs at once on top of its creator, its dispatch in the creator's work
    return 0;
  }
  if (wk.deque.size() >= cfg_.deque_size) {
    // Runs at once on top of its creator (libomp's task throttling). A team of one's task had
    // its dispatch measured apart from its creator's work (task_dag.h): the same start here.
    start(child, w);
    return d.ran_immediately ? schedule_cost(child) : 0;
  }
  push_task(w, child);
  wake_for(child);
  return 0;
}

void Simulation::release_successors(uint32_t task, uint32_t w) {
  const DagTask& d = dag_.tasks[task];
  for (uint32_t i = 0; i < d.succs; ++i) {
    uint32_t succ = dag_.successors[d.first_succ + i];
    TaskState& ss = ts_[succ];
    if (!ss.created) {
      ++done_preds_[succ + 1ull];  // one predecessor fewer to wait for once created
    } else if (ss.preds_left && --ss.preds_left == 0) {
      if (dag_.tasks[succ].taskwait_depend) {
        taskwait_depend_done(succ, w);
      } else {
        push_task(w, succ);
        wake_for(succ);
      }
    }
  }
}

void Simulation::taskwait_depend_done(uint32_t marker, uint32_t w) {
  // The recording's taskwait_complete: its creator goes on, and what depends on it (the next
  // writer of what it read) may run.
  wake(ts_[dag_.tasks[marker].parent].worker);
  release_successors(marker, w);
}

uint32_t Simulation::preds_left_at_creation(uint32_t task) {
  uint32_t left = dag_.tasks[task].preds;
  if (uint32_t* early = left ? done_preds_.find(task + 1ull) : nullptr) {
    // Predecessors that completed before it was created.
    left -= std::min(left, *early);
    done_preds_.erase(task + 1ull);
  }
  return left;
}

void Simulation::complete(uint32_t task, uint32_t w) {
  workers_[w].stack.pop_back();
  if (task == 0) {
    done_ = true;
    end_ = now_;
    return;
  }
  const DagTask& d = dag_.tasks[task];
  TaskState& s = ts_[task];
  if (d.parent != kNone) {
    TaskState& p = ts_[d.parent];
    if (p.live_children && --p.live_children == 0 && p.wait == Wait::kTaskwait) wake(p.worker);
  }
  for (uint32_t g = s.group; g != kNone; g = groups_[g].parent) {
    Group& grp = groups_[g];
    if (grp.live == 0 || --grp.live) break;  // still not empty: the groups around it neither
    if (grp.owner != kNone && ts_[grp.owner].wait == Wait::kGroup) wake(ts_[grp.owner].worker);
  }
  if (d.succs) release_successors(task, w);
  if (s.region != kNone) {
    RegionState& rs = regions_[s.region];
    if (rs.live_explicit) --rs.live_explicit;
    check_barrier(s.region);
  }
}

// Runs worker w from now_ until it waits for time to pass or for something to happen.
void Simulation::step(uint32_t w) {
  Worker& wk = workers_[w];
  for (;;) {
    if (done_) return;
    if (wk.stack.empty() ||
        (ts_[wk.stack.back()].wait != Wait::kNone && !satisfied(wk.stack.back(), w))) {
      uint32_t t = find_work(w);
      if (t == kNone) {
        go_idle(w);
        return;
      }
      start(t, w);
      if (uint64_t cost = schedule_cost(t)) {
        charge(w, cost);
        return;
      }
      continue;
    }
    uint32_t task = wk.stack.back();
    TaskState& s = ts_[task];
    const DagTask& d = dag_.tasks[task];
    if (s.pc == d.items) {
      if (!d.is_explicit && task != 0 && s.region != kNone) {
        member_stop(task, w, true);
      } else {
        complete(task, w);
      }
      continue;
    }
    const DagItem& item = dag_.items[d.first_item + s.pc++];
    switch (item.kind) {
      case DagItem::kWork: {
        uint64_t ns = item.value;
        uint64_t cut = std::min(ns, wk.credit);
        ns -= cut;
        wk.credit -= cut;
        ++result_.fragments;
        if (ns) {
          result_.work_ns += ns;
          // The next event anyway (before every queued one): no need to queue it.
          Event next{now_ + ns, w};
          if (queue_.empty() || next < queue_.top()) {
            now_ = next.first;
            break;
          }
          schedule(w, next.first);
          return;
        }
        break;
      }
      case DagItem::kCreate: {
        auto child = uint32_t(item.value);
        if (uint64_t cost = create(task, child, w)) {
          charge(w, cost);
          return;
        }
        break;
      }
      case DagItem::kTaskwait:
        if (s.live_children) s.wait = Wait::kTaskwait;
        if (costs_.taskwait_ns && !s.inlined) {
          charge(w, costs_.taskwait_ns);
          return;
        }
        break;
      case DagItem::kTaskwaitDepend: {
        // The task that stands for it never runs: the wait ends with its predecessors.
        auto marker = uint32_t(item.value);
        ts_[marker].created = true;
        ts_[marker].preds_left = preds_left_at_creation(marker);
        if (ts_[marker].preds_left) {
          s.wait = Wait::kDepend;
        } else {
          release_successors(marker, w);  // nothing to wait for: complete at once
        }
        if (costs_.taskwait_ns && !s.inlined) {
          charge(w, costs_.taskwait_ns);
          return;
        }
        break;
      }
      case DagItem::kGroupBegin: {
        Group g;
        g.parent = s.open_group != kNone ? s.open_group : s.group;
        g.prev_open = s.open_group;
        g.owner = task;
        s.open_group = uint32_t(groups_.size());
        groups_.push_back(g);
        break;
      }
      case DagItem::kGroupEnd:
        if (s.open_group == kNone) break;
        if (groups_[s.open_group].live) {
          s.wait = Wait::kGroup;
        } else {
          s.open_group = groups_[s.open_group].prev_open;
        }
        break;
      case DagItem::kBarrier:
        if (!d.is_explicit && task != 0 && s.region != kNone) member_stop(task, w, false);
        break;
      case DagItem::kRegion:
        fork(task, w, uint32_t(item.value));
        break;
    }
  }
}

}  // namespace detail

SimResult simulate(const TaskDag& dag, const SimCosts& costs, const SimConfig& config) {
  if (dag.tasks.empty()) return SimResult{};
  return detail::Simulation(dag, costs, config).run();
}

}  // namespace tasklens::simulate
