// The grain of task constructs: the tasks below a size, the cost of a task, the cut-offs.
#include "analysis/task_grain.h"

#include <cmath>
#include <vector>

namespace tasklens::analysis {

double TaskGrain::tasks_below(uint64_t ns) const {
  double below = 0;
  for (size_t w = 0; w < by_log2.size(); ++w) {
    // Bucket w holds [2^(w-1), 2^w) (w = 0: exactly 0 ns).
    double lo = w == 0 ? 0 : std::ldexp(1.0, int(w) - 1), hi = w == 0 ? 1 : std::ldexp(1.0, int(w));
    if (double(ns) >= hi) {
      below += double(by_log2[w]);
    } else if (double(ns) > lo) {
      below += double(by_log2[w]) * (double(ns) - lo) / (hi - lo);
    }
  }
  return below;
}

namespace {

// Where a cut-off falls on values (a parameter's, or the creation depth) whose tasks' mean
// subtree work is below the threshold on one side and at or above it on the other.
struct Split {
  bool found = false;
  bool inline_below = true;  // the small values are the low ones
  int64_t value = 0;         // the last small value (inline_below) or the first one (else)
  uint64_t inlined = 0, kept = 0;
};

Split split_by_size(const std::map<int64_t, TaskGrain::Values>& by, uint64_t threshold_ns) {
  Split a;
  if (by.size() < 2) return a;
  // Small: the values' mean subtree work is below the threshold. A cut-off needs the small
  // values all on one side of the large ones.
  std::vector<bool> small;
  for (const auto& [value, v] : by) small.push_back(v.subtree_ns < threshold_ns * v.tasks);
  auto split = [&](bool first_small) {
    size_t i = 0;
    while (i < small.size() && small[i] == first_small) ++i;
    size_t boundary = i;
    while (i < small.size() && small[i] != first_small) ++i;
    return i == small.size() && boundary > 0 && boundary < small.size() ? boundary : 0;
  };
  size_t boundary = split(true);
  a.inline_below = boundary != 0;
  if (!boundary) boundary = split(false);
  if (!boundary) return a;
  a.found = true;
  size_t i = 0;
  for (const auto& [value, v] : by) {
    bool inlined = (i < boundary) == a.inline_below;
    (inlined ? a.inlined : a.kept) += v.tasks;
    if (a.inline_below ? i + 1 == boundary : i == boundary) a.value = value;
    ++i;
  }
  return a;
}

}  // namespace

GrainCost grain_cost(uint64_t overhead_ns, uint64_t tasks) {
  GrainCost c;
  c.task_cost_ns = tasks ? overhead_ns / tasks : 0;
  c.threshold_ns = kGrainFactor * c.task_cost_ns;
  return c;
}

GrainAdvice advise_grain(const TaskGrain& g, uint64_t threshold_ns) {
  GrainAdvice a;
  if (g.tasks == 0) return a;
  a.below = g.tasks_below(threshold_ns) / double(g.tasks);
  Split by_value = split_by_size(g.by_value, threshold_ns);
  if (by_value.found) {
    a.cut_off = true;
    a.inline_below = by_value.inline_below;
    a.value = by_value.value;
    a.tasks_inlined = by_value.inlined;
    a.tasks_kept = by_value.kept;
  }
  // The deeper tasks are the smaller ones in a recursion: inline from a depth on.
  Split by_depth = split_by_size(g.by_depth, threshold_ns);
  if (by_depth.found && !by_depth.inline_below) {
    a.depth_cut_off = true;
    a.depth = by_depth.value;
    a.depth_tasks_inlined = by_depth.inlined;
    a.depth_tasks_kept = by_depth.kept;
  }
  return a;
}

}  // namespace tasklens::analysis
