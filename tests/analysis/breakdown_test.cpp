// The POT breakdown on hand-made traces whose answer is known by construction. Times in ns.
#include "analysis/breakdown.h"

#include <gtest/gtest.h>

#include "analysis/breakdown_checks.h"
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

Breakdown run(TraceBuilder& t, uint32_t slices = 4) {
  BreakdownPass pass(slices);
  testing::replay_experiment(t.write(), {&pass});
  return pass.result();
}

void expect_split(const TimeSplit& s, uint64_t work, uint64_t overhead, uint64_t idle) {
  EXPECT_EQ(s.work_ns, work);
  EXPECT_EQ(s.overhead_ns, overhead);
  EXPECT_EQ(s.idle_ns, idle);
}


// Thread 0 creates one task at 10, waits in the barrier at 20, runs the task 30..130.
TEST(Breakdown, SingleTaskOnOneOfTwoThreads) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0);
  arrive(t, 0, 20);
  t.schedule(0, 30, kI0, Status::kSwitch, 10);
  t.schedule(0, 130, 10, Status::kComplete, kI0);
  team_end(t, 150, 200);
  Breakdown b = run(t);
  ASSERT_EQ(b.threads.size(), 2u);
  // Thread 0: works 0..20, 30..130, 150..160; overhead while the task waits (20..30) and while
  // the completed barrier is not yet left (130..150); idle after its implicit task (160..200).
  expect_split(b.threads[0].time, 130, 30, 40);
  // Thread 1: works 0..5 and 150..160; idle in the barrier until the task exists (5..10) and
  // while thread 0 runs it (30..130); overhead while it is ready (10..30) and 130..150.
  expect_split(b.threads[1].time, 15, 40, 145);
  expect_split(b.total, 145, 70, 185);
  EXPECT_EQ(b.run_ns, 200u);
  expect_breakdown_invariant(b);
}

// Three tasks created at 10, 20, 30 wait unstarted until 100: overhead for the idle thread.
TEST(Breakdown, ReadyTasksNotStartedAreOverhead) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0).create(0, 20, 11, kI0).create(0, 30, 12, kI0);
  arrive(t, 0, 100);
  t.schedule(0, 100, kI0, Status::kSwitch, 10).schedule(0, 110, 10, Status::kComplete, kI0);
  t.schedule(0, 110, kI0, Status::kSwitch, 11).schedule(0, 120, 11, Status::kComplete, kI0);
  t.schedule(0, 120, kI0, Status::kSwitch, 12).schedule(0, 130, 12, Status::kComplete, kI0);
  team_end(t, 130, 140);
  Breakdown b = run(t);
  // Thread 1: 0..5 work, 5..10 idle, 10..120 overhead (some task is ready until the last one
  // starts), 120..130 idle (the last task runs, the barrier waits for it), 130..140 work.
  expect_split(b.threads[1].time, 15, 110, 15);
  expect_split(b.threads[0].time, 100 + 30 + 10, 0, 0);
  expect_breakdown_invariant(b);
}

// A chain of two dependent tasks: while the first runs nothing is ready, so the other thread is
// idle, not in overhead (a tool that ignored dependences would say overhead).
TEST(Breakdown, DependenceChainLeavesTheOtherThreadIdle) {
  TraceBuilder t;
  dependence_chain(t);
  Breakdown b = run(t);
  // Thread 1: 0..5 work; 5..10 idle; 10..30 overhead (task 10 ready); 30..130 idle (11 waits
  // for 10); 130..140 overhead (11 ready); 140..240 work; 240..250 work.
  expect_split(b.threads[1].time, 5 + 100 + 10, 20 + 10, 5 + 100);
  // Thread 0: 0..30 work; 30..130 work (task 10); 130..140 overhead; 140..240 idle; 240..250.
  expect_split(b.threads[0].time, 30 + 100 + 10, 10, 100);
  expect_breakdown_invariant(b);
}

// Thread 0 waits in a taskwait while thread 1 runs its child; the waiter is ready from the
// child's end until the taskwait returns.
TEST(Breakdown, TaskwaitWithChildOnTheOtherThread) {
  TraceBuilder t;
  taskwait_on_other_thread(t);
  Breakdown b = run(t);
  // Thread 0: 0..20 work; 20..30 overhead (child ready); 30..130 idle; 130..140 overhead
  // (the waiter is ready); 140..150 work; 150..160 overhead (barrier complete, not left);
  // 160..170 work; 170..200 idle.
  expect_split(b.threads[0].time, 20 + 10 + 10, 10 + 10 + 10, 100 + 30);
  // Thread 1: 0..5 work; 5..10 idle; 10..30 overhead; 30..130 work (the child); 130..140
  // overhead; 140..150 idle; 150..160 overhead; 160..170 work; 170..200 idle.
  expect_split(b.threads[1].time, 5 + 100 + 10, 20 + 10 + 10, 5 + 10 + 30);
  expect_breakdown_invariant(b);
}

// A detached task ends its body at 50; its successor becomes ready only when thread 1 fulfils
// the event at 100.
TEST(Breakdown, DetachedTaskHoldsItsSuccessorUntilFulfilled) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xB0, DependenceType::kOut}});
  t.create(0, 15, 11, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 15, 11, {{0xB0, DependenceType::kIn}});
  arrive(t, 0, 20);
  t.schedule(0, 20, kI0, Status::kSwitch, 10).schedule(0, 50, 10, Status::kDetach, kI0);
  t.schedule(1, 100, 10, Status::kLateFulfill, 0);
  t.schedule(1, 110, kI1, Status::kSwitch, 11).schedule(1, 160, 11, Status::kComplete, kI1);
  team_end(t, 160, 170);
  Breakdown b = run(t);
  // Thread 0: 0..50 work; 50..100 idle (nothing ready, 11 waits for the event); 100..110
  // overhead (11 ready); 110..160 idle; 160..170 work.
  expect_split(b.threads[0].time, 50 + 10, 10, 50 + 50);
  // Thread 1: 0..5 work; 5..10 idle; 10..20 overhead (10 ready); 20..100 idle; 100..110
  // overhead; 110..160 work; 160..170 work.
  expect_split(b.threads[1].time, 5 + 50 + 10, 10 + 10, 5 + 80);
  expect_breakdown_invariant(b);
}

TEST(Breakdown, SlicesSplitIntervalsAtTheirBoundaries) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0);
  arrive(t, 0, 20);
  t.schedule(0, 30, kI0, Status::kSwitch, 10);
  t.schedule(0, 130, 10, Status::kComplete, kI0);
  team_end(t, 150, 200);
  Breakdown b = run(t, 4);  // slices of 50 ns
  ASSERT_EQ(b.series.size(), 4u);
  // 0..50: t0 work 20+20, overhead 10; t1 work 5, idle 5+20, overhead 20.
  expect_split(b.series[0].time, 45, 30, 25);
  expect_split(b.series[1].time, 50, 0, 50);   // task runs on t0, t1 idle
  // 100..150: t0 task 100..130 then overhead; t1 idle 100..130 then overhead.
  expect_split(b.series[2].time, 30, 40, 30);
  // 150..200: both work 150..160 then idle.
  expect_split(b.series[3].time, 20, 0, 80);
  expect_breakdown_invariant(b);
}

TEST(Breakdown, VerdictFollowsTable1) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0);
  arrive(t, 0, 20);
  t.schedule(0, 30, kI0, Status::kSwitch, 10);
  t.schedule(0, 130, 10, Status::kComplete, kI0);
  team_end(t, 150, 200);
  Breakdown b = run(t);
  // 185 of 400 ns idle, 70 overhead: both high.
  EXPECT_EQ(b.verdict, Verdict::kHH);
  EXPECT_STREQ(verdict_code(b.verdict), "HH");
}

}  // namespace
}  // namespace tasklens::analysis
