// The task-size advice (analysis/task_grain.h) on hand-made grains: the cost per task, the
// threshold and where a parameter's values split the tasks by size.
#include "analysis/task_grain.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tasklens::analysis {
namespace {

TaskGrain grain(std::vector<std::pair<int64_t, uint64_t>> mean_by_value, uint64_t tasks_each) {
  TaskGrain g;
  for (auto [value, mean] : mean_by_value) {
    g.by_value[value] = {tasks_each, mean * tasks_each};
    g.tasks += tasks_each;
    g.subtree_ns += mean * tasks_each;
    g.by_log2[64 - __builtin_clzll(mean)] += tasks_each;
  }
  return g;
}

TEST(GrainAdvice, CostAndThresholdFromTheBreakdownsOverhead) {
  // 1 ms of overhead over 400 tasks: 2500 ns a task; a task should carry 20x that.
  GrainCost c = grain_cost(1000000, 400);
  EXPECT_EQ(c.task_cost_ns, 2500u);
  EXPECT_EQ(c.threshold_ns, 50000u);
  c = grain_cost(1000000, 0);  // no explicit tasks: no cost, no threshold
  EXPECT_EQ(c.task_cost_ns, 0u);
  EXPECT_EQ(c.threshold_ns, 0u);
}

TEST(GrainAdvice, ACutOffWhereTheValuesSplitBySize) {
  // n = 1..5 carry 10, 20, 40, 2000, 9000 ns; the threshold is 1000.
  GrainAdvice a = advise_grain(grain({{1, 10}, {2, 20}, {3, 40}, {4, 2000}, {5, 9000}}, 7), 1000);
  EXPECT_TRUE(a.cut_off);
  EXPECT_TRUE(a.inline_below);
  EXPECT_EQ(a.value, 3);
  EXPECT_EQ(a.tasks_inlined, 21u);
  EXPECT_EQ(a.tasks_kept, 14u);
  EXPECT_DOUBLE_EQ(a.below, 21.0 / 35.0);
  // A depth-like parameter: the large values are the small tasks.
  a = advise_grain(grain({{1, 9000}, {2, 2000}, {3, 40}}, 1), 1000);
  EXPECT_TRUE(a.cut_off);
  EXPECT_FALSE(a.inline_below);
  EXPECT_EQ(a.value, 3);
  EXPECT_EQ(a.tasks_inlined, 1u);
  // Small values on both sides: the parameter does not order the tasks by size.
  a = advise_grain(grain({{1, 10}, {2, 2000}, {3, 40}}, 1), 1000);
  EXPECT_FALSE(a.cut_off);
  // All small: no value to cut at, but every task is below.
  a = advise_grain(grain({{1, 10}, {2, 20}}, 1), 1000);
  EXPECT_FALSE(a.cut_off);
  EXPECT_DOUBLE_EQ(a.below, 1.0);
}

}  // namespace
}  // namespace tasklens::analysis
