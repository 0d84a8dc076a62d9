// Work and span of hand-made traces whose longest path is known by construction. Times in ns.
// Each test also says what the span would be if the edge it is about were missed.
#include "analysis/task_graph.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/two_thread_team.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using testing::DependenceType;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

// The graph, and the breakdown's work, which must be the graph's.
TaskGraph run(TraceBuilder& t) {
  TaskGraphPass graph;
  BreakdownPass breakdown;
  EXPECT_TRUE(testing::replay_experiment(t.write(), {&graph, &breakdown}));
  EXPECT_EQ(graph.result().work_ns, breakdown.result().total.work_ns);
  return graph.result();
}

// Task 10 writes what task 11 reads (two_thread_team.h): 11 runs after 10 although it was
// created earlier in the creator's strand and another thread was free.
TEST(TaskGraph, ADependenceChainIsOnePath) {
  TraceBuilder t;
  dependence_chain(t);
  TaskGraph g = run(t);
  // Work: I0 30 + 10, I1 5 + 10, the tasks 100 + 100.
  EXPECT_EQ(g.work_ns, 255u);
  // Path: 10 ns of I0 before it creates task 10, task 10 (100), task 11 (100), 10 after the
  // barrier. Without the dependence, 11 would end at 20 + 100 and the span be 130.
  EXPECT_EQ(g.span_ns, 220u);
  EXPECT_EQ(g.tasks, 2u);
  EXPECT_EQ(g.dependence_edges, 1u);
  EXPECT_EQ(g.threads, 2u);
  EXPECT_DOUBLE_EQ(g.parallelism, 255.0 / 220.0);
  EXPECT_EQ(g.bound_ns, 220u);  // max(255 / 2, 220)
  EXPECT_EQ(g.run_ns, 250u);
  // One task construct (0x2000), two tasks of 100 ns.
  ASSERT_EQ(g.grains.size(), 1u);
  EXPECT_EQ(g.grains[0].tasks, 2u);
  EXPECT_EQ(g.grains[0].subtree_ns, 200u);
  EXPECT_EQ(g.grains[0].by_log2[7], 2u);  // 100 ns: [64, 128)
  // The path: I0 before creating task 10 (10), both tasks (200), then I1 after the barrier (10):
  // at 240 thread 0 leaves the barrier before thread 1's task 11 ends (ties go to the lower
  // thread), so only I1 continues from task 11's end.
  ASSERT_EQ(g.critical_path.size(), 2u);
  EXPECT_EQ(g.critical_path[0].codeptr, 0x2000u);
  EXPECT_EQ(g.critical_path[0].ns, 200u);
  EXPECT_EQ(g.critical_path[0].tasks, 2u);
  EXPECT_EQ(g.critical_path[1].codeptr, 0u);
  EXPECT_EQ(g.critical_path[1].ns, 20u);
  EXPECT_EQ(g.critical_path[1].tasks, 2u);
}

// Thread 0 waits in a taskwait for its child, which thread 1 runs.
TEST(TaskGraph, ATaskwaitContinuesAfterTheChild) {
  TraceBuilder t;
  taskwait_on_other_thread(t);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 155u);  // I0 20 + 10 + 10, I1 5 + 10, the child 100
  // Path: I0 to the creation (10), the child (100), I0 after the taskwait (10), after the
  // barrier (10). Without the taskwait's edge I0 would arrive at 30 and the span be 120.
  EXPECT_EQ(g.span_ns, 130u);
}

// A taskgroup waits for a grandchild that its child created and did not wait for.
TEST(TaskGraph, ATaskgroupContinuesAfterEveryDescendant) {
  TraceBuilder t;
  team(t, 5);
  t.sync(0, 5, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.create(0, 10, 11, kI0);
  t.sync_wait(0, 20, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 11);
  t.create(1, 50, 12, 11);
  t.schedule(1, 60, 11, Status::kComplete, kI1);
  t.schedule(1, 70, kI1, Status::kSwitch, 12).schedule(1, 170, 12, Status::kComplete, kI1);
  t.sync_wait(0, 200, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  t.sync(0, 200, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  arrive(t, 0, 210);
  team_end(t, 220, 240);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 185u);  // I0 20 + 10 + 10, I1 5 + 10, child 30, grandchild 100
  // Path: I0 to the creation (10), the child to its creation of the grandchild (20), the
  // grandchild (100), I0 after the taskgroup (10) and after the barrier (10). Had the taskgroup
  // waited only for the child (ended at 40), the span would be 140.
  EXPECT_EQ(g.span_ns, 150u);
  // The path: I0 10, the child 20, the grandchild 100, I0 10 + 10.
  ASSERT_EQ(g.critical_path.size(), 2u);
  EXPECT_EQ(g.critical_path[0].ns, 120u);
  EXPECT_EQ(g.critical_path[0].tasks, 2u);
  EXPECT_EQ(g.critical_path[1].ns, 30u);
  // The child's subtree is its own 30 ns: the grandchild (100) ended after it.
  ASSERT_EQ(g.grains.size(), 1u);
  EXPECT_EQ(g.grains[0].tasks, 2u);
  EXPECT_EQ(g.grains[0].subtree_ns, 130u);
}

// A taskgroup waits only for the tasks created inside it: task 10, created before it opened and
// ending after task 11, is joined by the barrier, not by the taskgroup.
TEST(TaskGraph, ATaskgroupIgnoresTasksCreatedBeforeIt) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0);
  t.sync(0, 15, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.create(0, 20, 11, kI0);
  t.sync_wait(0, 30, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.schedule(0, 35, kI0, Status::kSwitch, 11).schedule(0, 45, 11, Status::kComplete, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 10).schedule(1, 70, 10, Status::kComplete, kI1);
  t.sync_wait(0, 80, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  t.sync(0, 80, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  arrive(t, 0, 90);
  team_end(t, 100, 120);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 115u);  // I0 30 + 10 + 10, I1 5 + 10, task 10 40, task 11 10
  // I0 leaves the taskgroup at 30 (its own 30, task 11 ends at 20 + 10), arrives at 40; the
  // barrier joins task 10 (10 + 40 = 50), then 10 more. Had the taskgroup waited for task 10,
  // I0 would arrive at 60 and the span be 70.
  EXPECT_EQ(g.span_ns, 60u);
}

// A child's subtree work counts in its parent when the parent waits for it.
TEST(TaskGraph, SubtreeWorkHoldsTheChildrenWaitedFor) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 11, kI0, 0x2000);
  t.schedule(0, 20, kI0, Status::kSwitch, 11);
  t.user_param(0, 25, "n", 3);
  t.create(0, 30, 12, 11, 0x2400);
  t.sync_span(0, 40, 100, SyncKind::kTaskwait, kRegion, 11);
  t.schedule(1, 50, kI1, Status::kSwitch, 12);
  t.user_param(1, 55, "n", 2);
  t.schedule(1, 90, 12, Status::kComplete, kI1);
  t.schedule(0, 110, 11, Status::kComplete, kI0);
  arrive(t, 0, 120);
  team_end(t, 130, 150);
  TaskGraph g = run(t);
  // Task 11 ran 20..40 and 100..110 (30 ns) and waited for task 12 (40 ns).
  ASSERT_EQ(g.grains.size(), 2u);
  EXPECT_EQ(g.grains[0].codeptr, 0x2000u);
  EXPECT_EQ(g.grains[0].subtree_ns, 70u);
  EXPECT_EQ(g.grains[1].subtree_ns, 40u);
  ASSERT_EQ(g.grains[0].by_value.size(), 1u);
  EXPECT_EQ(g.grains[0].by_value.begin()->first, 3);
  EXPECT_EQ(g.grains[1].by_value.begin()->first, 2);
}

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

// Two independent tasks run side by side: the span is the longer branch, not the sum.
TEST(TaskGraph, IndependentTasksAreParallelBranches) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0).create(0, 20, 11, kI0);
  arrive(t, 0, 30);
  t.schedule(0, 30, kI0, Status::kSwitch, 10).schedule(0, 130, 10, Status::kComplete, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 11).schedule(1, 80, 11, Status::kComplete, kI1);
  team_end(t, 140, 160);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 30u + 15 + 10 + 100 + 50);
  // Path: 10 ns of I0, task 10 (100), 10 after the barrier; task 11 ends at 20 + 50.
  EXPECT_EQ(g.span_ns, 120u);
}

}  // namespace
}  // namespace tasklens::analysis

namespace tasklens::analysis {
namespace {

// Shared prefixes stay while any path holds them; everything is freed with the last holder.
TEST(PathArena, SegmentsLiveAsLongAsAPathHoldsThem) {
  PathArena arena;
  PathArena::Ref a = arena.extend(0, 1, 0, 10);  // [a]
  PathArena::Ref b = arena.extend(arena.acquire(a), 2, 1, 20);  // [a b], a held twice
  PathArena::Ref c = arena.extend(a, 3, 1, 30);  // [a c]: takes the first holder's reference
  EXPECT_EQ(arena.in_use(), 3u);
  arena.release(b);  // b goes; a stays for c
  EXPECT_EQ(arena.in_use(), 2u);
  EXPECT_EQ(arena.segment(c).prev, a);
  EXPECT_EQ(arena.segment(a).ns, 10u);
  PathArena::Ref slot = 0;
  arena.assign(&slot, c);
  arena.release(c);
  EXPECT_EQ(arena.in_use(), 2u);  // the slot holds [a c]
  arena.assign(&slot, 0);
  EXPECT_EQ(arena.in_use(), 0u);
  // Freed segments are reused.
  PathArena::Ref d = arena.extend(0, 4, 2, 40);
  EXPECT_LE(d, 3u);
  arena.release(d);
  EXPECT_EQ(arena.in_use(), 0u);
}

}  // namespace
}  // namespace tasklens::analysis
