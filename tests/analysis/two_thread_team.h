// The frame of most golden traces of the analyses: a parallel region (kRegion) of two threads,
// implicit tasks kI0 and kI1, from 0 until both leave the closing barrier. Times in ns.
#pragma once

#include <cstdint>

#include "support/trace_builder.h"

namespace tasklens::analysis {

constexpr uint64_t kRegion = 100;
constexpr uint64_t kI0 = 1, kI1 = 2;  // implicit tasks of threads 0 and 1

// Thread `th` (0 or 1) enters the closing barrier at `t`.
inline void arrive(testing::TraceBuilder& t, uint32_t th, uint64_t time) {
  uint64_t task = th ? kI1 : kI0;
  t.sync(th, time, testing::SyncKind::kBarrierImplicit, format::Endpoint::kBegin, kRegion, task);
  t.sync_wait(th, time, testing::SyncKind::kBarrierImplicit, format::Endpoint::kBegin, kRegion,
              task);
}

// Thread `th` leaves the closing barrier at `time` (libomp names no region there).
inline void leave(testing::TraceBuilder& t, uint32_t th, uint64_t time) {
  uint64_t task = th ? kI1 : kI0;
  t.sync_wait(th, time, testing::SyncKind::kBarrierImplicit, format::Endpoint::kEnd, 0, task);
  t.sync(th, time, testing::SyncKind::kBarrierImplicit, format::Endpoint::kEnd, 0, task);
}

// The initial thread starts (its initial task 9) at `initial`, opens kRegion at `region`; the
// worker starts in it at `worker`.
inline void initial_and_region(testing::TraceBuilder& t, uint64_t initial, uint64_t region,
                               uint64_t worker) {
  t.thread_begin(0, initial, 1).initial_task(0, initial, 9);
  t.parallel_begin(0, region, kRegion, 9);
  t.implicit_begin(0, region, kI0, kRegion, 2, 0);
  t.thread_begin(1, worker).implicit_begin(1, worker, kI1, kRegion, 2, 1);
}

// Both threads start the region at 0; thread 1 enters the barrier at `wait1`.
inline void team(testing::TraceBuilder& t, uint64_t wait1) {
  t.thread_begin(0, 0, 1).implicit_begin(0, 0, kI0, kRegion, 2, 0);
  t.thread_begin(1, 0).implicit_begin(1, 0, kI1, kRegion, 2, 1);
  arrive(t, 1, wait1);
}

// Both leave the barrier at `end_wait`, end their implicit task 10 ns later, exit at `exit`.
inline void team_end(testing::TraceBuilder& t, uint64_t end_wait, uint64_t exit) {
  for (uint32_t th = 0; th < 2; ++th) {
    leave(t, th, end_wait);
    t.implicit_end(th, end_wait + 10, th ? kI1 : kI0);
    t.thread_end(th, exit);
  }
}

// Task 10 (created at 10, runs on thread 0 30..130) writes what task 11 (created at 20, runs on
// thread 1 140..240) reads; thread 0 waits in the barrier from 30; both leave it at 240.
inline void dependence_chain(testing::TraceBuilder& t) {
  team(t, 5);
  t.create(0, 10, 10, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, testing::DependenceType::kOut}});
  t.create(0, 20, 11, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 20, 11, {{0xA0, testing::DependenceType::kInout}});
  arrive(t, 0, 30);
  t.schedule(0, 30, kI0, testing::Status::kSwitch, 10);
  t.schedule(0, 130, 10, testing::Status::kComplete, kI0);
  t.schedule(1, 140, kI1, testing::Status::kSwitch, 11);
  t.schedule(1, 240, 11, testing::Status::kComplete, kI1);
  team_end(t, 240, 250);
}

// Thread 0 creates task 10 at 10 and waits for it in a taskwait 20..140 while thread 1 runs it
// 30..130; thread 0 enters the barrier at 150; both leave it at 160.
inline void taskwait_on_other_thread(testing::TraceBuilder& t) {
  team(t, 5);
  t.create(0, 10, 10, kI0);
  t.sync_span(0, 20, 140, testing::SyncKind::kTaskwait, kRegion, kI0);
  t.schedule(1, 30, kI1, testing::Status::kSwitch, 10);
  t.schedule(1, 130, 10, testing::Status::kComplete, kI1);
  arrive(t, 0, 150);
  team_end(t, 160, 200);
}

// The task flags libomp 14 gives the task of `taskwait depend(...)` (docs/LIBOMP.md).
constexpr uint32_t kTaskwaitDependFlags =
    format::task_flag::kTaskwait | format::task_flag::kUndeferred | format::task_flag::kMergeable;

// taskwait_on_other_thread as `taskwait depend(in: A)`: libomp reports no taskwait region, only
// task 11, which never runs and ends with taskwait_complete once task 10 has. Thread 0 creates
// task 10 (out A) at 10 and task 11 (in A) at 20, spins until 140 while thread 1 runs task 10
// 30..130; thread 0 enters the barrier at 150; both leave it at 160. Every analysis should see
// what it sees in taskwait_on_other_thread.
inline void taskwait_depend_on_other_thread(testing::TraceBuilder& t) {
  team(t, 5);
  t.create(0, 10, 10, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, testing::DependenceType::kOut}});
  t.create(0, 20, 11, kI0, 0x5000, kTaskwaitDependFlags, true);
  t.deps(0, 20, 11, {{0xA0, testing::DependenceType::kIn}});
  t.schedule(1, 30, kI1, testing::Status::kSwitch, 10);
  t.schedule(1, 130, 10, testing::Status::kComplete, kI1);
  t.schedule(0, 140, 11, testing::Status::kTaskwaitComplete, 0);
  arrive(t, 0, 150);
  team_end(t, 160, 200);
}

// taskwait_depend_on_other_thread as a plain taskwait that differs in nothing else: task 10 has
// its dependence, and thread 0 waits in a taskwait region 20..140 at the address of task 11's
// creation (0x5000). The timeline exports should show both alike.
inline void plain_twin_of_taskwait_depend(testing::TraceBuilder& t) {
  team(t, 5);
  t.create(0, 10, 10, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, testing::DependenceType::kOut}});
  t.sync_span(0, 20, 140, testing::SyncKind::kTaskwait, kRegion, kI0, 0x5000);
  t.schedule(1, 30, kI1, testing::Status::kSwitch, 10);
  t.schedule(1, 130, 10, testing::Status::kComplete, kI1);
  arrive(t, 0, 150);
  team_end(t, 160, 200);
}

}  // namespace tasklens::analysis
