// Work, span and parallelism of a run's task graph (the work-span model of Cilk and Cilkview;
// docs/REPORT.md, "graph"). The run is a DAG of strands, the stretches in which a task body runs,
// each weighted by its measured running time. A strand starts after the following:
//   - the point where its task was created, for a task's first strand;
//   - the completion of the task's predecessors (dependences);
//   - the completion of the task's children, after a taskwait; of the tasks it names, after a
//     `taskwait depend` (libomp reports a task flagged taskwait that completes after them);
//   - the completion of the tasks created in a taskgroup and of their descendants, after it;
//   - the arrival of every implicit task and the completion of every task of the region created
//     before the barrier, after a barrier (not of those created after it: a thread past a
//     barrier runs on while another's end of it is still to come, on a loaded machine late);
//   - the end of the parallel region, for the encountering task once the region has ended;
//   - the fork of the region, for its implicit tasks; on the thread that forked it the path goes
//     through the runtime's time from parallel_begin to its implicit task's begin (thread
//     creation), a weight labelled runtime, never work of a task, so every region's path hangs
//     off its fork. (A worker that starts late is a matter of the schedule, like any thread
//     that is busy elsewhere: its implicit task hangs off the fork itself.)
// work = the sum of all strands: the breakdown's work less the fork time (runtime_ns). span =
// the longest path (the critical path), fork time on it included. No schedule on P threads takes
// less than max(work / P, span) (Brent), and work / span is the average parallelism: how many
// threads the graph can keep busy.
//
// Online and O(1) per event: every live task carries the length of the longest path that ends
// where its execution is now (and the path itself, as shared segments: path_arena.h). Completing
// a task also updates the owners of the taskgroups it belongs to (nested ones: one per level).
// Memory: the live tasks and their paths, plus the end of every completed task that had
// dependences, because a later task may name it as a predecessor.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "analysis/creation_cost.h"
#include "analysis/path_arena.h"
#include "analysis/preempted_time.h"
#include "analysis/task_grain.h"
#include "replay/id_map.h"
#include "replay/pass.h"
#include "replay/stable_id_map.h"
#include "replay/task_record.h"

namespace tasklens::analysis {

// One task construct's share of the critical path (codeptr 0: implicit and initial tasks, i.e.
// serial code and the parallel regions' own work).
struct PathShare {
  uint64_t codeptr = 0;
  uint64_t ns = 0;
  uint64_t tasks = 0;  // instances with time on the path
  bool runtime = false;  // the runtime's time (forks, task creation), not a task's
};

// What a critical path segment's time is (PathArena::Label::kind).
enum class PathKind : uint8_t {
  kWork,  // a task body
  kFork,  // the runtime, from parallel_begin to an implicit task's begin
};
// How the critical path reached a segment's task (PathArena::Label::via).
enum class PathVia : uint8_t {
  kSame,        // the same task went on
  kCreated,     // created by the task before
  kDependence,  // a dependence on the task before (Label::detail: the successor's type)
  kTaskwait,    // its child, waited for
  kTaskgroup,   // a descendant, waited for at the end of a taskgroup
  kBarrier,     // a barrier of the region
  kJoin,        // the end of a parallel region
  kFork,        // the fork of a parallel region
};
const char* path_via_name(PathVia v);

// A run of the critical path, in time order: consecutive segments of one construct and kind.
struct PathRun {
  uint64_t codeptr = 0;   // kWork: the task construct (0: implicit tasks); kFork: the parallel
  PathKind kind = PathKind::kWork;
  PathVia via = PathVia::kSame;  // how the path entered it
  uint64_t ns = 0;
  uint64_t creation_ns = 0;  // of ns, the runtime's time creating its tasks' children
  uint64_t tasks = 0;     // task instances along it
  uint64_t creates = 0;   // tasks they created along it
  uint64_t creating_ns = 0;  // from the first of those creations to the last
  uint64_t chained = 0;   // links from one of its tasks to the next that are dependences
  uint8_t dependence_type = 0;  // the successor's dependence type on the first such link
  bool serial = false;    // the initial task outside any parallel region (serial code)
};

// One creating task bounds the run: its strand of task creations is at least half of the path
// less the serial code on it.
struct CreationBound {
  bool found = false;
  size_t run = 0;        // in path_runs
  uint64_t tasks = 0;    // tasks it created on the path
  uint64_t ns = 0;       // from its first creation on the path to its last
};

struct TaskGraph {
  uint64_t work_ns = 0;
  uint64_t span_ns = 0;     // the critical path's length
  double parallelism = 0;   // work / span
  uint32_t threads = 0;     // threads of the run
  uint64_t bound_ns = 0;    // max(work / threads, span): no schedule on `threads` is faster
  uint64_t run_ns = 0;      // how long the run took
  uint64_t tasks = 0;       // explicit tasks created
  uint64_t dependence_edges = 0;  // distinct (predecessor, successor) pairs
  uint64_t satisfied_edges = 0;   // of those, predecessors completed at the successor's creation
  uint64_t runtime_ns = 0;        // fork and creation time on every thread: runtime, not work
  uint64_t creation_ns = 0;       // of runtime_ns, the estimated time inside task creation
  uint64_t path_runtime_ns = 0;   // of the span: the runtime's time on the critical path
  uint64_t path_creation_ns = 0;  // of path_runtime_ns, task creation
  uint64_t path_serial_ns = 0;    // of the span: the initial task outside parallel regions
  // Left out of every strand (and fork): the time a thread was off its CPU while runnable
  // (off_cpu.bin), the machine's, not the task's.
  uint64_t preempted_ns = 0;
  std::vector<TaskGrain> grains;  // per task construct, most subtree work first
  std::vector<PathShare> critical_path;  // what the span is made of, most time first
  std::vector<PathRun> path_runs;        // the critical path in time order (at most kMaxRuns)
  // The explicit tasks the critical path runs through, in time order, each once (the HTML
  // report highlights them on its timeline).
  std::vector<uint64_t> path_tasks;
  uint64_t path_runs_left_off = 0;       // runs beyond kMaxRuns
  CreationBound creation_bound;
  static constexpr size_t kMaxRuns = 1000;
};

// Brent's bounds for a graph of `work_ns` with a critical path of `span_ns` on `threads`: no
// schedule takes less than fastest_schedule_ns, a greedy one (no thread idle while a strand is
// ready) no more than greedy_schedule_ns.
inline uint64_t fastest_schedule_ns(uint64_t work_ns, uint64_t span_ns, uint32_t threads) {
  threads = threads ? threads : 1;
  return std::max<uint64_t>((work_ns + threads - 1) / threads, span_ns);
}
inline uint64_t greedy_schedule_ns(uint64_t work_ns, uint64_t span_ns, uint32_t threads) {
  return work_ns / (threads ? threads : 1) + span_ns;
}

class TaskGraphPass : public replay::Pass {
 public:
  void begin(const replay::ReplayInfo& info) override;
  bool uses_before() const override { return false; }
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const TaskGraph& result() const { return result_; }

 private:
  // A longest path's length and the path itself (PathArena), which it holds a reference to.
  struct Longest {
    uint64_t ns = 0;
    PathArena::Ref path = 0;
  };
  // A live task: the shared task record (replay/task_record.h; kept past the model's, for the
  // paths) and the longest path to it.
  struct Node : replay::TaskRecord {
    uint64_t region = 0;
    // The longest path ending at this task's current point: `path`, then `pending` ns of this
    // task's running time not yet made a segment of it.
    uint64_t span = 0;
    PathArena::Ref path = 0;
    uint64_t pending = 0;
    uint64_t pending_runtime = 0;  // of `pending`, task creation (the runtime's)
    Longest children_end;     // the latest end of its completed children
    // Per taskgroup it has open, outermost first: the latest end of the tasks in it (descendants
    // too). Nested taskgroups apart: an inner one waits only for the tasks created inside it.
    std::vector<Longest> group_ends;
    uint64_t group_owner = 0;  // the innermost task with a taskgroup open this task belongs to
    uint32_t group_level = 0;  // which of group_owner's open taskgroups (group_ends) holds it
    bool has_deps = false;
    bool completed = false;
    bool has_param = false;
    uint32_t grain = 0;         // index in grains_ + 1; 0: not an explicit task
    uint32_t depth = 0;         // explicit tasks above it in the creation tree
    uint32_t pending_creates = 0;  // tasks it created within `pending`
    // The barrier of its region that waits for it (replay::TaskInfo::phase, the model's rule),
    // copied: a completed task's record may be gone from the model.
    uint32_t phase = 0;
    uint8_t via = 0, via_detail = 0;  // how `path` reached it (PathVia), for its next segment
    uint64_t subtree = 0;       // its running time and that of the descendants that completed
    uint64_t param = 0;         // the first parameter it set, and the value
    int64_t param_value = 0;
    struct Successor {
      uint64_t id;
      uint8_t type;  // its dependence type
    };
    std::vector<Successor> successors;  // tasks that depend on it
    // Back to a new node, keeping the vectors' capacity (its paths must be released first).
    void clear() {
      std::vector<Successor> s = std::move(successors);
      std::vector<Longest> g = std::move(group_ends);
      *this = Node{};
      s.clear();
      g.clear();
      successors = std::move(s);
      group_ends = std::move(g);
    }
  };
  // One barrier of a region: it waits for the arrival of every implicit task and for the
  // tasks created before it, not for those created after it (by a thread already past it,
  // while another's end of it is still to come: seen on a loaded machine).
  struct Phase {
    Longest end;          // the latest of those arrivals and task ends
    uint32_t passed = 0;  // implicit tasks past it
  };
  struct Region {
    Longest fork;     // the encountering task's longest path when the region began
    Longest max_end;  // the latest end of its tasks and barrier arrivals (the join waits for it)
    std::deque<Phase> phases;  // barriers not yet passed by every implicit task, from first_phase
    uint32_t first_phase = 0;
    uint32_t team = 0;  // implicit tasks: the most of the team size reported and those begun
    uint32_t begun = 0;
    uint64_t fork_ns = 0;     // when parallel_begin came (0 with has_fork false)
    uint32_t fork_site = 0;   // index in fork_sites_ + 1
    uint32_t fork_thread = 0;  // the thread that forked it
    bool has_fork = false;    // its parallel_begin is in the trace
  };
  struct Running {
    uint64_t task = 0;  // the task whose body the thread runs, 0 if none
    uint64_t since = 0;
    uint64_t forking = 0;  // the region the thread forks (parallel_begin, no implicit task yet)
    uint64_t created = 0;  // the task its latest event created (its creation may go on after)
    uint64_t fork_off = 0;  // while forking: the time off the CPU since parallel_begin
  };

  // Adds the running time up to t to the task; `creation` ns of it are the runtime's.
  void flush(uint32_t thread, uint64_t t, uint64_t creation = 0);
  void on_complete(uint64_t id);
  Longest& phase_end(Region& region, uint32_t phase);  // the end of barrier `phase` so far
  void pass_barrier(Region& region, Node& n);          // n's end of its barrier `n.phase`
  void count_grain(const Node& n);
  uint32_t grain_of(uint64_t codeptr);
  void release_paths(Node& n);
  void forget(Node& n);  // a completed task: its paths released, its node freed
  Node& fresh_node(uint64_t id);  // a new node for `id` (an old one's paths released)
  // The longest path to the task's current point, its pending time made a segment.
  Longest longest(Node& n);
  Longest longest(uint64_t id);
  // The task continues after a point `l` reaches, through an edge of kind `via`.
  void raise(Node& n, const Longest& l, PathVia via, uint8_t detail = 0);
  void raise(uint64_t id, const Longest& l, PathVia via, uint8_t detail = 0);
  void take(Longest& dst, const Longest& l);  // dst = the longer of the two
  void drop(Longest& l);                      // releases its path
  void compose_critical_path();
  void compose_path_runs(const std::vector<const PathArena::Segment*>& in_order);

  replay::StableIdMap<Node> nodes_;
  replay::IdMap<Region> regions_;
  replay::IdMap<Longest> ended_with_deps_;  // completed tasks that had dependences -> end
  PathArena paths_;
  Longest best_;  // the longest path found so far
  std::vector<Running> running_;
  replay::IdMap<uint32_t> grain_index_;  // task construct -> index in result_.grains + 1
  // Per grain, by creation depth (below kMaxParamValues): its entry of TaskGrain::by_depth.
  std::vector<std::vector<TaskGrain::Values*>> depth_values_;
  std::vector<uint64_t> fork_sites_;     // parallel constructs whose fork is on some path
  replay::IdMap<uint32_t> fork_site_index_;
  CreationCost creation_;
  CreationClaims claims_;
  PreemptedTime preempted_;
  TaskGraph result_;
};

}  // namespace tasklens::analysis
