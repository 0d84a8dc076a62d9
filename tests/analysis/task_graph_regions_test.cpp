// The task graph across parallel regions: barriers (each waits for its own arrivals and the
// tasks created before it), forks and the serial code around regions. Hand-made traces whose
// longest path is known by construction; times in ns. Each test also says what the span would
// be if the edge it is about were missed.
#include <gtest/gtest.h>

#include <cstdint>

#include "analysis/task_graph.h"
#include "analysis/task_graph_run.h"
#include "analysis/two_thread_team.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

// A barrier waits for the tasks created before it, not after: thread 1 leaves the explicit
// barrier at 100, creates task 20 at 110 and runs it for 1,000 ns; thread 0's end of the same
// barrier is reported only at 1,200 (a loaded machine) and then runs 500 ns. Its 500 ns start
// after thread 0's own 100 ns, not after task 20 (the span was 1,620 when they did). `creator`:
// task 20's.
void barrier_ended_late(TraceBuilder& t, uint64_t creator) {
  t.thread_begin(0, 0, 1).implicit_begin(0, 0, kI0, kRegion, 2, 0);
  t.thread_begin(1, 0).implicit_begin(1, 0, kI1, kRegion, 2, 1);
  t.sync_span(1, 10, 100, SyncKind::kBarrierExplicit, kRegion, kI1);
  t.sync_span(0, 100, 1200, SyncKind::kBarrierExplicit, kRegion, kI0);
  t.create(1, 110, 20, creator, 0x2000);
  t.schedule(1, 110, kI1, Status::kSwitch, 20);
  t.schedule(1, 1110, 20, Status::kComplete, kI1);
  arrive(t, 1, 1120);
  arrive(t, 0, 1700);
  team_end(t, 1700, 1800);
}

TEST(TaskGraph, ABarrierDoesNotWaitForTasksCreatedAfterIt) {
  TraceBuilder t;
  barrier_ended_late(t, kI1);
  TaskGraph g = run(t);
  // Thread 0's 100 ns, the barrier, thread 1 creating task 20 (10), the task (1,000), the
  // closing barrier, 10 in an implicit task after it. Thread 0's path is 100 + 500.
  EXPECT_EQ(g.span_ns, 1120u);
  ASSERT_EQ(g.path_runs.size(), 4u);
  EXPECT_EQ(g.path_runs[2].codeptr, 0x2000u);
  EXPECT_EQ(g.path_runs[3].via, PathVia::kBarrier);
  EXPECT_EQ(g.path_runs[3].ns, 10u);
}

// The same with task 20's creator unknown (a damaged trace): it belongs to the barrier of the
// task its thread runs, I1's next, not to the first one (1,620 when it did).
TEST(TaskGraph, ATaskOfAnUnknownCreatorBelongsToItsThreadsBarrier) {
  TraceBuilder t;
  barrier_ended_late(t, 99);  // 99: never seen
  EXPECT_EQ(run(t).span_ns, 1120u);
}

// The program's initial task runs a serial prelude, then forks a region whose implicit task on
// thread 0 begins `gap` ns later (thread creation); I0 creates 8 independent tasks of 100 ns,
// 1 ns apart, that both threads run; after the region the initial task runs 60 ns more.
void prelude_then_tasks(TraceBuilder& t, uint64_t prelude, uint64_t gap) {
  constexpr uint64_t kInitial = 50;
  uint64_t f = prelude, s = prelude + gap;  // fork, I0's begin
  t.thread_begin(0, 0, 1).initial_task(0, 0, kInitial);
  t.parallel_begin(0, f, kRegion, kInitial, 2, 0x1000);
  t.thread_begin(1, f + gap / 2).implicit_begin(1, f + gap / 2 + 10, kI1, kRegion, 2, 1);
  arrive(t, 1, f + gap / 2 + 20);
  t.implicit_begin(0, s, kI0, kRegion, 2, 0);
  for (uint64_t k = 0; k < 8; ++k) t.create(0, s + 10 + k, 10 + k, kI0);
  arrive(t, 0, s + 18);
  for (uint64_t k = 0; k < 8; k += 2) {
    t.schedule(0, s + 18 + 50 * k, kI0, Status::kSwitch, 10 + k);
    t.schedule(0, s + 18 + 50 * k + 100, 10 + k, Status::kComplete, kI0);
  }
  for (uint64_t k = 1; k < 8; k += 2) {
    t.schedule(1, s + 18 + 50 * k, kI1, Status::kSwitch, 10 + k);
    t.schedule(1, s + 18 + 50 * k + 100, 10 + k, Status::kComplete, kI1);
  }
  uint64_t e = s + 18 + 50 * 7 + 100 + 2;
  for (uint32_t th = 0; th < 2; ++th) {
    uint64_t task = th ? kI1 : kI0;
    t.sync_wait(th, e, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, task);
    t.sync(th, e, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, task);
    t.implicit_end(th, e + 10, task);
  }
  t.thread_end(1, e + 20);
  t.parallel_end(0, e + 20, kRegion, kInitial, 0x1000);
  t.thread_end(0, e + 80);
}

// Closed form: prelude + fork gap + I0 to the last task's creation (10 + 7) + the task (100) +
// 10 in I0 after the barrier + 60 in the initial task after the region.
uint64_t prelude_span(uint64_t prelude, uint64_t gap) {
  return prelude + gap + 17 + 100 + 70;
}

TEST(TaskGraph, ASerialPreludeThenEightTasksHasTheClosedFormSpan) {
  TraceBuilder t;
  prelude_then_tasks(t, 20000, 300);
  TaskGraph g = run(t);
  EXPECT_EQ(g.span_ns, prelude_span(20000, 300));
  EXPECT_EQ(g.runtime_ns, 300u);  // thread 0 from parallel_begin to its implicit task
  EXPECT_EQ(g.path_runtime_ns, 300u);
  ASSERT_GE(g.critical_path.size(), 3u);
  bool task_on_path = false;
  for (const PathShare& s : g.critical_path) task_on_path |= s.codeptr == 0x2000 && s.ns == 100;
  EXPECT_TRUE(task_on_path);
}

// A region entered after a fork gap longer than the region's own path: its tasks stay on the
// critical path, the gap is labelled runtime (before, the gap counted as the initial task's
// work and the region dropped off the path).
TEST(TaskGraph, ARegionAfterALongForkGapHangsOffItsFork) {
  TraceBuilder t;
  prelude_then_tasks(t, 1000, 5000);
  TaskGraph g = run(t);
  EXPECT_EQ(g.span_ns, prelude_span(1000, 5000));
  // In order: the initial task's prelude, the fork (runtime, at the parallel construct), I0
  // creating 8 tasks, one task, I0 after the barrier and the initial task after the join.
  ASSERT_EQ(g.path_runs.size(), 6u);
  EXPECT_EQ(g.path_runs[0].codeptr, 0u);
  EXPECT_EQ(g.path_runs[0].ns, 1000u);
  EXPECT_TRUE(g.path_runs[0].serial);
  EXPECT_EQ(g.path_runs[1].kind, PathKind::kFork);
  EXPECT_EQ(g.path_runs[1].codeptr, 0x1000u);
  EXPECT_EQ(g.path_runs[1].ns, 5000u);
  EXPECT_EQ(g.path_runs[2].kind, PathKind::kWork);
  EXPECT_EQ(g.path_runs[2].creates, 8u);
  EXPECT_EQ(g.path_runs[2].creating_ns, 7u);
  EXPECT_EQ(g.path_runs[3].codeptr, 0x2000u);
  EXPECT_EQ(g.path_runs[3].ns, 100u);
  EXPECT_EQ(g.path_runs[4].ns, 10u);
  EXPECT_EQ(g.path_runs[4].via, PathVia::kBarrier);
  EXPECT_FALSE(g.path_runs[4].serial);
  EXPECT_EQ(g.path_runs[5].ns, 60u);
  EXPECT_EQ(g.path_runs[5].via, PathVia::kJoin);
  EXPECT_TRUE(g.path_runs[5].serial);
  EXPECT_EQ(g.path_serial_ns, 1060u);
  PathShare runtime;
  for (const PathShare& s : g.critical_path) {
    if (s.runtime) runtime = s;
  }
  EXPECT_EQ(runtime.ns, 5000u);
  EXPECT_EQ(g.path_runtime_ns, 5000u);
  EXPECT_FALSE(g.creation_bound.found);
}

// The trace of ARegionAfterALongForkGapHangsOffItsFork with thread 0 off its CPU for 200 ns of
// its serial prelude and 1,000 ns of the fork gap, thread 1 for 100 ns while it waits in the
// barrier (in no strand: not counted) and 50 ns inside task 11 (6068..6168, off the path): left
// out of the prelude's strand, the fork's runtime on the path and the task's work.
TEST(TaskGraph, PreemptedTimeInThePreludeAndTheForkIsLeftOut) {
  TraceBuilder t;
  prelude_then_tasks(t, 1000, 5000);
  const uint64_t work = run(t).work_ns;
  t.preempted(0, 200, 400).preempted(0, 2000, 3000);
  t.preempted(1, 3600, 3700).preempted(1, 6100, 6150);
  TaskGraph g = run(t);
  EXPECT_EQ(g.preempted_ns, 1250u);
  EXPECT_EQ(g.work_ns, work - 250);
  EXPECT_EQ(g.span_ns, prelude_span(1000, 5000) - 1200);
  EXPECT_EQ(g.runtime_ns, 4000u);
  ASSERT_EQ(g.path_runs.size(), 6u);
  EXPECT_EQ(g.path_runs[0].ns, 800u);
  EXPECT_EQ(g.path_runs[1].ns, 4000u);
  EXPECT_EQ(g.path_serial_ns, 860u);
}

}  // namespace
}  // namespace tasklens::analysis
