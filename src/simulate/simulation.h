// The simulation behind simulate() (simulator.h): its state and the Simulation class, whose
// members live in three files by concern: simulator.cpp (running the workers, tasks and their
// waits), work_stealing.cpp (deques, idle workers, stealing under libomp's scheduling
// constraint) and teams.cpp (parallel regions: forks, implicit-task chains, barriers).
// Internal to src/simulate.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "replay/id_map.h"
#include "simulate/event_queue.h"
#include "simulate/simulator.h"
#include "simulate/task_dag.h"

namespace tasklens::simulate::detail {

// kDepend: a `taskwait depend`, waiting for the predecessors of the task that stands for it (the
// value of the DagItem::kTaskwaitDepend item the waiting task's pc has just passed).
enum class Wait : uint8_t { kNone, kTaskwait, kDepend, kGroup, kBarrier, kJoin };

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
        workers_(std::clamp<uint32_t>(config.threads, 1, kMaxWorkers)),
        queue_(uint32_t(workers_.size())) {
    rng_ = cfg_.seed ? cfg_.seed : 1;
    result_.threads = uint32_t(workers_.size());
    number_subtrees();
  }

  // Flattened: with the three files in one unit (CMakeLists.txt) the calls of the loop inline.
  [[gnu::flatten]] SimResult run();

 private:
  using Event = EventQueue::Event;
  static constexpr uint32_t kWakeAncestors = 64;
  static constexpr size_t kScanBudget = 256;

  uint64_t random() {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    return rng_;
  }
  void schedule(uint32_t w, uint64_t t) {
    workers_[w].pending = true;
    queue_.set(w, t);
  }
  // Worker w spends `ns` in the runtime (task starts, taskwaits) before it goes on.
  void charge(uint32_t w, uint64_t ns) {
    result_.overhead_ns += ns;
    schedule(w, now_ + ns);
  }
  // The task a worker's stack waits on with libomp's scheduling constraint (only its descendants
  // may run on top of it), kNone if none.
  uint32_t constraint(uint32_t w) const {
    const Worker& wk = workers_[w];
    if (wk.stack.empty() || relaxed_) return kNone;
    uint32_t top = wk.stack.back();
    // libomp's `taskwait depend` waits under the same constraint as a taskwait.
    const Wait wait = ts_[top].wait;
    return wait == Wait::kTaskwait || wait == Wait::kDepend || wait == Wait::kGroup ? top : kNone;
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
  // libomp's __kmp_task_is_allowed: below a task waiting in a taskwait or taskgroup, only its
  // descendants may run. O(1): the pre-order numbers.
  bool allowed(uint32_t task, uint32_t ref) const {
    if (ref == kNone || relaxed_) return true;
    return pre_[task] > pre_[ref] && pre_[task] - pre_[ref] < size_[ref];
  }

  // work_stealing.cpp
  void go_idle(uint32_t w);
  void wake(uint32_t w);
  void wake_for(uint32_t task);
  bool rescue();
  void number_subtrees();
  void push_task(uint32_t w, uint32_t task);
  void popped(uint32_t w);
  bool take_from(uint32_t v, uint32_t ref, uint32_t* task, size_t* budget);
  uint32_t find_work(uint32_t w);

  // teams.cpp
  uint32_t chain_next(const DagRegion& r, uint32_t size, uint32_t k) const;
  uint32_t chain_first(const DagRegion& r, uint32_t size, uint32_t j) const;
  void fork(uint32_t encountering, uint32_t w, uint32_t region);
  void check_barrier(uint32_t region);
  void switch_member(uint32_t w, uint32_t task);
  void member_stop(uint32_t task, uint32_t w, bool at_end);

  // simulator.cpp
  bool satisfied(uint32_t task, uint32_t w);
  uint64_t create(uint32_t parent, uint32_t child, uint32_t w);
  // Task `task` is created (or the taskwait it stands for reached): its predecessors not done yet.
  uint32_t preds_left_at_creation(uint32_t task);
  // `task` completed (or a `taskwait depend`'s task is done): its successors lose a predecessor.
  void release_successors(uint32_t task, uint32_t w);
  // The last predecessor of the task of a `taskwait depend` completed: the wait is over.
  void taskwait_depend_done(uint32_t marker, uint32_t w);
  void complete(uint32_t task, uint32_t w);
  void step(uint32_t w);

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
  EventQueue queue_;                    // declared after workers_: sized by it
  uint64_t rng_ = 1;
  uint64_t now_ = 0, end_ = 0;
  bool done_ = false;
  bool relaxed_ = false;
  SimResult result_;
};

}  // namespace tasklens::simulate::detail
