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

void expect_split(const TimeSplit& s, uint64_t work, uint64_t overhead, uint64_t idle,
                  uint64_t serial = 0, uint64_t preempted = 0) {
  EXPECT_EQ(s.work_ns, work);
  EXPECT_EQ(s.overhead_ns, overhead);
  EXPECT_EQ(s.idle_ns, idle);
  EXPECT_EQ(s.serial_ns, serial);
  EXPECT_EQ(s.preempted_ns, preempted);
}

// Thread 0 creates one task at 10, waits in the barrier at 20, runs the task 30..130; both leave
// the barrier at 150 and exit at 200.
void single_task(TraceBuilder& t) {
  team(t, 5);
  t.create(0, 10, 10, kI0);
  arrive(t, 0, 20);
  t.schedule(0, 30, kI0, Status::kSwitch, 10);
  t.schedule(0, 130, 10, Status::kComplete, kI0);
  team_end(t, 150, 200);
}

TEST(Breakdown, SingleTaskOnOneOfTwoThreads) {
  TraceBuilder t;
  single_task(t);
  Breakdown b = run(t);
  ASSERT_EQ(b.threads.size(), 2u);
  // Thread 0: works 0..20, 30..130, 150..160; overhead while the task waits (20..30) and while
  // the completed barrier is not yet left (130..150); the initial thread outside the region
  // after its implicit task (160..200) is serial.
  expect_split(b.threads[0].time, 130, 30, 0, 40);
  // Thread 1: works 0..5 and 150..160; idle in the barrier until the task exists (5..10) and
  // while thread 0 runs it (30..130); overhead while it is ready (10..30) and 130..150; idle
  // after its implicit task (160..200).
  expect_split(b.threads[1].time, 15, 40, 145);
  expect_split(b.total, 145, 70, 145, 40);
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
void expect_taskwait_on_other_thread(const Breakdown& b) {
  // Thread 0: 0..20 work; 20..30 overhead (child ready); 30..130 idle; 130..140 overhead
  // (the waiter is ready); 140..150 work; 150..160 overhead (barrier complete, not left);
  // 160..170 work; 170..200 serial (the initial thread outside the region).
  expect_split(b.threads[0].time, 20 + 10 + 10, 10 + 10 + 10, 100, 30);
  // Thread 1: 0..5 work; 5..10 idle; 10..30 overhead; 30..130 work (the child); 130..140
  // overhead; 140..150 idle; 150..160 overhead; 160..170 work; 170..200 idle.
  expect_split(b.threads[1].time, 5 + 100 + 10, 20 + 10 + 10, 5 + 10 + 30);
  expect_breakdown_invariant(b);
}

TEST(Breakdown, TaskwaitWithChildOnTheOtherThread) {
  TraceBuilder t;
  taskwait_on_other_thread(t);
  expect_taskwait_on_other_thread(run(t));
}

// `taskwait depend(in: A)`: the creator waits from the taskwait's task's creation to its
// taskwait_complete, exactly as in the taskwait above; its spin is not its work (it was: thread
// 0 had 20 + 120 + 10 + 10 work, the 130..140 overhead and the 30..130 idleness in it).
TEST(Breakdown, TaskwaitDependWaitsAsATaskwaitDoes) {
  TraceBuilder t;
  taskwait_depend_on_other_thread(t);
  expect_taskwait_on_other_thread(run(t));
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
  single_task(t);
  Breakdown b = run(t, 4);  // slices of 50 ns
  ASSERT_EQ(b.series.size(), 4u);
  // 0..50: t0 work 20+20, overhead 10; t1 work 5, idle 5+20, overhead 20.
  expect_split(b.series[0].time, 45, 30, 25);
  expect_split(b.series[1].time, 50, 0, 50);   // task runs on t0, t1 idle
  // 100..150: t0 task 100..130 then overhead; t1 idle 100..130 then overhead.
  expect_split(b.series[2].time, 30, 40, 30);
  // 150..200: both work 150..160, then thread 0 is serial and thread 1 idle.
  expect_split(b.series[3].time, 20, 0, 40, 40);
  expect_breakdown_invariant(b);
}

TEST(Breakdown, VerdictFollowsTable1) {
  TraceBuilder t;
  single_task(t);
  Breakdown b = run(t);
  // 145 of 360 ns idle, 70 overhead (the 40 serial ns left out): both high.
  EXPECT_EQ(b.verdict, Verdict::kHH);
  EXPECT_STREQ(verdict_code(b.verdict), "HH");
}

// The initial thread's life is the whole run: the process starts at 0, the recorder at 1000
// (its first event), the region runs 2000..3000, the program exits at 5000. A worker counts from
// its creation (2100) to the exit.
TEST(Breakdown, InitialThreadOutsideRegionsIsSerialFromTheProcessStart) {
  TraceBuilder t;
  initial_and_region(t, 1000, 2000, 2100);
  t.implicit_end(0, 3000, kI0).implicit_end(1, 3000, kI1);
  t.parallel_end(0, 3000, kRegion, 9);
  t.thread_end(1, 5000).thread_end(0, 5000);
  Breakdown b = run(t);
  ASSERT_EQ(b.threads.size(), 2u);
  EXPECT_TRUE(b.threads[0].initial);
  EXPECT_EQ(b.threads[0].begin_ns, 0u);
  EXPECT_EQ(b.threads[0].end_ns, 5000u);
  // 0..2000 and 3000..5000 serial, 2000..3000 work in its implicit task.
  expect_split(b.threads[0].time, 1000, 0, 0, 4000);
  // The worker: 2100..3000 work, then idle in the pool until the exit.
  EXPECT_EQ(b.threads[1].begin_ns, 2100u);
  expect_split(b.threads[1].time, 900, 0, 2000);
  // Serial time belongs to the time outside parallel regions (codeptr 0).
  for (const auto& r : b.regions) EXPECT_EQ(r.time.serial_ns, r.codeptr == 0 ? 4000u : 0u);
  // Task bodies ran 1000..5000 on thread 0 (the initial task, then the implicit one, then the
  // initial task again) and 2100..3000 on thread 1, whatever the category.
  EXPECT_EQ(b.task_body_ns, 4000u + 900u);
  // The verdict leaves serial time out: 2000 idle of 3900 ns.
  EXPECT_NEAR(b.idle_share, 2000.0 / 3900.0, 1e-9);
  expect_breakdown_invariant(b);
}

// libomp reports a worker's join barrier as ending only when the next region (or the exit)
// releases it. Once the region has ended, the worker waits for the program's next region, not in
// overhead: its implicit task is no longer ready. Both threads work 0..90 and 0..100; the barrier
// completes at 100; the initial thread leaves it at 110, ends the region at 120 and runs serial
// code until 1000, when the worker's barrier end is reported; both exit at 1010.
TEST(Breakdown, AWorkersJoinBarrierReportedLateIsIdlenessAfterTheRegion) {
  TraceBuilder t;
  initial_and_region(t, 0, 0, 0);
  arrive(t, 1, 90);
  arrive(t, 0, 100);
  leave(t, 0, 110);
  t.implicit_end(0, 110, kI0);
  t.parallel_end(0, 120, kRegion, 9);
  leave(t, 1, 1000);
  t.implicit_end(1, 1000, kI1);
  t.thread_end(1, 1010).thread_end(0, 1010);
  Breakdown b = run(t);
  ASSERT_EQ(b.threads.size(), 2u);
  // Thread 0: work 0..100, overhead 100..110 (its barrier done, not yet left), serial after.
  expect_split(b.threads[0].time, 100, 10, 0, 900);
  // Thread 1: work 0..90, idle 90..100 (the barrier incomplete), overhead 100..120 (complete,
  // the region not yet ended), idle 120..1010 (it was overhead until the late end: 900 ns).
  expect_split(b.threads[1].time, 90, 20, 900);
  EXPECT_EQ(b.verdict, Verdict::kHL);
  // The worker's wait after the region's end is outside it, not the region's imbalance.
  ASSERT_EQ(b.regions.size(), 2u);
  for (const auto& r : b.regions) {
    if (r.codeptr) {
      expect_split(r.time, 190, 30, 10);
    } else {
      expect_split(r.time, 0, 0, 890, 900);
    }
  }
  expect_breakdown_invariant(b);
}

// Preempted intervals (off_cpu.bin) come out of whatever the thread was doing, also across a
// change of state: the single-task trace above with three intervals.
TEST(Breakdown, PreemptedTimeIsTakenOutOfTheOtherCategories) {
  TraceBuilder t;
  single_task(t);
  t.preempted(0, 40, 60);    // thread 0 runs the task: 20 ns less work
  t.preempted(1, 100, 110);  // thread 1 is idle: 10 ns less idleness
  t.preempted(1, 125, 135);  // idle until 130, overhead after: 5 ns of each
  t.preempted(1, 300, 400);  // after the thread's end: not counted
  Breakdown b = run(t);
  EXPECT_TRUE(b.preemption_measured);
  expect_split(b.threads[0].time, 110, 30, 0, 40, 20);
  expect_split(b.threads[1].time, 15, 35, 130, 0, 20);
  expect_split(b.total, 125, 65, 130, 40, 40);
  for (const auto& th : b.threads) EXPECT_EQ(th.time.total_ns(), 200u);
  expect_breakdown_invariant(b);
}

// Thread 0 is preempted between two tasks while one is ready (1003..1503): without the
// measurement that half microsecond is overhead and the verdict LH; with it, the verdict is the
// one of the same run undisturbed, LL.
TEST(Breakdown, VerdictOfAPreemptedRunIsTheQuietOne) {
  auto trace = [](TraceBuilder& t, uint64_t gap) {
    team(t, 5);
    t.create(0, 1, 10, kI0).create(0, 2, 11, kI0).create(0, 3, 12, kI0);
    arrive(t, 0, 3);
    t.schedule(1, 5, kI1, Status::kSwitch, 11);
    t.schedule(0, 3, kI0, Status::kSwitch, 10).schedule(0, 1003, 10, Status::kComplete, kI0);
    t.schedule(0, 1003 + gap, kI0, Status::kSwitch, 12);
    t.schedule(0, 2003, 12, Status::kComplete, kI0);
    t.schedule(1, 2005, 11, Status::kComplete, kI1);
    team_end(t, 2005, 2015);
  };
  TraceBuilder quiet, disturbed, unmeasured;
  trace(quiet, 0);
  trace(disturbed, 500);
  disturbed.preempted(0, 1003, 1503);
  trace(unmeasured, 500);
  Breakdown q = run(quiet), d = run(disturbed), u = run(unmeasured);
  EXPECT_EQ(q.verdict, Verdict::kLL);
  EXPECT_EQ(u.verdict, Verdict::kLH) << u.overhead_share;
  EXPECT_EQ(d.verdict, Verdict::kLL) << d.overhead_share;
  EXPECT_EQ(d.total.preempted_ns, 500u);
  expect_breakdown_invariant(d);
}

}  // namespace
}  // namespace tasklens::analysis
