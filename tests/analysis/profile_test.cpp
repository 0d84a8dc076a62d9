// Golden tests of the task-aware profile (src/analysis/profile.h) on hand-made traces: the
// Score-P paper's (Lorenz et al.) own examples (Fig. 3, Fig. 4, Sect. IV-B4) and an untied task
// that migrates. Every expected number is derived by hand in the comments; times are in ns.
#include <gtest/gtest.h>

#include <string>

#include "analysis/profile.h"
#include "analysis/profile_dump.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using format::Kind;
using format::MutexKind;
using format::task_flag::kExplicit;
using format::task_flag::kUntied;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

// The smallest shape of a thread: the initial task, one parallel region of `team` threads.
void open_region(TraceBuilder& t, uint32_t team) {
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, uint16_t(team), kParallelCode);
  for (uint32_t th = 0; th < team; ++th) t.implicit_begin(th, 0, 2 + th, 100, team, uint16_t(th));
}

void close_region(TraceBuilder& t, uint32_t team, uint64_t end) {
  for (uint32_t th = 0; th < team; ++th) t.implicit_end(th, end, 2 + th);
  t.parallel_end(0, end, 100, 1, kParallelCode);
  t.implicit_end(0, end + 10, 1);
}

void sync_begin(TraceBuilder& t, uint32_t th, uint64_t at, SyncKind k, uint64_t task, uint64_t code) {
  t.sync(th, at, k, Endpoint::kBegin, 100, task, code);
  t.sync_wait(th, at, k, Endpoint::kBegin, 100, task, code);
}

void sync_end(TraceBuilder& t, uint32_t th, uint64_t at, SyncKind k, uint64_t task, uint64_t code) {
  t.sync_wait(th, at, k, Endpoint::kEnd, 100, task, code);
  t.sync(th, at, k, Endpoint::kEnd, 100, task, code);
}

// Seed 000 Fig. 3: a task created in the parallel region runs in the barrier. Attributed to the
// node where it was created, the creation node would get the task's 50 ns as a child and its
// exclusive time would be 2 - 50 < 0, and the barrier would look like 58 ns of waiting. Here the
// task runs under the barrier, as a stub, and every exclusive time is what the thread did there.
//
//   0  initial task 1, parallel 100 (team of 1), implicit task 2
//   10 create task 5 (construct A)      creation: 10 .. next event 12 = 2
//   12 barrier begin
//   14 switch 2 -> 5                    task 5 runs 14 .. 64 = 50
//   64 5 completes, back to 2
//   70 barrier end                      barrier: 12 .. 70 = 58, minus the stub's 50 = 8
//   80 implicit task ends               parallel: 0 .. 80 = 80, minus 2 + 58 = 20
//   90 initial task ends                program: 0 .. 90 = 90, minus 80 = 10
TEST(ProfileGolden, Fig3TaskTimeGoesToTheExecutingNode) {
  TraceBuilder t;
  open_region(t, 1);
  t.create(0, 10, 5, 2, kTaskA);
  sync_begin(t, 0, 12, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  t.schedule(0, 14, 2, Status::kSwitch, 5);
  t.schedule(0, 64, 5, Status::kComplete, 2);
  sync_end(t, 0, 70, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  close_region(t, 1, 80);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=90 e=10\n"
            "  parallel 0x1000 v=1 f=1 i=80 e=20\n"
            "    barrier 0x3000 v=1 f=1 i=58 e=8\n"
            "      stub 0x2000 v=1 f=1 i=50 e=50\n"
            "    create_task 0x2000 v=1 f=1 i=2 e=2\n"
            "--\n"
            "task 0x2000 v=1 f=1 i=50 e=50\n");
  const TaskConstruct& a = construct(p, kTaskA);
  EXPECT_EQ(a.instances, 1u);
  EXPECT_EQ(a.time.sum, 50u);
  EXPECT_EQ(a.creation.sum, 2u);
  EXPECT_EQ(a.start_delay.sum, 4u);  // created at 10, first run at 14
  EXPECT_EQ(p.total_time_ns, 90u);
  for (const ProfileNode& n : p.nodes) EXPECT_LE(n.total.exclusive.sum, n.total.inclusive.sum);
}

// Seed 000 Fig. 4: task A is suspended in its taskwait and task B (its child) runs there; A then
// resumes. A's time stops while B runs, B gets a tree of its own, and the implicit task's barrier
// holds a stub per construct with the time each ran there.
//
//   10 create A (5)                     creation 10 .. 12 = 2
//   12 barrier begin (implicit task 2)
//   14 switch 2 -> A                    A clock starts (stub A, visit 1)
//   20 A creates B (6)                  A clock 6; creation 20 .. 21 = 1 (A clock 6 .. 7)
//   21 A: taskwait begin                A clock 7
//   22 switch A -> B                    A clock 8, suspended; stub A visit 1 = 14 .. 22 = 8
//   42 B completes, A resumes           B: 22 .. 42 = 20 (stub B = 20); stub A visit 2 starts
//   45 A: taskwait end                  A clock 8 + 3 = 11: taskwait = 11 - 7 = 4, 2 fragments
//   50 A completes                      A clock 16; stub A visit 2 = 42 .. 50 = 8
//   60 barrier end                      barrier 12 .. 60 = 48, minus stubs 16 + 20 = 12
//   70 implicit task ends               parallel 0 .. 70 = 70, minus 2 + 48 = 20
// A's tree: 16 = create 1 + taskwait 4 + exclusive 11; B's tree: 20. Stubs sum to 36 = 16 + 20.
TEST(ProfileGolden, Fig4TaskSuspendedInTaskwait) {
  TraceBuilder t;
  open_region(t, 1);
  t.create(0, 10, 5, 2, kTaskA);
  sync_begin(t, 0, 12, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  t.schedule(0, 14, 2, Status::kSwitch, 5);
  t.create(0, 20, 6, 5, kTaskB);
  sync_begin(t, 0, 21, SyncKind::kTaskwait, 5, kTaskwaitCode);
  t.schedule(0, 22, 5, Status::kSwitch, 6);
  t.schedule(0, 42, 6, Status::kComplete, 5);
  sync_end(t, 0, 45, SyncKind::kTaskwait, 5, kTaskwaitCode);
  t.schedule(0, 50, 5, Status::kComplete, 2);
  sync_end(t, 0, 60, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  close_region(t, 1, 70);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=80 e=10\n"
            "  parallel 0x1000 v=1 f=1 i=70 e=20\n"
            "    barrier 0x3000 v=1 f=1 i=48 e=12\n"
            "      stub 0x2100 v=1 f=1 i=20 e=20\n"
            "      stub 0x2000 v=2 f=2 i=16 e=16\n"
            "    create_task 0x2000 v=1 f=1 i=2 e=2\n"
            "--\n"
            "task 0x2100 v=1 f=1 i=20 e=20\n"
            "task 0x2000 v=1 f=2 i=16 e=11\n"
            "  taskwait 0x3100 v=1 f=2 i=4 e=4\n"
            "  create_task 0x2100 v=1 f=1 i=1 e=1\n");
  const TaskConstruct& a = construct(p, kTaskA);
  EXPECT_EQ(a.time.sum, 16u);
  EXPECT_EQ(a.fragments, 2u);
  EXPECT_EQ(a.max_active_per_thread, 1u);
  EXPECT_EQ(construct(p, kTaskB).creation.sum, 1u);
  EXPECT_EQ(construct(p, kTaskB).start_delay.sum, 2u);  // 20 .. 22
  EXPECT_EQ(p.max_active_per_thread[0], 2u);            // A and B both begun, not completed
}

// Seed 000 Sect. IV-B4: a task suspended at one scheduling point of the implicit task resumes at
// another. Untied A starts at once in its creation (libomp may run a new task right away), is
// switched out when it creates D, and resumes in the barrier. Its stub appears under both
// scheduling points; its tree holds the whole task.
//
//   10 create A (5, untied)             creator's next event is the switch at 11: creation 1,
//   11 switch 2 -> A                    and the creation node stays open: A runs in it
//   15 A creates D (6)                  A clock 4; creation of D 15 .. 20 = 5
//   20 switch A -> 2                    A clock 9; stub A (under create) 11 .. 20 = 9;
//                                       implicit 2 resumes: create node 10 .. 20 = 10, excl 1
//   22 barrier begin
//   23 switch 2 -> D, 28 D completes    D: 5 (stub under the barrier)
//   30 switch 2 -> A (resumed)          A's creation of D ends at A clock 9: 15 .. 20 = 5
//   36 A completes                      A clock 15; stub A (under barrier) 30 .. 36 = 6
//   40 barrier end                      barrier 22 .. 40 = 18, minus 5 + 6 = 7
//   50 implicit task ends               parallel 0 .. 50 = 50, minus 10 + 18 = 22
TEST(ProfileGolden, TaskResumedAtAnotherSchedulingPoint) {
  TraceBuilder t;
  open_region(t, 1);
  t.create(0, 10, 5, 2, kTaskA, kExplicit | kUntied);
  t.schedule(0, 11, 2, Status::kSwitch, 5);
  t.create(0, 15, 6, 5, kTaskB);
  t.schedule(0, 20, 5, Status::kSwitch, 2);
  sync_begin(t, 0, 22, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  t.schedule(0, 23, 2, Status::kSwitch, 6);
  t.schedule(0, 28, 6, Status::kComplete, 2);
  t.schedule(0, 30, 2, Status::kSwitch, 5);
  t.schedule(0, 36, 5, Status::kComplete, 2);
  sync_end(t, 0, 40, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  close_region(t, 1, 50);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=60 e=10\n"
            "  parallel 0x1000 v=1 f=1 i=50 e=22\n"
            "    barrier 0x3000 v=1 f=1 i=18 e=7\n"
            "      stub 0x2000 v=1 f=1 i=6 e=6\n"
            "      stub 0x2100 v=1 f=1 i=5 e=5\n"
            "    create_task 0x2000 v=1 f=1 i=10 e=1\n"
            "      stub 0x2000 v=1 f=1 i=9 e=9\n"
            "--\n"
            "task 0x2000 v=1 f=2 i=15 e=10\n"
            "  create_task 0x2100 v=1 f=1 i=5 e=5\n"
            "task 0x2100 v=1 f=1 i=5 e=5\n");
  const TaskConstruct& a = construct(p, kTaskA);
  EXPECT_EQ(a.creation.sum, 1u);
  EXPECT_EQ(a.fragments, 2u);
  EXPECT_EQ(a.migrations, 0u);
  EXPECT_EQ(construct(p, kTaskB).creation.sum, 5u);
}

// An untied task that starts on thread 0 and resumes on thread 1 (OMPT reports the switch, which
// lifts Score-P's tied-only limit, Lorenz et al. Sect. IV-D). The threads share the tree of the
// parallel construct, each with its own metrics.
//
// thread 0: 10 create A (5, untied), creation 10 .. 12 = 2; 12 barrier begin; 14 switch 2 -> A;
//           20 A creates B (6), 21 switch A -> 2 (A clock 7; stub A on thread 0 = 7);
//           50 barrier end (12 .. 50 = 38, minus 7 = 31); 60 implicit task ends
// thread 1: 15 barrier begin; 22 switch 3 -> B, 30 B completes (stub B = 8);
//           31 switch 3 -> A: A migrates, 41 A completes (A clock 7 + 10 = 17; stub A = 10);
//           50 barrier end (15 .. 50 = 35, minus 8 + 10 = 17); 60 implicit task ends
// A's creation of B lasts from A clock 6 to 7 (its next event is the switch out; the creation
// node closes when A resumes, on thread 1, where the visit is counted).
TEST(ProfileGolden, UntiedTaskMigrates) {
  TraceBuilder t;
  open_region(t, 2);
  t.create(0, 10, 5, 2, kTaskA, kExplicit | kUntied);
  sync_begin(t, 0, 12, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  t.schedule(0, 14, 2, Status::kSwitch, 5);
  t.create(0, 20, 6, 5, kTaskB);
  t.schedule(0, 21, 5, Status::kSwitch, 2);
  sync_begin(t, 1, 15, SyncKind::kBarrierExplicit, 3, kBarrierCode);
  t.schedule(1, 22, 3, Status::kSwitch, 6);
  t.schedule(1, 30, 6, Status::kComplete, 3);
  t.schedule(1, 31, 3, Status::kSwitch, 5);
  t.schedule(1, 41, 5, Status::kComplete, 3);
  sync_end(t, 0, 50, SyncKind::kBarrierExplicit, 2, kBarrierCode);
  sync_end(t, 1, 50, SyncKind::kBarrierExplicit, 3, kBarrierCode);
  close_region(t, 2, 60);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=70 e=10\n"
            "  parallel 0x1000 v=2 f=2 i=120 e=45\n"
            "    barrier 0x3000 v=2 f=2 i=73 e=48\n"
            "      stub 0x2000 v=2 f=2 i=17 e=17\n"
            "      stub 0x2100 v=1 f=1 i=8 e=8\n"
            "    create_task 0x2000 v=1 f=1 i=2 e=2\n"
            "--\n"
            "task 0x2000 v=1 f=2 i=17 e=16\n"
            "  create_task 0x2100 v=1 f=1 i=1 e=1\n"
            "task 0x2100 v=1 f=1 i=8 e=8\n");
  const TaskConstruct& a = construct(p, kTaskA);
  EXPECT_EQ(a.migrations, 1u);
  EXPECT_EQ(a.time.sum, 17u);
  // Per thread: the stub pieces where they ran, the task's visit where it ended.
  const ProfileNode& root = p.nodes[a.root];
  EXPECT_EQ(root.threads[0].visits, 0u);
  EXPECT_EQ(root.threads[1].inclusive.sum, 17u);
  uint32_t barrier = p.nodes[p.nodes[p.roots[0]].children[0]].children[0];
  uint32_t stub_a = p.nodes[barrier].children[0];
  EXPECT_EQ(p.nodes[barrier].threads[0].inclusive.sum, 38u);
  EXPECT_EQ(p.nodes[barrier].threads[0].exclusive.sum, 31u);
  EXPECT_EQ(p.nodes[barrier].threads[1].inclusive.sum, 35u);
  EXPECT_EQ(p.nodes[barrier].threads[1].exclusive.sum, 17u);
  EXPECT_EQ(p.nodes[stub_a].threads[0].inclusive.sum, 7u);
  EXPECT_EQ(p.nodes[stub_a].threads[1].inclusive.sum, 10u);
  EXPECT_EQ(p.thread_time_ns[0], 70u);  // the initial task
  EXPECT_EQ(p.thread_time_ns[1], 60u);  // its implicit task
}

// User regions, parameters and a critical section's wait inside tasks, and the parameter split
// of a construct (Score-P, Lorenz et al., Table IV).
//
// implicit task 2: 5 region "phase"; 10 create A (5), 12 create B (6) (creations 2 + 2);
//   14 taskwait; 15 switch -> A ... 25 A completes; 26 switch -> B ... 40 B completes;
//   42 taskwait end (14 .. 42 = 28, stubs 10 + 14, excl 4); 45 region end (40, excl 40-4-28=8)
// A: 16 depth=1 (A clock 1); 18 critical wait until 21 (3); 25 end: depth=1 = 1 .. 10 = 9
//    (excl 6), A = 10 (excl 1)
// B: 27 depth=2 (clock 1); 28 region "inner" until 33 (5); 35 depth=3 replaces depth=2
//    (depth=2 = 1 .. 9 = 8, excl 3); 40 end: depth=3 = 9 .. 14 = 5, B = 14 (excl 14-8-5 = 1)
// Split by depth: A counts under 1 (10), B under its first value 2 (14); B set depth again.
TEST(ProfileGolden, RegionsParametersAndCriticalInTasks) {
  TraceBuilder t;
  open_region(t, 1);
  t.user_region(0, 5, Endpoint::kBegin, "phase");
  t.create(0, 10, 5, 2, kTaskA);
  t.create(0, 12, 6, 2, kTaskA);
  sync_begin(t, 0, 14, SyncKind::kTaskwait, 2, kTaskwaitCode);
  t.schedule(0, 15, 2, Status::kSwitch, 5);
  t.user_param(0, 16, "depth", 1);
  t.mutex(0, 18, Kind::kMutexAcquire, MutexKind::kCritical, 77, 0x6000);
  t.mutex(0, 21, Kind::kMutexAcquired, MutexKind::kCritical, 77, 0x6000);
  t.mutex(0, 22, Kind::kMutexReleased, MutexKind::kCritical, 77, 0x6000);
  t.schedule(0, 25, 5, Status::kComplete, 2);
  t.schedule(0, 26, 2, Status::kSwitch, 6);
  t.user_param(0, 27, "depth", 2);
  t.user_region(0, 28, Endpoint::kBegin, "inner");
  t.user_region(0, 33, Endpoint::kEnd, "inner");
  t.user_param(0, 35, "depth", 3);
  t.schedule(0, 40, 6, Status::kComplete, 2);
  sync_end(t, 0, 42, SyncKind::kTaskwait, 2, kTaskwaitCode);
  t.user_region(0, 45, Endpoint::kEnd, "phase");
  close_region(t, 1, 50);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=60 e=10\n"
            "  parallel 0x1000 v=1 f=1 i=50 e=10\n"
            "    user_region phase v=1 f=1 i=40 e=8\n"
            "      taskwait 0x3100 v=1 f=1 i=28 e=4\n"
            "        stub 0x2000 v=2 f=2 i=24 e=24\n"
            "      create_task 0x2000 v=2 f=2 i=4 e=4\n"
            "--\n"
            "task 0x2000 v=2 f=2 i=24 e=2\n"
            "  parameter depth=1 v=1 f=1 i=9 e=6\n"
            "    mutex_wait 0x6000 v=1 f=1 i=3 e=3\n"
            "  parameter depth=2 v=1 f=1 i=8 e=3\n"
            "    user_region inner v=1 f=1 i=5 e=5\n"
            "  parameter depth=3 v=1 f=1 i=5 e=5\n");
  const TaskConstruct& a = construct(p, kTaskA);
  ASSERT_EQ(a.params.size(), 1u);
  EXPECT_EQ(a.params[0].name, "depth");
  ASSERT_EQ(a.params[0].values.size(), 2u);
  EXPECT_EQ(a.params[0].values[0].value, 1);
  EXPECT_EQ(a.params[0].values[0].time.count, 1u);
  EXPECT_EQ(a.params[0].values[0].time.sum, 10u);
  EXPECT_EQ(a.params[0].values[1].value, 2);
  EXPECT_EQ(a.params[0].values[1].time.sum, 14u);
  EXPECT_EQ(a.params[0].set_again, 1u);
  EXPECT_EQ(a.time.min, 10u);
  EXPECT_EQ(a.time.max, 14u);
  EXPECT_EQ(a.creation.sum, 4u);
  EXPECT_EQ(p.unmatched_ends, 0u);
}

// The constructs of an implicit task, on two threads sharing the tree of their parallel
// construct: a loop and its barrier, masked with a lock wait and two nest-lock waits (the second
// is the owner acquiring it again: libomp ends that wait with nest_lock begin, not acquired), a
// taskgroup with a task run in it, and the end-of-region barrier, which the primary thread reports
// with the parallel construct's address and the worker with none: one node.
//
// thread 0: loop 10 .. 20 (10); barrier 0x7000 20 .. 25 (5); masked 25 .. 35 (10) with lock
//   wait 26 .. 29 (3) and nest-lock waits 31 .. 32 and 33 .. 34 (1 + 1): excl 10 - 5 = 5;
//   taskgroup 36 .. 46 (10): create 37 .. 38 (1), task 40 .. 45 (5): excl 4;
//   end barrier 50 .. 60 (10); parallel 0 .. 60: excl 60 - 10 - 5 - 10 - 10 - 10 = 15
// thread 1: loop 10 .. 18 (8); barrier 0x7000 18 .. 25 (7); end barrier 25 .. 60 (35);
//   parallel excl 60 - 50 = 10
TEST(ProfileGolden, WorksharingMaskedLocksTaskgroupBarriers) {
  using format::WorkType;
  TraceBuilder t;
  open_region(t, 2);
  t.work(0, 10, WorkType::kLoop, Endpoint::kBegin, 100, 2, 100, 0x4000);
  t.work(0, 20, WorkType::kLoop, Endpoint::kEnd, 100, 2, 100, 0x4000);
  sync_begin(t, 0, 20, SyncKind::kBarrierImplicit, 2, 0x7000);
  sync_end(t, 0, 25, SyncKind::kBarrierImplicit, 2, 0x7000);
  t.masked(0, 25, Endpoint::kBegin, 100, 2);
  t.mutex(0, 26, Kind::kMutexAcquire, MutexKind::kLock, 9, 0x6000);
  t.mutex(0, 29, Kind::kMutexAcquired, MutexKind::kLock, 9, 0x6000);
  t.mutex(0, 30, Kind::kMutexReleased, MutexKind::kLock, 9, 0x6000);
  t.mutex(0, 31, Kind::kMutexAcquire, MutexKind::kNestLock, 10, 0x6100);
  t.mutex(0, 32, Kind::kMutexAcquired, MutexKind::kNestLock, 10, 0x6100);
  t.mutex(0, 33, Kind::kMutexAcquire, MutexKind::kNestLock, 10, 0x6100);
  t.event(0, format::Event{34, Kind::kNestLock, uint8_t(Endpoint::kBegin), 0, 0, 10, 0, 0x6100});
  t.masked(0, 35, Endpoint::kEnd, 100, 2);
  t.sync(0, 36, SyncKind::kTaskgroup, Endpoint::kBegin, 100, 2, 0x3200);
  t.create(0, 37, 5, 2, kTaskA);
  t.sync_wait(0, 38, SyncKind::kTaskgroup, Endpoint::kBegin, 100, 2, 0x3200);
  t.schedule(0, 40, 2, Status::kSwitch, 5);
  t.schedule(0, 45, 5, Status::kComplete, 2);
  sync_end(t, 0, 46, SyncKind::kTaskgroup, 2, 0x3200);
  sync_begin(t, 0, 50, SyncKind::kBarrierImplicit, 2, kParallelCode);
  sync_end(t, 0, 60, SyncKind::kBarrierImplicit, 2, kParallelCode);
  t.work(1, 10, WorkType::kLoop, Endpoint::kBegin, 100, 3, 100, 0x4000);
  t.work(1, 18, WorkType::kLoop, Endpoint::kEnd, 100, 3, 100, 0x4000);
  sync_begin(t, 1, 18, SyncKind::kBarrierImplicit, 3, 0x7000);
  sync_end(t, 1, 25, SyncKind::kBarrierImplicit, 3, 0x7000);
  sync_begin(t, 1, 25, SyncKind::kBarrierImplicit, 3, 0);
  sync_end(t, 1, 60, SyncKind::kBarrierImplicit, 3, 0);
  close_region(t, 2, 60);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=70 e=10\n"
            "  parallel 0x1000 v=2 f=2 i=120 e=25\n"
            "    barrier v=2 f=2 i=45 e=45\n"
            "    work 0x4000 v=2 f=2 i=18 e=18\n"
            "    barrier 0x7000 v=2 f=2 i=12 e=12\n"
            "    masked 0x5000 v=1 f=1 i=10 e=5\n"
            "      mutex_wait 0x6000 v=1 f=1 i=3 e=3\n"
            "      mutex_wait 0x6100 v=2 f=2 i=2 e=2\n"
            "    taskgroup 0x3200 v=1 f=1 i=10 e=4\n"
            "      stub 0x2000 v=1 f=1 i=5 e=5\n"
            "      create_task 0x2000 v=1 f=1 i=1 e=1\n"
            "--\n"
            "task 0x2000 v=1 f=1 i=5 e=5\n");
  EXPECT_EQ(p.unmatched_ends, 0u);
}

// A task with a depend clause: libomp reports its dependences after task_create, still inside the
// creation, which lasts until the creator's next other event: 10 .. 15 = 5 (not 10 .. 13).
TEST(ProfileGolden, CreationIncludesTheDependenceRecords) {
  TraceBuilder t;
  open_region(t, 1);
  t.create(0, 10, 5, 2, kTaskA, kExplicit, /*has_deps=*/true);
  t.deps(0, 13, 5, {{0xa0, testing::DependenceType::kInout}, {0xa8, testing::DependenceType::kIn}});
  sync_begin(t, 0, 15, SyncKind::kTaskwait, 2, kTaskwaitCode);
  t.schedule(0, 16, 2, Status::kSwitch, 5);
  t.schedule(0, 20, 5, Status::kComplete, 2);
  sync_end(t, 0, 21, SyncKind::kTaskwait, 2, kTaskwaitCode);
  close_region(t, 1, 30);
  Profile p = profile_of(t);
  EXPECT_EQ(construct(p, kTaskA).creation.sum, 5u);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=40 e=10\n"
            "  parallel 0x1000 v=1 f=1 i=30 e=19\n"
            "    taskwait 0x3100 v=1 f=1 i=6 e=2\n"
            "      stub 0x2000 v=1 f=1 i=4 e=4\n"
            "    create_task 0x2000 v=1 f=1 i=5 e=5\n"
            "--\n"
            "task 0x2000 v=1 f=1 i=4 e=4\n");
}

// A trace cut short: a task still suspended and one still running at the end count as
// unfinished instances with the time they had, and nothing is left open.
// 2000 user regions nested in one another (begun in a loop and ended in reverse): the tree stops
// at kMaxProfileDepth levels (the program, the parallel region, 998 regions), the deepest node
// standing for itself and every region below it. Unbounded, the report's recursive walk of a
// 10^5-deep chain overflowed the stack (and indented it with 10^10 spaces).
TEST(ProfileGolden, ADeepChainOfRegionsStopsAtTheDepthLimit) {
  constexpr uint64_t N = 2000;
  TraceBuilder t;
  open_region(t, 1);
  for (uint64_t i = 0; i < N; ++i) t.user_region(0, 10 + i, Endpoint::kBegin, "r");
  for (uint64_t i = N; i-- > 0;) t.user_region(0, 10 + 2 * N - 1 - i, Endpoint::kEnd, "r");
  close_region(t, 1, 10 + 2 * N + 10);
  ProfilePass pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  const Profile& p = pass.result();
  EXPECT_EQ(p.unmatched_ends, 0u);
  ASSERT_FALSE(p.roots.empty());
  // Region i lasts 2N - 1 - 2i ns; its node is at level 3 + i up to the limit.
  uint32_t levels = 1, index = p.roots[0];
  while (!p.nodes[index].children.empty()) {
    ASSERT_EQ(p.nodes[index].children.size(), 1u);
    index = p.nodes[index].children[0];
    ++levels;
    if (levels == 3) {
      EXPECT_EQ(p.nodes[index].total.visits, 1u);
      EXPECT_EQ(p.nodes[index].total.inclusive.sum, 2 * N - 1);
    }
  }
  EXPECT_EQ(levels, kMaxProfileDepth);
  // The deepest node: region 997 and the 1002 below it, each a visit with its own time.
  const uint64_t first = kMaxProfileDepth - 3;
  uint64_t sum = 0;
  for (uint64_t i = first; i < N; ++i) sum += 2 * N - 1 - 2 * i;
  EXPECT_EQ(p.nodes[index].total.visits, N - first);
  EXPECT_EQ(p.nodes[index].total.inclusive.sum, sum);
}

// libomp's order at a region's end: the worker's closing barrier (codeptr 0, no region) and its
// implicit task end only when the next region or the exit releases it. Its frames close with the
// region instead, so its barrier holds the wait for the team, not the serial code after it.
//
//   0   parallel 100 of two threads, implicit tasks 2 and 3
//   90  thread 1 in the closing barrier;  100 thread 0 in it
//   110 thread 0 leaves it, ends its implicit task; 120 parallel_end
//   1000 thread 1's barrier end and implicit task end reported (after 880 ns of serial code)
// Barrier: thread 0 100 .. 110 = 10, thread 1 90 .. 120 = 30 (not 910); parallel: 110 + 120.
TEST(ProfileGolden, AWorkersLateBarrierEndClosesWithTheRegion) {
  TraceBuilder t;
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, 2, kParallelCode);
  t.implicit_begin(0, 0, 2, 100, 2, 0).implicit_begin(1, 0, 3, 100, 2, 1);
  sync_begin(t, 1, 90, SyncKind::kBarrierImplicit, 3, 0);
  sync_begin(t, 0, 100, SyncKind::kBarrierImplicit, 2, kParallelCode);
  t.sync_wait(0, 110, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, 2, kParallelCode);
  t.sync(0, 110, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, 2, kParallelCode);
  t.implicit_end(0, 110, 2);
  t.parallel_end(0, 120, 100, 1, kParallelCode);
  t.sync_wait(1, 1000, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, 3, 0);
  t.sync(1, 1000, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, 3, 0);
  t.implicit_end(1, 1000, 3);
  t.implicit_end(0, 1010, 1);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=1010 e=900\n"
            "  parallel 0x1000 v=2 f=2 i=230 e=190\n"
            "    barrier v=2 f=2 i=40 e=40\n"
            "--\n");
  EXPECT_EQ(p.unmatched_ends, 0u);
  EXPECT_EQ(p.total_time_ns, 1010u + 120u);
}

// A host `teams` league of two teams: libomp runs each team's body in an initial task (initial
// flag) of the league's region. They are the league's node under the program, as a parallel's
// implicit tasks are, not a second "program" root nested in the first (which counted the league
// twice: the program at 111 % of the threads' time).
//
//   0   the program's initial task 1;  10 the league (region 100, code 0x1000)
//   10  team 0's initial task 2 on thread 0, team 1's 3 on thread 1;  60 both end
//   70  the league ends;  100 the program ends
TEST(ProfileGolden, ATeamsLeaguesInitialTasksAreTheLeaguesNode) {
  TraceBuilder t;
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 10, 100, 1, 2, kParallelCode);
  t.implicit_begin(0, 10, 2, 100, 2, 0, format::task_flag::kInitial);
  t.implicit_begin(1, 10, 3, 100, 2, 1, format::task_flag::kInitial);
  t.implicit_end(0, 60, 2).implicit_end(1, 60, 3);
  t.parallel_end(0, 70, 100, 1, kParallelCode);
  t.implicit_end(0, 100, 1);
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=100 e=50\n"
            "  parallel 0x1000 v=2 f=2 i=100 e=100\n"
            "--\n");
  EXPECT_EQ(p.total_time_ns, 150u);  // the program's 100 and thread 1's team 50
}

TEST(ProfileGolden, TraceEndsWithTasksInFlight) {
  TraceBuilder t;
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, 1, kParallelCode);
  t.implicit_begin(0, 0, 2, 100, 1, 0);
  t.create(0, 10, 5, 2, kTaskA);
  t.create(0, 11, 6, 2, kTaskA);
  sync_begin(t, 0, 12, SyncKind::kTaskwait, 2, kTaskwaitCode);
  t.schedule(0, 20, 2, Status::kSwitch, 5);  // A runs 20 .. 30, then B 30 .. end
  t.schedule(0, 30, 5, Status::kSwitch, 6);
  t.event(0, format::Event{50, Kind::kFlush, 0, 0, 0, 0, 0, 0});  // the last event at 50
  Profile p = profile_of(t);
  const TaskConstruct& a = construct(p, kTaskA);
  EXPECT_EQ(a.instances, 2u);
  EXPECT_EQ(a.unfinished, 2u);
  EXPECT_EQ(a.time.sum, 10u + 20u);
  EXPECT_EQ(p.nodes[a.root].total.inclusive.sum, 30u);
  EXPECT_EQ(p.total_time_ns, 50u);
}

}  // namespace
}  // namespace tasklens::analysis
