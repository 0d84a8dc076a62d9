// The task model on event sequences built in memory: states after POT Fig. 2, readiness through
// dependences rebuilt from addresses, waits, and what each thread runs.
#include "replay/task_model.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tasklens::replay {
namespace {

using format::DependenceType;
using format::Endpoint;
using format::Event;
using format::Kind;
using format::SyncKind;
using format::TaskStatus;
namespace flag = format::task_flag;

class ModelTest : public ::testing::Test {
 protected:
  TaskModel m{2};
  uint64_t t = 0;

  void ev(uint32_t th, Kind k, uint8_t op, uint16_t sub, uint32_t flags, uint64_t a, uint64_t b,
          uint64_t c = 0) {
    m.apply(Event{++t, k, op, sub, flags, a, b, c}, th);
  }
  void implicit_begin(uint32_t th, uint64_t task, uint64_t region, uint32_t team = 2) {
    ev(th, Kind::kImplicitTask, uint8_t(Endpoint::kBegin), uint16_t(th), flag::kImplicit, task,
       region, team);
  }
  void create(uint32_t th, uint64_t task, uint64_t parent, uint32_t flags = flag::kExplicit,
              bool deps = false) {
    ev(th, Kind::kTaskCreate, deps, 0, flags, task, parent, 0x100);
  }
  void deps(uint32_t th, uint64_t task, std::vector<std::pair<uint64_t, DependenceType>> items) {
    for (size_t i = 0; i < items.size(); ++i) {
      ev(th, Kind::kDependence, uint8_t(items[i].second), 0, uint32_t(i), task, items[i].first,
         items.size());
    }
  }
  void schedule(uint32_t th, uint64_t prior, TaskStatus s, uint64_t next) {
    ev(th, Kind::kTaskSchedule, uint8_t(s), 0, 0, prior, next);
  }
  void wait(uint32_t th, SyncKind k, Endpoint ep, uint64_t task, uint64_t region = 0) {
    ev(th, Kind::kSyncRegionWait, uint8_t(ep), uint16_t(k), 0, region, task);
  }
  void sync(uint32_t th, SyncKind k, Endpoint ep, uint64_t task, uint64_t region = 0) {
    ev(th, Kind::kSyncRegion, uint8_t(ep), uint16_t(k), 0, region, task);
  }
  TaskState state(uint64_t id) {
    const TaskInfo* ti = m.task(id);
    return ti ? ti->state : TaskState::kCompleted;  // collected tasks are completed ones
  }
  void finish(uint32_t th, uint64_t task, uint64_t next) {
    schedule(th, task, TaskStatus::kComplete, next);
  }
};

TEST_F(ModelTest, ExplicitTaskGoesReadyRunningCompleted) {
  implicit_begin(0, 1, 100);
  EXPECT_TRUE(m.working(0));
  create(0, 10, 1);
  EXPECT_EQ(state(10), TaskState::kReady);
  EXPECT_EQ(m.ready_count(), 1u);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  EXPECT_EQ(state(10), TaskState::kRunning);
  EXPECT_EQ(m.thread(0).current, 10u);
  EXPECT_EQ(state(1), TaskState::kSuspended);  // tied: resumes when the thread comes back
  EXPECT_EQ(m.ready_count(), 0u);
  finish(0, 10, 1);
  EXPECT_EQ(m.transitions().front().to, TaskState::kExecuted);
  EXPECT_EQ(state(10), TaskState::kCompleted);
  EXPECT_EQ(state(1), TaskState::kRunning);
  EXPECT_TRUE(m.working(0));
  m.collect();
  EXPECT_EQ(m.task(10), nullptr);  // completed and childless: forgotten
}

TEST_F(ModelTest, InOutChainMakesOnlyTheHeadReady) {
  implicit_begin(0, 1, 100);
  for (uint64_t id = 10; id < 14; ++id) {
    create(0, id, 1, flag::kExplicit, true);
    EXPECT_EQ(state(id), TaskState::kInitialized);  // dependences not seen yet
    deps(0, id, {{0xA0, DependenceType::kInout}});
  }
  EXPECT_EQ(state(10), TaskState::kReady);
  EXPECT_EQ(state(11), TaskState::kInitialized);
  EXPECT_EQ(m.ready_count(), 1u);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  finish(0, 10, 1);
  EXPECT_EQ(state(11), TaskState::kReady);
  EXPECT_EQ(state(12), TaskState::kInitialized);
}

TEST_F(ModelTest, ReadersShareAWriterAndTheNextWriterWaitsForAllReaders) {
  implicit_begin(0, 1, 100);
  auto add = [&](uint64_t id, DependenceType type) {
    create(0, id, 1, flag::kExplicit, true);
    deps(0, id, {{0xB0, type}});
  };
  add(10, DependenceType::kOut);
  add(11, DependenceType::kIn);
  add(12, DependenceType::kIn);
  add(13, DependenceType::kInout);
  // Edges learned so far are reported when they are learned; check the readiness they imply.
  EXPECT_EQ(state(10), TaskState::kReady);
  EXPECT_EQ(state(11), TaskState::kInitialized);
  EXPECT_EQ(state(12), TaskState::kInitialized);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  finish(0, 10, 1);
  EXPECT_EQ(state(11), TaskState::kReady);  // both readers at once
  EXPECT_EQ(state(12), TaskState::kReady);
  EXPECT_EQ(state(13), TaskState::kInitialized);
  schedule(0, 1, TaskStatus::kSwitch, 11);
  finish(0, 11, 1);
  EXPECT_EQ(state(13), TaskState::kInitialized);  // still waits for reader 12
  schedule(0, 1, TaskStatus::kSwitch, 12);
  finish(0, 12, 1);
  EXPECT_EQ(state(13), TaskState::kReady);
}

TEST_F(ModelTest, MutexinoutsetMembersDoNotOrderEachOther) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1, flag::kExplicit, true);
  deps(0, 10, {{0xC0, DependenceType::kOut}});
  create(0, 11, 1, flag::kExplicit, true);
  deps(0, 11, {{0xC0, DependenceType::kMutexinoutset}});
  create(0, 12, 1, flag::kExplicit, true);
  deps(0, 12, {{0xC0, DependenceType::kMutexinoutset}});
  create(0, 13, 1, flag::kExplicit, true);
  deps(0, 13, {{0xC0, DependenceType::kIn}});
  schedule(0, 1, TaskStatus::kSwitch, 10);
  finish(0, 10, 1);
  EXPECT_EQ(state(11), TaskState::kReady);
  EXPECT_EQ(state(12), TaskState::kReady);
  EXPECT_EQ(state(13), TaskState::kInitialized);  // after the whole set
  schedule(0, 1, TaskStatus::kSwitch, 11);
  finish(0, 11, 1);
  EXPECT_EQ(state(13), TaskState::kInitialized);
  schedule(0, 1, TaskStatus::kSwitch, 12);
  finish(0, 12, 1);
  EXPECT_EQ(state(13), TaskState::kReady);
}

TEST_F(ModelTest, EdgesAreReportedOnceFromAddressesAndRuntime) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1, flag::kExplicit, true);
  deps(0, 10, {{0xD0, DependenceType::kOut}, {0xD8, DependenceType::kOut}});
  create(0, 11, 1, flag::kExplicit, true);
  ev(0, Kind::kDependence, uint8_t(DependenceType::kIn), 0, 0, 11, 0xD0, 2);
  ev(0, Kind::kDependence, uint8_t(DependenceType::kIn), 0, 1, 11, 0xD8, 2);
  ASSERT_EQ(m.new_edges().size(), 1u);  // one edge although two addresses link them
  EXPECT_EQ(m.new_edges()[0].pred, 10u);
  EXPECT_EQ(m.new_edges()[0].succ, 11u);
  EXPECT_FALSE(m.new_edges()[0].from_runtime);
  ev(0, Kind::kTaskDependence, 0, 0, 0, 10, 11);  // the runtime says the same
  EXPECT_TRUE(m.new_edges().empty());
  EXPECT_EQ(m.task(11)->pending_preds, 1u);
}

// A predecessor that completed before its successor was created, named through two
// addresses: one edge, marked satisfied, and the successor is ready at once.
TEST_F(ModelTest, AFinishedPredecessorOnTwoAddressesIsOneSatisfiedEdge) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1, flag::kExplicit, true);
  deps(0, 10, {{0xD0, DependenceType::kInout}, {0xD8, DependenceType::kInout}});
  schedule(0, 1, TaskStatus::kSwitch, 10);
  finish(0, 10, 1);
  create(0, 11, 1, flag::kExplicit, true);
  deps(0, 11, {{0xD0, DependenceType::kInout}, {0xD8, DependenceType::kInout}});
  ASSERT_EQ(m.new_edges().size(), 1u);
  EXPECT_EQ(m.new_edges()[0].pred, 10u);
  EXPECT_TRUE(m.new_edges()[0].satisfied);
  EXPECT_EQ(m.new_edges()[0].type, uint8_t(DependenceType::kInout));
  EXPECT_EQ(state(11), TaskState::kReady);
}

TEST_F(ModelTest, RuntimeEdgeTheAddressesMissedStillBlocks) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1);
  create(0, 11, 1);
  EXPECT_EQ(state(11), TaskState::kReady);
  ev(0, Kind::kTaskDependence, 0, 0, 0, 10, 11);
  EXPECT_EQ(state(11), TaskState::kInitialized);
  ASSERT_EQ(m.new_edges().size(), 1u);
  EXPECT_TRUE(m.new_edges()[0].from_runtime);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  finish(0, 10, 1);
  EXPECT_EQ(state(11), TaskState::kReady);
}

TEST_F(ModelTest, TaskwaitReadiesTheWaiterWhenTheLastChildCompletes) {
  implicit_begin(0, 1, 100);
  implicit_begin(1, 2, 100);
  create(0, 10, 1);
  sync(0, SyncKind::kTaskwait, Endpoint::kBegin, 1);
  wait(0, SyncKind::kTaskwait, Endpoint::kBegin, 1);
  EXPECT_EQ(state(1), TaskState::kSuspended);
  EXPECT_FALSE(m.working(0));
  wait(1, SyncKind::kBarrierImplicit, Endpoint::kBegin, 2, 100);
  schedule(1, 2, TaskStatus::kSwitch, 10);  // the other thread runs the child
  EXPECT_TRUE(m.working(1));
  EXPECT_EQ(m.ready_count(), 0u);
  finish(1, 10, 2);
  EXPECT_EQ(state(1), TaskState::kReady);  // the taskwait can end now
  EXPECT_EQ(state(2), TaskState::kSuspended);  // back in its barrier, which is not complete
  wait(0, SyncKind::kTaskwait, Endpoint::kEnd, 1);
  EXPECT_EQ(state(1), TaskState::kReady);  // still in the taskwait construct (POT: sync_region)
  sync(0, SyncKind::kTaskwait, Endpoint::kEnd, 1);
  EXPECT_EQ(state(1), TaskState::kRunning);
  EXPECT_TRUE(m.working(0));
}

TEST_F(ModelTest, ChildRunInsideTaskwaitLeavesTheWaiterSuspended) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1);
  create(0, 11, 1);
  wait(0, SyncKind::kTaskwait, Endpoint::kBegin, 1);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  EXPECT_EQ(state(1), TaskState::kSuspended);
  finish(0, 10, 1);
  EXPECT_EQ(state(1), TaskState::kSuspended);  // child 11 still pending
  EXPECT_FALSE(m.working(0));                  // current again, but inside its wait
  schedule(0, 1, TaskStatus::kSwitch, 11);
  finish(0, 11, 1);
  EXPECT_EQ(state(1), TaskState::kReady);
}

TEST_F(ModelTest, TaskIsSuspendedFromTheStartOfItsSyncConstructToItsEnd) {
  implicit_begin(0, 1, 100);
  sync(0, SyncKind::kTaskwait, Endpoint::kBegin, 1);  // before the wait inside it
  EXPECT_EQ(state(1), TaskState::kReady);  // no child: it could return at once
  EXPECT_FALSE(m.working(0));
  wait(0, SyncKind::kTaskwait, Endpoint::kBegin, 1);
  wait(0, SyncKind::kTaskwait, Endpoint::kEnd, 1);
  EXPECT_FALSE(m.working(0));
  sync(0, SyncKind::kTaskwait, Endpoint::kEnd, 1);
  EXPECT_TRUE(m.working(0));
}

TEST_F(ModelTest, TaskgroupBodyRunsUntilItsWait) {
  implicit_begin(0, 1, 100);
  sync(0, SyncKind::kTaskgroup, Endpoint::kBegin, 1);
  EXPECT_TRUE(m.working(0));  // the taskgroup's sync_region spans its body
  wait(0, SyncKind::kTaskgroup, Endpoint::kBegin, 1);
  EXPECT_FALSE(m.working(0));
  wait(0, SyncKind::kTaskgroup, Endpoint::kEnd, 1);
  EXPECT_TRUE(m.working(0));
}

TEST_F(ModelTest, BarrierCompletesWhenTeamArrivedAndTasksDone) {
  implicit_begin(0, 1, 100);
  implicit_begin(1, 2, 100);
  create(0, 10, 1);
  wait(0, SyncKind::kBarrierImplicit, Endpoint::kBegin, 1, 100);
  EXPECT_EQ(state(1), TaskState::kSuspended);
  wait(1, SyncKind::kBarrierImplicit, Endpoint::kBegin, 2, 100);
  EXPECT_EQ(state(2), TaskState::kSuspended);  // task 10 is still to run
  schedule(1, 2, TaskStatus::kSwitch, 10);
  finish(1, 10, 2);
  EXPECT_EQ(state(1), TaskState::kReady);
  EXPECT_EQ(state(2), TaskState::kReady);
  wait(0, SyncKind::kBarrierImplicit, Endpoint::kEnd, 1, 0);  // NULL parallel data at the end
  EXPECT_EQ(state(1), TaskState::kRunning);
}

// A region's barriers counted apart: thread 1 leaves the explicit barrier, runs task 10 and
// reaches the closing barrier while thread 0's end of the explicit one is still to come (a
// loaded machine). Thread 1 waits there until thread 0 arrives too: one count for the region
// (thread 0 still in the first barrier, thread 1 in the second) made it ready at once.
TEST_F(ModelTest, ABarrierCountsOnlyItsOwnArrivalsAndTasks) {
  implicit_begin(0, 1, 100);
  implicit_begin(1, 2, 100);
  wait(1, SyncKind::kBarrierExplicit, Endpoint::kBegin, 2, 100);
  wait(0, SyncKind::kBarrierExplicit, Endpoint::kBegin, 1, 100);
  EXPECT_EQ(state(1), TaskState::kReady);
  EXPECT_EQ(state(2), TaskState::kReady);
  wait(1, SyncKind::kBarrierExplicit, Endpoint::kEnd, 2, 100);
  create(1, 10, 2);
  wait(1, SyncKind::kBarrierImplicit, Endpoint::kBegin, 2, 100);
  schedule(1, 2, TaskStatus::kSwitch, 10);
  finish(1, 10, 2);
  EXPECT_EQ(state(2), TaskState::kSuspended);  // thread 0 has not reached this barrier
  EXPECT_EQ(state(1), TaskState::kReady);      // its barrier is over
  wait(0, SyncKind::kBarrierExplicit, Endpoint::kEnd, 1, 100);
  EXPECT_EQ(state(1), TaskState::kRunning);
  create(0, 11, 1);  // after the first barrier: the closing one waits for it
  wait(0, SyncKind::kBarrierImplicit, Endpoint::kBegin, 1, 100);
  EXPECT_EQ(state(2), TaskState::kSuspended);
  schedule(0, 1, TaskStatus::kSwitch, 11);
  finish(0, 11, 1);
  EXPECT_EQ(state(1), TaskState::kReady);
  EXPECT_EQ(state(2), TaskState::kReady);
}

// A task whose creator is not known (a damaged trace) belongs to the barrier its thread's task
// is before: after the first barrier, the closing one waits for it.
TEST_F(ModelTest, ATaskOfAnUnknownCreatorCountsInItsThreadsBarrier) {
  implicit_begin(0, 1, 100);
  implicit_begin(1, 2, 100);
  wait(0, SyncKind::kBarrierExplicit, Endpoint::kBegin, 1, 100);
  wait(1, SyncKind::kBarrierExplicit, Endpoint::kBegin, 2, 100);
  wait(0, SyncKind::kBarrierExplicit, Endpoint::kEnd, 1, 100);
  wait(1, SyncKind::kBarrierExplicit, Endpoint::kEnd, 2, 100);
  create(1, 10, 99);  // parent 99: never seen
  wait(0, SyncKind::kBarrierImplicit, Endpoint::kBegin, 1, 100);
  wait(1, SyncKind::kBarrierImplicit, Endpoint::kBegin, 2, 100);
  EXPECT_EQ(state(1), TaskState::kSuspended);  // task 10 is still to run
  schedule(1, 2, TaskStatus::kSwitch, 10);
  finish(1, 10, 2);
  EXPECT_EQ(state(1), TaskState::kReady);
}

TEST_F(ModelTest, TaskgroupWaitsForDescendants) {
  implicit_begin(0, 1, 100);
  sync(0, SyncKind::kTaskgroup, Endpoint::kBegin, 1);
  create(0, 10, 1);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  create(0, 11, 10);  // grandchild: in the group through its parent
  finish(0, 10, 1);
  wait(0, SyncKind::kTaskgroup, Endpoint::kBegin, 1);
  EXPECT_EQ(state(1), TaskState::kSuspended);  // grandchild 11 is pending
  schedule(0, 1, TaskStatus::kSwitch, 11);
  finish(0, 11, 1);
  EXPECT_EQ(state(1), TaskState::kReady);
  wait(0, SyncKind::kTaskgroup, Endpoint::kEnd, 1);
  sync(0, SyncKind::kTaskgroup, Endpoint::kEnd, 1);
  EXPECT_EQ(state(1), TaskState::kRunning);
}

TEST_F(ModelTest, UntiedTaskSwitchedOutIsReadyAndMayResumeElsewhere) {
  implicit_begin(0, 1, 100);
  implicit_begin(1, 2, 100);
  create(0, 10, 1, flag::kExplicit | flag::kUntied);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  schedule(0, 10, TaskStatus::kYield, 1);
  EXPECT_EQ(state(10), TaskState::kReady);
  EXPECT_EQ(m.ready_count(), 1u);
  schedule(1, 2, TaskStatus::kSwitch, 10);
  EXPECT_EQ(state(10), TaskState::kRunning);
  EXPECT_EQ(m.task(10)->thread, 1u);
  EXPECT_EQ(m.task(10)->fragments, 2u);
}

// libomp runs an untied task's next part at once on top of the current task when it cannot queue
// it (a full deque), reporting task_schedule(C, switch, C) while the thread runs P
// (task_switch.h): P is switched out and stays on this thread (suspended, not ready), C runs.
TEST_F(ModelTest, UntiedPartRunOnTopOfTheCurrentTaskSuspendsIt) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1, flag::kExplicit | flag::kUntied);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  create(0, 11, 10, flag::kExplicit | flag::kUntied);
  schedule(0, 10, TaskStatus::kSwitch, 11);  // C's first part
  schedule(0, 11, TaskStatus::kSwitch, 10);  // ends unfinished: C ready, P runs
  EXPECT_EQ(state(11), TaskState::kReady);
  EXPECT_EQ(state(10), TaskState::kRunning);
  schedule(0, 11, TaskStatus::kSwitch, 11);  // C's next part, on top of P
  EXPECT_EQ(state(11), TaskState::kRunning);
  EXPECT_EQ(state(10), TaskState::kSuspended);
  EXPECT_EQ(m.ready_count(), 0u);
  EXPECT_EQ(m.thread(0).current, 11u);
  EXPECT_EQ(m.task(11)->fragments, 2u);
  finish(0, 11, 10);
  EXPECT_EQ(state(10), TaskState::kRunning);
  // The same event with C current is no switch.
  create(0, 12, 10, flag::kExplicit | flag::kUntied);
  schedule(0, 10, TaskStatus::kSwitch, 12);
  schedule(0, 12, TaskStatus::kSwitch, 12);
  EXPECT_EQ(state(12), TaskState::kRunning);
  EXPECT_EQ(m.thread(0).current, 12u);
  EXPECT_EQ(m.task(12)->fragments, 1u);
}

TEST_F(ModelTest, UndeferredChildSuspendsItsCreatorUntilItEnds) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1, flag::kExplicit | flag::kUndeferred);
  EXPECT_EQ(state(10), TaskState::kInitialized);  // never queued
  EXPECT_EQ(m.ready_count(), 0u);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  EXPECT_EQ(state(1), TaskState::kSuspended);
  finish(0, 10, 1);
  EXPECT_EQ(state(1), TaskState::kRunning);
}

TEST_F(ModelTest, DetachedTaskReleasesSuccessorsOnlyWhenFulfilled) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1, flag::kExplicit, true);
  deps(0, 10, {{0xE0, DependenceType::kOut}});
  create(0, 11, 1, flag::kExplicit, true);
  deps(0, 11, {{0xE0, DependenceType::kIn}});
  schedule(0, 1, TaskStatus::kSwitch, 10);
  schedule(0, 10, TaskStatus::kDetach, 1);
  EXPECT_EQ(state(10), TaskState::kDetached);
  EXPECT_EQ(state(11), TaskState::kInitialized);
  EXPECT_TRUE(m.working(0));
  schedule(1, 10, TaskStatus::kLateFulfill, 0);  // fulfilled from the other thread
  EXPECT_EQ(state(10), TaskState::kCompleted);
  EXPECT_EQ(state(11), TaskState::kReady);
  EXPECT_EQ(m.thread(1).current, 0u);  // fulfilling does not change what thread 1 runs
}

TEST_F(ModelTest, CancelledTaskCompletesWithoutRunning) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1);
  schedule(0, 10, TaskStatus::kCancel, 0);
  EXPECT_EQ(state(10), TaskState::kCompleted);
  EXPECT_EQ(m.ready_count(), 0u);
}

TEST_F(ModelTest, NestedParallelResumesTheEncounteringTask) {
  implicit_begin(0, 1, 100);
  create(0, 10, 1);
  schedule(0, 1, TaskStatus::kSwitch, 10);
  implicit_begin(0, 20, 200, 1);  // task 10 opens a parallel region of one thread
  EXPECT_EQ(m.thread(0).current, 20u);
  EXPECT_EQ(m.thread(0).region, 200u);
  EXPECT_EQ(state(10), TaskState::kSuspended);
  ev(0, Kind::kImplicitTask, uint8_t(Endpoint::kEnd), 0, flag::kImplicit, 20, 0, 1);
  EXPECT_EQ(m.thread(0).current, 10u);
  EXPECT_EQ(m.thread(0).region, 100u);
  EXPECT_EQ(state(10), TaskState::kRunning);
}

TEST_F(ModelTest, UnknownTasksAreCreatedOnFirstSight) {
  schedule(1, 0, TaskStatus::kSwitch, 77);  // a trace whose start was lost
  EXPECT_EQ(state(77), TaskState::kRunning);
  EXPECT_TRUE(m.working(1));
}

TEST_F(ModelTest, ABarrierReportedInsideTheRuntimeIsTheConstructEndedLast) {
  m.set_runtime_code({0x7000, 0x8000});
  implicit_begin(0, 1, 100);
  auto work = [&](Endpoint ep, format::WorkType type, uint64_t code) {
    ev(0, Kind::kWork, uint8_t(ep), uint16_t(type), 0, 100, 1, code);
  };
  auto barrier = [&](SyncKind kind, uint64_t code) {
    return m.sync_code(Event{++t, Kind::kSyncRegion, uint8_t(Endpoint::kBegin), uint16_t(kind), 0,
                             100, 1, code},
                       0);
  };
  // No construct ended yet: the address stays.
  EXPECT_EQ(barrier(SyncKind::kBarrierImplicit, 0x7100), 0x7100u);
  // A single holding a taskloop: the taskloop ends first, the single last.
  work(Endpoint::kBegin, format::WorkType::kSingleExecutor, 0x500);
  work(Endpoint::kBegin, format::WorkType::kTaskloop, 0x540);
  work(Endpoint::kEnd, format::WorkType::kTaskloop, 0x548);
  work(Endpoint::kEnd, format::WorkType::kSingleExecutor, 0x580);
  EXPECT_EQ(barrier(SyncKind::kBarrierImplicit, 0x7100), 0x500u);
  EXPECT_EQ(barrier(SyncKind::kBarrierImplicitWorkshare, 0x7100), 0x500u);
  // Addresses in the program, explicit barriers and the parallel's end barrier stay.
  EXPECT_EQ(barrier(SyncKind::kBarrierImplicit, 0x600), 0x600u);
  EXPECT_EQ(barrier(SyncKind::kBarrierExplicit, 0x7100), 0x7100u);
  EXPECT_EQ(barrier(SyncKind::kBarrierImplicitParallel, 0x7100), 0x7100u);
  EXPECT_EQ(barrier(SyncKind::kTaskwait, 0x7100), 0x7100u);
}

}  // namespace
}  // namespace tasklens::replay
