// Golden tests of libomp's untied-task sequences (src/replay/task_switch.h, docs/REPLAY.md): a
// task whose next part libomp runs at once on top of the task that was running, reported as
// task_schedule(T, switch, T). `tasklens check` must find them consistent and the profile must
// follow each part in its own task's tree, not nested under the task it ran on top of. Times in
// ns; every expected number is derived by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "analysis/profile.h"
#include "analysis/profile_dump.h"
#include "format/experiment.h"
#include "replay/consistency.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::task_flag::kExplicit;
using format::task_flag::kUntied;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

constexpr uint64_t kTaskP = kTaskA;  // task constructs
constexpr uint64_t kTaskC = kTaskB;

// The initial task 1, a parallel region 100 of one thread (implicit task 2) that creates untied P
// (5) at 5 and waits in a barrier from 10 to `barrier_end`; the region ends at `end`.
void open_region(TraceBuilder& t) {
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, 1, kParallelCode);
  t.implicit_begin(0, 0, 2, 100, 1, 0);
  t.create(0, 5, 5, 2, kTaskP, kExplicit | kUntied);
  t.sync(0, 10, SyncKind::kBarrierExplicit, format::Endpoint::kBegin, 100, 2, kBarrierCode);
  t.sync_wait(0, 10, SyncKind::kBarrierExplicit, format::Endpoint::kBegin, 100, 2, kBarrierCode);
}

void close_region(TraceBuilder& t, uint64_t barrier_end, uint64_t end) {
  t.sync_wait(0, barrier_end, SyncKind::kBarrierExplicit, format::Endpoint::kEnd, 100, 2, kBarrierCode);
  t.sync(0, barrier_end, SyncKind::kBarrierExplicit, format::Endpoint::kEnd, 100, 2, kBarrierCode);
  t.implicit_end(0, end, 2);
  t.parallel_end(0, end, 100, 1, kParallelCode);
  t.implicit_end(0, end + 10, 1);
}

// libomp's sequence when untied P creates untied C while the thread's deque is full (uts: the
// root creates 2000 children), as recorded from clang 14's libomp:
//   20 task_create C (parent P)
//   21 task_schedule(P, switch, C)   C's first part starts (it only re-queues the task)
//   22 task_schedule(C, switch, P)   the part ends unfinished; P is current again
//   23 task_schedule(C, switch, C)   the queue is full: C's next part runs at once, on top of P
//   25..27 C's taskwait              C's, not P's
//   30 task_schedule(C, complete, P)
// P runs 12..21, 22..23 and 30..40 (clock 20, 3 fragments), C 21..22 and 23..30 (clock 8, 2).
TraceBuilder deque_full_trace() {
  TraceBuilder t;
  open_region(t);
  t.schedule(0, 12, 2, Status::kSwitch, 5);
  t.create(0, 20, 6, 5, kTaskC, kExplicit | kUntied);
  t.schedule(0, 21, 5, Status::kSwitch, 6);
  t.schedule(0, 22, 6, Status::kSwitch, 5);
  t.schedule(0, 23, 6, Status::kSwitch, 6);
  t.sync_span(0, 25, 27, SyncKind::kTaskwait, 100, 6, kTaskwaitCode);
  t.schedule(0, 30, 6, Status::kComplete, 5);
  t.schedule(0, 40, 5, Status::kComplete, 2);
  close_region(t, 50, 60);
  return t;
}

replay::ConsistencyReport check(TraceBuilder& t) {
  auto x = format::open_experiment(t.write());
  EXPECT_TRUE(bool(x));
  return replay::check_consistency(*x);
}

uint32_t depth(const Profile& p, uint32_t i) {
  uint32_t d = 0;
  for (uint32_t c : p.nodes[i].children) d = std::max(d, depth(p, c));
  return d + 1;
}

TEST(UntiedGolden, CheckAcceptsAPartRunOnTopOfTheCurrentTask) {
  TraceBuilder t = deque_full_trace();
  replay::ConsistencyReport r = check(t);
  EXPECT_EQ(r.inconsistencies(), 0u);
  EXPECT_EQ(r.wrong_thread, 0u);
  EXPECT_EQ(r.explicit_created, 2u);
  EXPECT_EQ(r.explicit_started, 2u);
  EXPECT_EQ(r.explicit_completed, 2u);
  // Suspended: P at 21 (C starts), C at 22 (its part ends), P at 23 (C runs on top of it);
  // each resumed (P at 22 and 30, C at 23), none elsewhere.
  EXPECT_EQ(r.suspensions, 3u);
  EXPECT_EQ(r.resumptions, 3u);
  EXPECT_EQ(r.migrations, 0u);
}

// The same trace read as before: task_schedule(C, switch, C) taken for "no switch" made P the
// task that switched out at 30 while the thread ran C, an inconsistency per such creation (3.86 M
// on BOTS uts), and C's taskwait a node of P's tree.
//
// Profile: P's creation of C lasts from P clock 8 (at 20) to P's next switch in at 22 (clock 9):
// 1. The barrier (10..50 = 40) holds stub P (3 visits: 9 + 1 + 10) and stub C (2 visits: 1 + 7),
// side by side: C's stub is not under P's. The barrier's exclusive time is 40 - 20 - 8 = 12; the
// parallel construct 0..60, exclusive 60 - 40 - 5 (creation of P, 5 .. 10: its next event) = 15.
TEST(UntiedGolden, ProfileFollowsEachPartInItsOwnTask) {
  TraceBuilder t = deque_full_trace();
  Profile p = profile_of(t);
  EXPECT_EQ(dump(p),
            "program v=1 f=1 i=70 e=10\n"
            "  parallel 0x1000 v=1 f=1 i=60 e=15\n"
            "    barrier 0x3000 v=1 f=1 i=40 e=12\n"
            "      stub 0x2000 v=3 f=3 i=20 e=20\n"
            "      stub 0x2100 v=2 f=2 i=8 e=8\n"
            "    create_task 0x2000 v=1 f=1 i=5 e=5\n"
            "--\n"
            "task 0x2000 v=1 f=3 i=20 e=19\n"
            "  create_task 0x2100 v=1 f=1 i=1 e=1\n"
            "task 0x2100 v=1 f=2 i=8 e=6\n"
            "  taskwait 0x3100 v=1 f=1 i=2 e=2\n");
}

// A chain: each task creates the next while the deque is full, so every part of the chain runs on
// top of its creator. The implicit task's tree stays program > parallel > barrier > stub whatever
// the chain's length (it grew one stub per task before), and each task's tree is its root and
// its creation node.
TEST(UntiedGolden, ProfileDepthDoesNotGrowWithTheChain) {
  constexpr uint64_t kChain = 6;
  TraceBuilder t;
  open_region(t);
  t.schedule(0, 12, 2, Status::kSwitch, 5);
  uint64_t now = 20;
  for (uint64_t i = 0; i < kChain; ++i) {
    uint64_t parent = 5 + i, child = 6 + i;
    t.create(0, now, child, parent, kTaskC, kExplicit | kUntied);
    t.schedule(0, now + 1, parent, Status::kSwitch, child);
    t.schedule(0, now + 2, child, Status::kSwitch, parent);
    t.schedule(0, now + 3, child, Status::kSwitch, child);
    now += 10;
  }
  for (uint64_t i = kChain; i-- > 0;) {
    t.schedule(0, now, 6 + i, Status::kComplete, 5 + i);
    now += 10;
  }
  t.schedule(0, now, 5, Status::kComplete, 2);
  close_region(t, now + 10, now + 20);
  replay::ConsistencyReport r = check(t);
  EXPECT_EQ(r.inconsistencies(), 0u);
  EXPECT_EQ(r.explicit_completed, kChain + 1);
  EXPECT_EQ(r.max_parent_depth, kChain);
  Profile p = profile_of(t);
  ASSERT_EQ(p.roots.size(), 1u);
  EXPECT_EQ(depth(p, p.roots[0]), 4u);
  for (uint32_t root : p.task_roots) EXPECT_EQ(depth(p, root), 2u);
  EXPECT_EQ(p.tasks.size(), 2u);
}

// The same event with the task already current (a suspended part picked up again at once by the
// thread that ended it, untied.c) is no switch: nothing suspended, nothing resumed.
TEST(UntiedGolden, SelfSwitchOfTheCurrentTaskIsNoSwitch) {
  TraceBuilder t;
  open_region(t);
  t.schedule(0, 12, 2, Status::kSwitch, 5);
  t.schedule(0, 20, 5, Status::kSwitch, 5);
  t.schedule(0, 40, 5, Status::kComplete, 2);
  close_region(t, 50, 60);
  replay::ConsistencyReport r = check(t);
  EXPECT_EQ(r.inconsistencies(), 0u);
  EXPECT_EQ(r.suspensions, 0u);
  EXPECT_EQ(r.resumptions, 0u);
  Profile p = profile_of(t);
  const TaskConstruct& c = p.tasks.front();
  EXPECT_EQ(c.codeptr, kTaskP);
  EXPECT_EQ(c.fragments, 1u);
  EXPECT_EQ(c.time.sum, 28u);  // 12 .. 40
}

// A part of an untied task that libomp ran with no event at its start or end (task_switch.h),
// two threads, as in one run of six of tests/integration/programs/untied_tree:
//   T1 11 switch(3 -> R)   tied R starts on thread 1
//   T1 12 switch(R -> U)   untied U's part on top of R ...
//   T1 15 complete(R -> 3) ... has ended with no event: R completes
//   T0 10 switch(2 -> V)   untied V runs on thread 0
//   T0 20 complete(U -> V) U's last part ran on top of V with no event of its start
//   T0 25 complete(V -> 2)
// Both are silent parts, not inconsistencies; a schedule naming an unrelated task still is one.
TraceBuilder silent_parts_trace(bool unrelated, bool child = false, uint64_t u_done = 20) {
  TraceBuilder t;
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, 2, kParallelCode);
  t.implicit_begin(0, 1, 2, 100, 2, 0);
  t.implicit_begin(1, 1, 3, 100, 2, 1);
  t.create(0, 5, 5, 2, kTaskP, kExplicit | kUntied);     // U
  t.create(0, 6, 6, 2, kTaskP, kExplicit | kUntied);     // V
  t.create(0, 7, 7, 2, kTaskC, kExplicit);               // R
  t.schedule(0, 10, 2, Status::kSwitch, 6);
  t.schedule(1, 11, 3, Status::kSwitch, 7);
  t.schedule(1, 12, 7, Status::kSwitch, 5);
  if (child) {
    // U runs a child of its own, which returns to U: U is still on top of R.
    t.create(1, 13, 8, 5, kTaskC, kExplicit);
    t.schedule(1, 13, 5, Status::kSwitch, 8);
    t.schedule(1, 14, 8, Status::kComplete, 5);
  }
  t.schedule(1, 15, unrelated ? 6 : 7, Status::kComplete, 3);
  t.schedule(0, u_done, 5, Status::kComplete, 6);
  t.schedule(0, 25, 6, Status::kComplete, 2);
  if (unrelated) t.schedule(1, 26, 7, Status::kComplete, 3);
  t.implicit_end(0, 40, 2);
  t.implicit_end(1, 40, 3);
  t.parallel_end(0, 41, 100, 1, kParallelCode);
  t.implicit_end(0, 50, 1);
  return t;
}

TEST(UntiedGolden, CheckCountsPartsRunWithNoEventApart) {
  TraceBuilder t = silent_parts_trace(false);
  replay::ConsistencyReport r = check(t);
  EXPECT_EQ(r.inconsistencies(), 0u);
  EXPECT_EQ(r.untied_silent_parts, 2u);
  EXPECT_EQ(r.explicit_started, 3u);
  EXPECT_EQ(r.explicit_completed, 3u);
}

// The same after U ran a child that returned to it (seen in a fresh-clone CI run): U's place on
// top of R is kept across its child, so R's schedule still ends U's part.
TEST(UntiedGolden, CheckKeepsTheTaskBelowAcrossAChildsReturn) {
  TraceBuilder t = silent_parts_trace(false, /*child=*/true);
  replay::ConsistencyReport r = check(t);
  EXPECT_EQ(r.inconsistencies(), 0u) << (r.issues.empty() ? "" : r.issues.front());
  EXPECT_EQ(r.untied_silent_parts, 2u);
  EXPECT_EQ(r.explicit_completed, 4u);
}

// U completes on thread 0 (its last part run silently on top of V) before thread 1, where U's
// earlier part ended silently, names R again: U is forgotten by then, R's schedule still ends
// U's part there (seen in a fresh-clone CI run).
TEST(UntiedGolden, CheckEndsAPartOfATaskCompletedElsewhere) {
  TraceBuilder t = silent_parts_trace(false, false, /*u_done=*/14);
  replay::ConsistencyReport r = check(t);
  EXPECT_EQ(r.inconsistencies(), 0u) << (r.issues.empty() ? "" : r.issues.front());
  EXPECT_EQ(r.untied_silent_parts, 2u);
  EXPECT_EQ(r.explicit_completed, 3u);
}

TEST(UntiedGolden, CheckStillFindsAScheduleOfAnotherThreadsTask) {
  // At 15 thread 1 completes V, which runs on thread 0 and is not the task U ran over.
  TraceBuilder t = silent_parts_trace(true);
  replay::ConsistencyReport r = check(t);
  EXPECT_GE(r.wrong_thread, 1u);
}

}  // namespace
}  // namespace tasklens::analysis
