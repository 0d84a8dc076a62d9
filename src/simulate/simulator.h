// A discrete-event simulation of a recorded run (task_dag.h) on P workers with libomp's task
// scheduling policy (docs/WHAT-IF.md):
//   - a task construct queues the new task at the tail of its creator's deque and the creator
//     goes on (libomp's __kmp_push_task: help-first, not Cilk's work-first), unless the task is
//     undeferred (it runs at once, the creator suspended) or the deque is full (libomp's task
//     throttling, 256 entries: it runs at once too);
//   - a worker takes the task at the tail of its own deque (LIFO) and, when that is empty,
//     steals the head (FIFO) of a victim's deque: the victim it last stole from, else a random
//     one (xorshift with a fixed seed: the same input gives the same schedule);
//   - a task waiting in a taskwait (a `taskwait depend`: until the tasks it names completed) or at
//     the end of a taskgroup stays on its worker's stack and the worker runs other tasks on top of
//     it, only descendants of the waiting task (libomp's task scheduling constraint for tied
//     tasks); it resumes once the task on top completed and what it waits for is done;
//   - a barrier releases once every member of the team arrived and every task of the region
//     completed; a task whose last predecessor completes is queued on the worker that completed it.
// Outermost parallel regions get a team of P (the implicit tasks of a recorded team larger than P
// run in turn on worker number mod P, phase by phase between barriers); nested regions get a team
// of one. Each deferred task start costs SimCosts::schedule_ns (or its construct's
// schedule_by_construct) of the worker's time, each taskwait SimCosts::taskwait_ns (none in a
// task inlined by a cut-off: its code would have no taskwait).
//
// At most kMaxWorkers workers (a larger count is simulated with kMaxWorkers: SimResult::threads
// says which). Time: O(items + tasks + failed steal attempts x (workers with tasks queued +
// deque_size)) with a log factor for the event queue; memory: the task state (O(tasks)), one
// deque and stack per worker.
#pragma once

#include <cstdint>
#include <vector>

#include "simulate/task_dag.h"

namespace tasklens::simulate {

struct SimCosts {
  uint64_t schedule_ns = 0;  // per deferred task started
  // Per construct (TaskDag::constructs), where measured: replaces schedule_ns for its tasks.
  std::vector<uint64_t> schedule_by_construct;
  std::vector<uint64_t> creation_ns;  // per construct (TaskDag::constructs): what inlining saves
  uint64_t taskwait_ns = 0;           // per taskwait of a task that was not inlined
};

struct SimConfig {
  uint32_t threads = 1;
  // Tasks of this construct's recursion (DagConstruct::group) deeper than cutoff_depth run
  // inline in their creator (their creation cost removed, no scheduling); kNone: none.
  uint32_t cutoff_construct = kNone;
  uint32_t cutoff_depth = 0;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  uint32_t deque_size = 256;  // libomp's INITIAL_TASK_DEQUE_SIZE
};

struct SimResult {
  uint32_t threads = 0;  // simulated: SimConfig::threads, at most kMaxWorkers
  uint64_t wall_ns = 0;
  uint64_t work_ns = 0;      // task bodies run (creation calls included)
  uint64_t overhead_ns = 0;  // task scheduling and taskwaits charged
  uint64_t idle_ns = 0;      // threads x wall - work - overhead
  uint64_t tasks = 0;        // explicit tasks run as tasks
  uint64_t inlined = 0;      // explicit tasks run inline (cut-off)
  uint64_t kept = 0;         // tasks of the cut-off construct still tasks
  uint64_t steals = 0;
  uint64_t fragments = 0;  // work items simulated
  bool stalled = false;    // nothing could run before the program's end (a damaged graph)
};

SimResult simulate(const TaskDag& dag, const SimCosts& costs, const SimConfig& config);

}  // namespace tasklens::simulate
