// The grain of a run's task constructs: how much work each construct's tasks carry (their
// subtree work, measured by the task graph, task_graph.h), what each task costs the run, and where
// a cut-off would make the small tasks run inline (docs/REPORT.md, "graph").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>

namespace tasklens::analysis {

// How much work the tasks of one construct carry. A task's subtree work is its own running time
// plus that of the descendants that completed before it did (those it waited for, directly or
// through its children): the work that running it inline, without tasks, would put in one strand.
struct TaskGrain {
  uint64_t codeptr = 0;
  uint64_t tasks = 0;                  // completed tasks
  uint64_t subtree_ns = 0;             // the sum of their subtree work
  std::array<uint64_t, 65> by_log2{};  // tasks by bit width of their subtree work (0 ns: [0])
  // The first parameter (tasklens_param_int) its tasks set, 0 if none, and per value of it the
  // tasks and their subtree work (at most kMaxParamValues values).
  uint64_t param = 0;
  struct Values {
    uint64_t tasks = 0, subtree_ns = 0;
  };
  std::map<int64_t, Values> by_value;
  static constexpr size_t kMaxParamValues = 4096;
  // Per creation depth (explicit tasks above it in the creation tree, counted from this
  // construct's shallowest tasks: for a construct that recurses into itself, its ancestors of
  // the same construct), the tasks and their subtree work. Needs no tasklens_param_int.
  std::map<int64_t, Values> by_depth;
  int64_t min_depth = -1;  // the shallowest absolute depth seen (-1: none yet)

  // The tasks whose subtree work is below `ns`, interpolated within a power of two.
  double tasks_below(uint64_t ns) const;
};

// Which tasks of a construct cost more than they carry, and where a cut-off on its parameter
// would fall: the tasks below `threshold_ns` of subtree work should run inline.
struct GrainAdvice {
  double below = 0;  // share of the tasks below the threshold
  // A cut-off on the parameter: the values on one side all average below the threshold and
  // those on the other side all at or above it (so the parameter orders the tasks by size).
  bool cut_off = false;
  bool inline_below = true;  // inline the tasks with value <= `value` (else >= `value`)
  int64_t value = 0;
  uint64_t tasks_inlined = 0, tasks_kept = 0;
  // A cut-off on the creation depth (TaskGrain::by_depth): the tasks at `depth` and deeper
  // average below the threshold, the shallower ones at or above it.
  bool depth_cut_off = false;
  int64_t depth = 0;
  uint64_t depth_tasks_inlined = 0, depth_tasks_kept = 0;
};
GrainAdvice advise_grain(const TaskGrain& g, uint64_t threshold_ns);

// A task should carry at least this many times what each task costs the run, so that its
// management stays below 5 % of its work.
constexpr uint64_t kGrainFactor = 20;

// What each task costs the run: POT's overhead (time not working while a task is ready, from the
// breakdown) per explicit task; and the grain threshold, kGrainFactor times that.
struct GrainCost {
  uint64_t task_cost_ns = 0;
  uint64_t threshold_ns = 0;
};
GrainCost grain_cost(uint64_t overhead_ns, uint64_t tasks);

}  // namespace tasklens::analysis
