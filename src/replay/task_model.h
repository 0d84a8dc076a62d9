// The replay's model of a run: every live task's state in the transition system of POT Fig. 2
// (POT, Pereira et al.), what each thread runs, which tasks are ready, and the dependence graph
// rebuilt from the dependence addresses. It is driven one event at a time, in time order, by
// Replay.
//
// Event -> transition (libomp's reporting, docs/LIBOMP.md):
//   implicit_task begin           task created running on the thread (implicit or initial)
//   task_create                   initialized; ready at once unless it has dependences (ready
//                                 when its last predecessor completes) or is undeferred (runs at
//                                 once, its creator suspended)
//   dependence records            edges from the last writer / readers of each address
//   task_schedule(P, s, N)        P: complete -> completed; detach -> detached; cancel ->
//                                 completed; switch/yield -> suspended when P waits (taskwait,
//                                 taskgroup, barrier, undeferred child), else ready.
//                                 task_schedule(T, switch, T) while the thread runs R: libomp
//                                 runs untied T's next part at once on top of R: R suspended,
//                                 T running (format/task_switch.h).
//                                 late_fulfill: detached -> completed (on the fulfilling thread).
//                                 N: running on this thread (suspended or ready if it still sits
//                                 in a wait, until the wait ends)
//   sync_region begin/end         (barrier, taskwait) the task is suspended from the start of the
//                                 construct to its end (POT Fig. 2: the sync_region callback),
//                                 ready once what it waits for is done (children, the whole
//                                 team at a barrier)
//   sync_region_wait begin/end    the same for taskgroup (whose sync_region spans its body), and
//                                 for traces that have only the wait
//   task_create of a task flagged taskwait (`taskwait depend`: libomp reports no sync region)
//                                 its creator waits in a taskwait from here: suspended, ready
//                                 once the tasks it names completed, running again at the
//                                 task's task_schedule(T, taskwait_complete, -); the task itself
//                                 never runs nor becomes ready
#pragma once

#include <cstdint>
#include <deque>
#include <type_traits>
#include <vector>

#include "format/code_span.h"
#include "format/event.h"
#include "replay/construct_map.h"
#include "replay/id_map.h"
#include "replay/stable_id_map.h"
#include "replay/task_record.h"

namespace tasklens::replay {

enum class TaskState : uint8_t {
  kInitialized,
  kReady,
  kSuspended,
  kCancelled,
  kRunning,
  kExecuted,
  kDetached,
  kCompleted,
};
const char* task_state_name(TaskState s);

// What a task is blocked in while it is suspended.
enum class Wait : uint8_t {
  kNone,
  kTaskwait,
  kTaskgroup,
  kBarrier,
  kNested,  // a tied task switched out for another task on its thread (included child, yield)
};

// A live task as the model follows it: the record every reader shares (task_record.h), and its
// state in the transition system.
struct TaskInfo : TaskRecord {
  uint64_t codeptr = 0;  // the task construct's location (see set_runtime_code)
  uint64_t region = 0;   // parallel region it belongs to
  TaskState state = TaskState::kInitialized;
  Wait wait = Wait::kNone;
  bool wait_in_construct = false;  // the wait began at its sync_region (not its inner wait)
  bool deps_pending = false;       // has_dependences, dependence records not all seen yet
  bool detach_fulfilled = false;
  uint32_t thread = kNoThread;  // where it runs or last ran
  uint32_t fragments = 0;       // times it was switched in
  uint32_t live_children = 0;   // created and not completed
  uint32_t pending_preds = 0;   // predecessors not completed
  // In the taskwait of a `taskwait depend`: the task that stands for it (0: none).
  uint64_t awaited = 0;
  uint64_t group = 0;           // innermost taskgroup it belongs to (0: none)
  uint64_t open_group = 0;      // innermost taskgroup this task has open
  uint64_t first_start_ns = 0, completed_ns = 0;
  bool has_successors = false;  // tasks wait for this one (TaskModel::successors_)
  // The barrier of its region that waits for it: an implicit task's next (the barriers it
  // passed), an explicit task's creator's at its creation.
  uint32_t phase = 0;
  TaskInfo* parent_hint = nullptr;  // the model's guess where `parent` is (checked by id)
};

static_assert(std::is_trivially_copyable_v<TaskInfo>);

struct ThreadInfo {
  bool exists = false;   // between thread_begin (or first event) and thread_end
  bool working = false;  // δw: runs a task body now (kept up to date by the model)
  uint64_t begin_ns = 0, end_ns = 0;
  uint64_t current = 0;  // the task this thread is executing (running or waiting in)
  // Parallel regions this thread is in, innermost last: its implicit task and the task that was
  // current when it began (the encountering task on the primary thread, 0 on workers).
  struct Level {
    uint64_t implicit_task;
    uint64_t resumes;
  };
  std::vector<Level> levels;
  uint64_t region = 0;              // the innermost parallel region, 0 outside any
  std::vector<uint64_t> open_work;  // code addresses of the worksharing constructs it is in
  uint64_t work_code = 0;           // the worksharing construct it ended last (its begin's address)
};

// A change the last event made, for passes that follow tasks rather than events.
struct Transition {
  uint64_t task;
  TaskState from, to;
};

// A dependence edge the model learned (from addresses or from the runtime): one per distinct
// (predecessor, successor) pair, however many addresses link them.
struct Edge {
  uint64_t pred, succ;
  bool from_runtime;  // reported by task_dependence (and not found from addresses)
  // The predecessor had completed when the successor's dependences were resolved (at its
  // creation): the edge orders them but never made the successor wait.
  bool satisfied = false;
  uint8_t type = 0;  // the successor's access (format::DependenceType) that found it; 0: runtime
};

class TaskModel {
 public:
  explicit TaskModel(uint32_t threads);

  // Applies one event (time in ns) of `thread`.
  void apply(const format::Event& e, uint32_t thread);

  const TaskInfo* task(uint64_t id) const { return tasks_.find(id); }
  // task(thread(t).current), mostly without the lookup: the model keeps where it is.
  const TaskInfo* current_task(uint32_t t) const {
    const TaskInfo* hint = current_hint_[t];
    const uint64_t id = threads_[t].current;
    return hint && id && hint->id == id ? hint : tasks_.find(id);
  }
  // The construct a task belongs to: its TaskInfo::codeptr, 0 when the task is unknown.
  uint64_t task_code(uint64_t id) const {
    const TaskInfo* t = tasks_.find(id);
    return t ? t->codeptr : 0;
  }
  // The runtime library's code span (metadata runtime.code): a task created with a code address
  // inside it (libomp splitting a taskloop) belongs to the construct of the explicit task that
  // runs on the creating thread.
  void set_runtime_code(format::CodeSpan code) { runtime_code_ = code; }
  // Where copies of one task construct (unrolled, inlined) become one: a task's codeptr is
  // constructs->construct(its task_create's address). Null: every address is its own construct.
  void set_constructs(ConstructMap* constructs) { constructs_ = constructs; }
  // The construct a sync region event belongs to: its code address, except for an implicit
  // barrier reported inside the runtime. clang's outlined function tail-calls __kmpc_barrier for
  // a worksharing construct (a `single`, a loop) that ends the parallel region, so libomp names
  // __kmp_invoke_microtask; that barrier is the construct's, the one the thread ended last.
  uint64_t sync_code(const format::Event& e, uint32_t thread) const;
  const ThreadInfo& thread(uint32_t t) const { return threads_[t]; }
  // The code address of live parallel region `id`'s construct (its parallel_begin's), 0 if
  // unknown (no parallel_begin in the trace, or the region ended).
  uint64_t region_code(uint64_t id) const {
    const Region* r = id ? regions_.find(id) : nullptr;
    return r ? r->codeptr : 0;
  }
  uint32_t thread_count() const { return uint32_t(threads_.size()); }
  // Threads the run had (begun, or ended, by now), at least 1: the recorded team's size.
  uint32_t threads_seen() const {
    uint32_t n = 0;
    for (const ThreadInfo& th : threads_) n += th.exists || th.end_ns;
    return n ? n : 1;
  }

  // Whether an event of this kind can change what its thread runs, whether it works, exists or
  // which region it is in. Only events of a thread's own can; passes may skip the others. A task
  // creation can: the task of a `taskwait depend` puts its creator in a wait.
  static bool may_change_thread(format::Kind k) {
    switch (k) {
      case format::Kind::kTaskCreate:
      case format::Kind::kThreadBegin:
      case format::Kind::kThreadEnd:
      case format::Kind::kImplicitTask:
      case format::Kind::kTaskSchedule:
      case format::Kind::kSyncRegion:
      case format::Kind::kSyncRegionWait:
        return true;
      default:
        return false;
    }
  }

  // δw of POT: the thread runs the body of a task (explicit or implicit) right now.
  bool working(uint32_t t) const { return threads_[t].working; }
  // δr of POT: how many tasks are in the ready state right now.
  uint64_t ready_count() const { return ready_; }
  uint64_t live_tasks() const { return tasks_.size(); }

  // What the last apply() changed.
  const std::vector<Transition>& transitions() const { return transitions_; }
  const std::vector<Edge>& new_edges() const { return edges_; }

  // Drops completed tasks nobody refers to any more (call after the passes saw the event).
  void collect() {
    if (!garbage_.empty()) collect_garbage();
  }

 private:
  format::CodeSpan runtime_code_;
  ConstructMap* constructs_ = nullptr;
  bool in_runtime(uint64_t code) const { return runtime_code_.contains(code); }
  // One barrier of a region, counted apart from the next: a thread past it may create tasks
  // and reach the next one while another's end of it is still to come (a loaded machine; one
  // count per region let that next barrier end before the other thread had reached it).
  struct Phase {
    uint32_t in_barrier = 0;     // implicit tasks waiting at it
    uint32_t left = 0;           // implicit tasks past it
    uint64_t live_explicit = 0;  // explicit tasks created before it, not completed
  };
  struct Region {
    uint64_t codeptr = 0;  // the parallel construct's (parallel_begin)
    uint32_t team_size = 0;
    uint32_t first_phase = 0;       // the barrier phases[0] stands for
    std::deque<Phase> phases;       // from first_phase; dropped once the team is past it
    std::vector<uint64_t> waiting;  // implicit tasks in a barrier
  };
  // Barrier k of the region (made on first use); null for one the whole team passed.
  static Phase* phase(Region& r, uint32_t k) {
    // Most tasks belong to the oldest barrier not passed: std::deque's size() and indexing
    // cost 25 instructions a call, front() a few.
    if (k == r.first_phase && !r.phases.empty()) return &r.phases.front();
    if (k < r.first_phase) return nullptr;
    if (k - r.first_phase >= r.phases.size()) r.phases.resize(size_t(k - r.first_phase) + 1);
    return &r.phases[k - r.first_phase];
  }
  struct Group {
    uint64_t parent = 0;  // enclosing taskgroup
    uint64_t owner = 0;   // the task that opened it
    uint64_t live = 0;    // descendant tasks not completed
  };
  struct AddressState {
    uint8_t kind = 0;                // dependence type of the current group of accesses
    std::vector<uint64_t> current;   // tasks of the current group
    std::vector<uint64_t> previous;  // tasks of the group before it
  };
  struct PendingDeps {
    uint64_t task = 0;
    std::vector<std::pair<uint64_t, uint8_t>> items;  // (address, type)
    std::vector<uint64_t> preds;                      // predecessors found so far (each one edge)
  };

  void collect_garbage();
  // The task `id`, or null. `hint` is where it probably is: a hit spares the hash lookup.
  TaskInfo* find(uint64_t id, TaskInfo* hint) {
    return __builtin_expect(hint && hint->id == id && id, 1) ? hint : find_unhinted(id);
  }
  __attribute__((noinline)) TaskInfo* find_unhinted(uint64_t id) { return tasks_.find(id); }
  TaskInfo& ensure(uint64_t id, uint32_t thread, uint64_t now, TaskInfo* hint) {
    if (TaskInfo* t = find(id, hint)) return *t;
    return create_unseen(id, thread, now);
  }
  TaskInfo& create_unseen(uint64_t id, uint32_t thread, uint64_t now);
  // The thread's current task (running or waiting in), or null.
  TaskInfo* current(uint32_t thread) {
    return current_hint_[thread] = find(threads_[thread].current, current_hint_[thread]);
  }
  // Regions change rarely and most events look up the same one: a one-entry cache, emptied by
  // every insertion or erasure (IdMap moves values).
  Region* find_region(uint64_t id) {
    if (id != cached_region_id_) {
      cached_region_id_ = id;
      cached_region_ = regions_.find(id);
    }
    return cached_region_;
  }
  Region& region(uint64_t id) {
    forget_region();
    return regions_[id];
  }
  void erase_region(uint64_t id) {
    forget_region();
    regions_.erase(id);
  }
  void forget_region() {
    cached_region_id_ = 0;
    cached_region_ = nullptr;
  }
  void set_state(TaskInfo& t, TaskState s);
  void on_implicit_task(const format::Event& e, uint32_t thread);
  void on_create(const format::Event& e, uint32_t thread);
  void on_dependence(const format::Event& e, uint32_t thread);
  void resolve_dependences(PendingDeps& p);
  void add_edge(uint64_t pred, uint64_t succ, bool from_runtime, uint8_t type = 0);
  void on_schedule(const format::Event& e, uint32_t thread);
  // `under_next`: `next` runs on top of `prior`, which resumes on this thread when it ends.
  void switch_out(TaskInfo& prior, uint64_t next, uint32_t thread, bool under_next);
  void complete(TaskInfo& t, uint64_t now);
  void refresh_working(uint32_t thread);
  void make_ready_if_possible(TaskInfo& t);
  // sync_region (construct = true) and sync_region_wait events of barriers, taskwait, taskgroup.
  void on_wait(const format::Event& e, uint32_t thread, bool construct);
  void on_taskgroup(const format::Event& e, uint32_t thread);
  void check_wait_done(TaskInfo& t);
  // `taskwait depend`: `creator` waits for `marker`'s predecessors (task_waits.cpp).
  void begin_taskwait_depend(TaskInfo& creator, const TaskInfo& marker, uint32_t thread);
  void end_taskwait_depend(TaskInfo& creator);
  void check_barrier(uint64_t region_id, uint32_t phase);
  uint64_t task_of(const format::Event& e, uint64_t field, uint32_t thread) const;

  StableIdMap<TaskInfo> tasks_;              // pointers stay valid until the task is erased
  IdMap<std::vector<uint64_t>> successors_;  // of unfinished tasks
  IdMap<Region> regions_;
  IdMap<Group> groups_;
  IdMap<AddressState> addresses_;
  IdMap<uint64_t> prev_open_;  // taskgroup -> the group its owner had open before
  std::vector<ThreadInfo> threads_;
  std::vector<TaskInfo*> current_hint_;  // per thread: where its current task probably is
  std::vector<TaskInfo*> created_hint_;  // per thread: the task it created last
  uint64_t cached_region_id_ = 0;        // 0: nothing cached (find(0) is null anyway)
  Region* cached_region_ = nullptr;
  std::vector<PendingDeps> pending_deps_;  // per thread
  std::vector<Transition> transitions_;
  std::vector<Edge> edges_;
  std::vector<uint64_t> garbage_;
  uint64_t ready_ = 0;
  uint64_t now_ = 0;
  uint64_t next_group_id_ = 1;
};

}  // namespace tasklens::replay
