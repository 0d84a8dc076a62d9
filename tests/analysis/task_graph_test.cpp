// Work and span of hand-made traces whose longest path is known by construction. Times in ns.
// Each test also says what the span would be if the edge it is about were missed.
#include "analysis/task_graph.h"

#include <gtest/gtest.h>

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
