// The recorded run as a program the simulator can run again (docs/WHAT-IF.md): every task's
// timeline of items in its own order (work measured in this run, task creations, taskwaits,
// taskgroups, barriers, parallel regions it forks), the dependence edges between tasks and the
// parallel regions' implicit tasks. Built by one replay (TaskDagPass), independent of any
// thread count: the simulator (simulator.h) replays it on P workers.
//
// Work is the time the recording saw a task's body run (TaskModel::working), creation calls
// included: a task's creation cost is inside its creator's work; the time its thread was
// preempted meanwhile (off_cpu.bin) is left out. The time a thread forks a
// region counts as the encountering task's work. Time a thread spends in the runtime between
// tasks is not in any timeline: the simulator charges it per task (SimCosts::schedule_ns).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/preempted_time.h"
#include "format/chunk.h"
#include "replay/id_map.h"
#include "replay/pass.h"

namespace tasklens::simulate {

constexpr uint32_t kNone = 0xffffffffu;
// The most workers simulated (simulator.h): a damaged trace can claim any thread count.
constexpr uint32_t kMaxWorkers = format::kMaxThreads;  // the most a recording holds

struct DagItem {
  enum Kind : uint8_t {
    kWork,      // value: ns of the task's body
    kCreate,    // value: the created task (index)
    kTaskwait,  // wait for the task's children created so far
    // `taskwait depend`, value: the task (index) that stands for it, which never runs: wait for
    // that task's dependence predecessors only
    kTaskwaitDepend,
    kGroupBegin,  // a taskgroup opens
    kGroupEnd,    // wait for the tasks created in the innermost open taskgroup, descendants too
    kBarrier,     // an implicit task enters a barrier of its region
    kRegion,      // value: a parallel region instance (index) the task forks and joins
  };
  Kind kind = kWork;
  uint64_t value = 0;
};

struct DagTask {
  uint32_t first_item = 0, items = 0;  // in TaskDag::items
  uint32_t parent = kNone;
  uint32_t construct = kNone;  // index in TaskDag::constructs (explicit tasks)
  uint32_t depth = 0;          // recursion depth: 1 for a task of its recursion's shallowest level
  uint32_t first_succ = 0, succs = 0;  // in TaskDag::successors
  uint32_t preds = 0;                  // dependence predecessors
  bool is_explicit = false;
  bool undeferred = false;  // runs at once on its creator's thread (if(0), included)
  // Stands for its parent's `taskwait depend` (DagItem::kTaskwaitDepend): never runs; its
  // predecessors done, the parent goes on.
  bool taskwait_depend = false;
  // Flagged undeferred, the recording switched it in at its creation, on its creator's thread
  // (nothing but its dependence records between). In a team of one (libomp runs every task of a
  // serialized team at once) the time from the create call to its switch-in is the runtime's
  // dispatch: left out of the creator's work, as the simulation defers the task and charges its
  // start instead.
  bool ran_immediately = false;
};

struct DagRegion {
  std::vector<uint32_t> members;  // implicit tasks by their number in the team
  bool nested = false;            // forked inside another region
  uint32_t recorded_team = 0;     // its team size in the recording
};

// Task constructs whose tasks create each other's (fib's two task constructs) form one recursion:
// a cut-off applies to all of them, and depth counts across them.
struct DagConstruct {
  uint64_t codeptr = 0;
  uint32_t group = 0;      // the construct (index) that stands for its recursion
  bool recursive = false;  // of the group: a task of it created a task of it
  uint32_t max_depth = 0;  // of the group
  uint32_t tasks = 0;      // of this construct; of the group on the group's own entry
};

struct TaskDag {
  std::vector<DagTask> tasks;  // [0]: the initial task (the root)
  std::vector<DagItem> items;
  std::vector<uint32_t> successors;
  std::vector<DagRegion> regions;
  std::vector<DagConstruct> constructs;
  uint32_t recorded_threads = 0;
  uint64_t run_ns = 0;
  uint64_t fragments = 0;  // work items
  uint64_t work_ns = 0;
  uint64_t preempted_ns = 0;  // left out of work_ns: a thread was preempted while running a task
  // Left out of work_ns too: a team of one's tasks run at their creation, from the create call
  // to the switch-in (the runtime's dispatch; the simulation charges a start cost instead).
  uint64_t dispatch_ns = 0;
};

class TaskDagPass : public replay::Pass {
 public:
  void begin(const replay::ReplayInfo& info) override;
  bool uses_before() const override { return false; }
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const TaskDag& result() const { return dag_; }
  TaskDag& result() { return dag_; }

 private:
  struct Pending {  // an item before the items are grouped by task
    uint32_t task;
    DagItem item;
  };
  uint32_t new_task(uint64_t id);
  uint32_t index_of(uint64_t id) const;
  void add(uint32_t task, DagItem::Kind kind, uint64_t value = 0);
  void flush(uint32_t thread, uint64_t t);

  TaskDag dag_;
  std::vector<Pending> pending_;
  std::vector<uint32_t> last_work_;  // per task: its last item in pending_ if it is work
  std::vector<uint8_t> last_kind_;   // per task: the kind of its last item other than work
  std::vector<std::pair<uint32_t, uint32_t>> edges_;
  replay::IdMap<uint32_t> index_;         // task id -> index + 1
  replay::IdMap<uint32_t> region_index_;  // region id -> index + 1
  replay::IdMap<uint32_t> construct_index_;
  uint32_t group_of(uint32_t construct);  // union-find over constructs that create each other
  std::vector<uint32_t> parent_construct_;
  std::vector<bool> self_created_;
  std::vector<uint32_t> min_depth_;  // per group: the shallowest absolute depth
  std::vector<uint32_t> abs_depth_;  // per task: explicit tasks above it
  struct Running {
    uint32_t task = kNone;
    uint64_t since = 0;
  };
  std::vector<Running> running_;
  std::vector<uint32_t> forking_;       // per thread: the encountering task while it forks
  std::vector<uint32_t> just_created_;  // per thread: the task its last event created, if so
  analysis::PreemptedTime preempted_;
};

}  // namespace tasklens::simulate
