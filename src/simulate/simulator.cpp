// simulate(): the recorded task graph on P workers under libomp's policy (simulator.h).
#include "simulate/simulator.h"

#include <algorithm>
#include <deque>
#include <queue>

namespace tasklens::simulate {
namespace {

enum class Wait : uint8_t { kNone, kTaskwait, kGroup, kBarrier, kJoin };

struct TaskState {
  uint32_t pc = 0;
  uint32_t live_children = 0;
  uint32_t preds_left = 0;
  uint32_t group = kNone;       // innermost taskgroup it belongs to
  uint32_t open_group = kNone;  // innermost taskgroup it has open
  uint32_t region = kNone;      // region whose barrier waits for it (explicit) or its own
  uint32_t worker = kNone;
  uint32_t team_index = 0;  // implicit tasks: number in the recorded team
  uint32_t wait_gen = 0;
  Wait wait = Wait::kNone;
  bool created = false;
  bool inlined = false;  // run inline in its creator by the cut-off
};

struct Group {
  uint32_t live = 0;           // its tasks not yet done, and its nested groups that hold some
  uint32_t parent = kNone;     // the group it is nested in (counts it while it holds tasks)
  uint32_t prev_open = kNone;  // the owner's open group before it
  uint32_t owner = kNone;
};

struct RegionState {
  uint32_t size = 1;  // S: team size in the simulation
  uint32_t team = 0;  // members that have implicit tasks to run
  uint32_t arrived = 0, done = 0, gen = 0;
  uint64_t live_explicit = 0;
  uint32_t encountering = kNone;
  std::vector<uint32_t> waiting;  // tasks waiting at the barrier
};

struct Worker {
  std::vector<uint32_t> stack;  // running task on top, suspended ones below
  std::deque<uint32_t> deque;
  uint32_t last_victim = kNone;
  uint64_t credit = 0;  // creation cost of inlined tasks, taken off its next work
  bool idle = false;
  bool pending = false;
  uint8_t idle_list = 0;  // Simulation::idle_[idle_list] holds it while idle
  uint32_t idle_pos = 0;
  uint32_t ready_pos = kNone;  // in Simulation::ready_ while its deque holds tasks
};

class Simulation {
 public:
  Simulation(const TaskDag& dag, const SimCosts& costs, const SimConfig& config)
      : dag_(dag),
        costs_(costs),
        cfg_(config),
        ts_(dag.tasks.size()),
        regions_(dag.regions.size()),
        workers_(std::clamp<uint32_t>(config.threads, 1, kMaxWorkers)) {
    rng_ = cfg_.seed ? cfg_.seed : 1;
    result_.threads = uint32_t(workers_.size());
    number_subtrees();
  }

  SimResult run() {
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

 private:
  using Event = std::pair<uint64_t, uint32_t>;  // (time, worker): earliest first, then lowest

  uint64_t random() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }

  void schedule(uint32_t w, uint64_t t) {
    workers_[w].pending = true;
    queue_.push({t, w});
  }

  // The task a worker's stack waits on with libomp's scheduling constraint (only its descendants
  // may run on top of it), kNone if none.
  uint32_t constraint(uint32_t w) const {
    const Worker& wk = workers_[w];
    if (wk.stack.empty() || relaxed_) return kNone;
    uint32_t top = wk.stack.back();
    return ts_[top].wait == Wait::kTaskwait || ts_[top].wait == Wait::kGroup ? top : kNone;
  }

  // Idle workers in two lists: free ones (any task will do) and constrained ones (idle_[1]);
  // a worker's constraint does not change while it is idle.
  void go_idle(uint32_t w) {
    Worker& wk = workers_[w];
    if (wk.idle) return;
    wk.idle = true;
    wk.idle_list = constraint(w) != kNone;
    std::vector<uint32_t>& list = idle_[wk.idle_list];
    wk.idle_pos = uint32_t(list.size());
    list.push_back(w);
  }

  void wake(uint32_t w) {
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
  static constexpr uint32_t kWakeAncestors = 64;
  void wake_for(uint32_t task) {
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
  bool rescue() {
    if ((idle_[0].empty() && idle_[1].empty()) || relaxed_) return false;
    relaxed_ = true;
    for (const std::vector<uint32_t>& list : idle_) {
      std::vector<uint32_t> idle = list;
      for (uint32_t w : idle) wake(w);
    }
    return true;
  }

  uint64_t schedule_cost(uint32_t task) const {
    uint32_t c = dag_.tasks[task].construct;
    return c < costs_.schedule_by_construct.size() ? costs_.schedule_by_construct[c]
                                                   : costs_.schedule_ns;
  }

  void start(uint32_t task, uint32_t w) {
    ts_[task].worker = w;
    workers_[w].stack.push_back(task);
  }

  // Numbers the creation tree in pre-order: the descendants of task t are the tasks numbered
  // pre_[t] + 1 .. pre_[t] + size_[t] - 1. A task is created after its parent (a smaller index);
  // one that is not (a damaged graph) counts as a root.
  void number_subtrees() {
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

  // libomp's __kmp_task_is_allowed: below a task waiting in a taskwait or taskgroup, only its
  // descendants may run. O(1): the pre-order numbers.
  bool allowed(uint32_t task, uint32_t ref) const {
    if (ref == kNone || relaxed_) return true;
    return pre_[task] > pre_[ref] && pre_[task] - pre_[ref] < size_[ref];
  }

  // The deques that hold tasks, each once (victims to look at without scanning every worker).
  void push_task(uint32_t w, uint32_t task) {
    Worker& wk = workers_[w];
    wk.deque.push_back(task);
    if (wk.ready_pos == kNone) {
      wk.ready_pos = uint32_t(ready_.size());
      ready_.push_back(w);
    }
  }
  void popped(uint32_t w) {
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
  static constexpr size_t kScanBudget = 256;
  bool take_from(uint32_t v, uint32_t ref, uint32_t* task, size_t* budget) {
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
  uint32_t find_work(uint32_t w) {
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

  uint32_t chain_next(const DagRegion& r, uint32_t size, uint32_t k) const {
    for (size_t i = size_t(k) + size; i < r.members.size(); i += size) {
      if (r.members[i] != kNone) return uint32_t(i);
    }
    return kNone;
  }
  uint32_t chain_first(const DagRegion& r, uint32_t size, uint32_t j) const {
    for (size_t i = j; i < r.members.size(); i += size) {
      if (r.members[i] != kNone) return uint32_t(i);
    }
    return kNone;
  }

  void fork(uint32_t encountering, uint32_t w, uint32_t region) {
    const DagRegion& r = dag_.regions[region];
    RegionState& rs = regions_[region];
    rs.size = r.nested ? 1 : uint32_t(workers_.size());
    rs.encountering = encountering;
    ts_[encountering].wait = Wait::kJoin;
    for (uint32_t k = 0; k < r.members.size(); ++k) {
      if (r.members[k] == kNone) continue;
      TaskState& s = ts_[r.members[k]];
      s.region = region;
      s.team_index = k;
    }
    for (uint32_t j = 0; j < rs.size; ++j) {
      uint32_t k = chain_first(r, rs.size, j);
      if (k == kNone) continue;
      ++rs.team;
      uint32_t target = j == 0 ? w : j;
      start(r.members[k], target);
      if (target != w) wake(target);
    }
    if (rs.team == 0) ts_[encountering].wait = Wait::kNone;
  }

  void check_barrier(uint32_t region) {
    RegionState& rs = regions_[region];
    if (rs.arrived < rs.team || rs.arrived == 0 || rs.live_explicit) return;
    ++rs.gen;
    rs.arrived = 0;
    for (uint32_t t : rs.waiting) wake(ts_[t].worker);
    rs.waiting.clear();
  }

  // Replaces the implicit task on top of w's stack by another of its team member's chain.
  void switch_member(uint32_t w, uint32_t task) {
    workers_[w].stack.back() = task;
    ts_[task].worker = w;
  }

  // An implicit task reached a barrier (or its end, `at_end`).
  void member_stop(uint32_t task, uint32_t w, bool at_end) {
    TaskState& s = ts_[task];
    const DagRegion& r = dag_.regions[s.region];
    RegionState& rs = regions_[s.region];
    uint32_t next = chain_next(r, rs.size, s.team_index);
    if (next != kNone) {
      switch_member(w, r.members[next]);
      return;
    }
    if (at_end) {
      workers_[w].stack.pop_back();
      if (++rs.done == rs.team) {
        ts_[rs.encountering].wait = Wait::kNone;
        wake(ts_[rs.encountering].worker);
      }
      return;
    }
    ++rs.arrived;
    s.wait = Wait::kBarrier;
    s.wait_gen = rs.gen;
    rs.waiting.push_back(task);
    check_barrier(s.region);
  }

  bool satisfied(uint32_t task, uint32_t w) {
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
  uint64_t create(uint32_t parent, uint32_t child, uint32_t w) {
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
    c.preds_left = d.preds;
    if (uint32_t* early = d.preds ? done_preds_.find(child + 1ull) : nullptr) {
      // Predecessors that completed before it was created.
      c.preds_left -= std::min(c.preds_left, *early);
      done_preds_.erase(child + 1ull);
    }
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

  void complete(uint32_t task, uint32_t w) {
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
    for (uint32_t i = 0; i < d.succs; ++i) {
      uint32_t succ = dag_.successors[d.first_succ + i];
      TaskState& ss = ts_[succ];
      if (!ss.created) {
        ++done_preds_[succ + 1ull];  // one predecessor fewer to wait for once created
      } else if (ss.preds_left && --ss.preds_left == 0) {
        push_task(w, succ);
        wake_for(succ);
      }
    }
    if (s.region != kNone) {
      RegionState& rs = regions_[s.region];
      if (rs.live_explicit) --rs.live_explicit;
      check_barrier(s.region);
    }
  }

  // Runs worker w from now_ until it waits for time to pass or for something to happen.
  void step(uint32_t w) {
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
          result_.overhead_ns += cost;
          schedule(w, now_ + cost);
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
            result_.overhead_ns += cost;
            schedule(w, now_ + cost);
            return;
          }
          break;
        }
        case DagItem::kTaskwait:
          if (s.live_children) s.wait = Wait::kTaskwait;
          if (costs_.taskwait_ns && !s.inlined) {
            result_.overhead_ns += costs_.taskwait_ns;
            schedule(w, now_ + costs_.taskwait_ns);
            return;
          }
          break;
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

  const TaskDag& dag_;
  const SimCosts& costs_;
  const SimConfig& cfg_;
  std::vector<TaskState> ts_;
  std::vector<RegionState> regions_;
  std::vector<Worker> workers_;
  std::vector<Group> groups_;
  std::vector<uint32_t> idle_[2];       // idle workers: free, constrained (go_idle)
  std::vector<uint32_t> ready_;         // workers whose deques hold tasks
  std::vector<uint32_t> pre_, size_;    // the creation tree in pre-order (number_subtrees)
  replay::IdMap<uint32_t> done_preds_;  // task + 1 -> predecessors completed before its creation
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  uint64_t rng_ = 1;
  uint64_t now_ = 0, end_ = 0;
  bool done_ = false;
  bool relaxed_ = false;
  SimResult result_;
};

}  // namespace

SimResult simulate(const TaskDag& dag, const SimCosts& costs, const SimConfig& config) {
  if (dag.tasks.empty()) return SimResult{};
  return Simulation(dag, costs, config).run();
}

}  // namespace tasklens::simulate
