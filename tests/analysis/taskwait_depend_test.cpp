// `taskwait depend(...)` (libomp: no taskwait region, a task flagged taskwait that never runs and
// ends with taskwait_complete) is a taskwait in the ompP classes, as in the model's states: the
// golden trace taskwait_depend_on_other_thread against its plain taskwait twin. Times in ns.
#include <gtest/gtest.h>

#include "analysis/overheads.h"
#include "analysis/profile_dump.h"
#include "analysis/two_thread_team.h"
#include "replay/task_model.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using testing::TraceBuilder;

Overheads analyze(TraceBuilder& t) {
  OverheadsPass pass;
  testing::replay_experiment(t.write(), {&pass});
  return pass.result();
}

// The region's row of `kind` (the one of that kind), or a failure.
const ConstructOverheads* row(const RegionOverheads& r, Construct kind) {
  for (const ConstructOverheads& c : r.constructs) {
    if (c.kind == kind) return &c;
  }
  ADD_FAILURE() << "no " << construct_name(kind) << " row";
  return nullptr;
}

// Thread 0 waits 20..140: task 10 ready 20..30 (task management), nothing to run 30..140
// (synchronization: thread 1 runs task 10, then the waiter itself is ready, which no explicit
// task is). Before the fix the wait had no row and its 120 ns were thread 0's work.
TEST(TaskwaitDepend, IsATaskwaitInTheOverheadClasses) {
  TraceBuilder plain, depend;
  taskwait_on_other_thread(plain);
  taskwait_depend_on_other_thread(depend);
  Overheads a = analyze(plain), b = analyze(depend);
  ASSERT_EQ(a.regions.size(), 1u);
  ASSERT_EQ(b.regions.size(), 1u);
  const RegionOverheads &ra = a.regions[0], &rb = b.regions[0];
  ASSERT_EQ(rb.threads.size(), 2u);
  for (uint32_t th = 0; th < 2; ++th) {
    SCOPED_TRACE(th);
    EXPECT_EQ(rb.threads[th].ns, ra.threads[th].ns);
  }
  const ConstructOverheads* wa = row(ra, Construct::kTaskwait);
  const ConstructOverheads* wb = row(rb, Construct::kTaskwait);
  ASSERT_TRUE(wa && wb);
  EXPECT_EQ(wb->codeptr, 0x5000u);  // the taskwait's task's create call
  EXPECT_EQ(wb->cost[Cost::kTaskManagement], 10u);
  EXPECT_EQ(wb->cost[Cost::kSynchronization], 110u);
  EXPECT_EQ(wb->cost[Cost::kWork], 0u);
  EXPECT_EQ(wb->cost.ns, wa->cost.ns);
  ASSERT_FALSE(wb->threads.empty());
  EXPECT_EQ(wb->threads[0].exec_ns, 120u);
  EXPECT_EQ(wb->threads[0].count, wa->threads[0].count);
  EXPECT_EQ(b.regions[0].constructs.size(), a.regions[0].constructs.size());
}

// The model: the creator waits in a taskwait from the taskwait's task's creation, ready once the
// task it names completes, running again at taskwait_complete; the model says which task is a
// taskwait's.
struct Probe : replay::Pass {
  std::vector<std::pair<uint64_t, replay::TaskState>> creator;  // (time, state of kI0)
  bool marker_seen = false, marker_is_taskwait = false;
  replay::Wait wait_at_30 = replay::Wait::kNone;
  bool uses_before() const override { return false; }
  void after(const replay::Record& r, const replay::TaskModel& m) override {
    const replay::TaskInfo* c = m.task(kI0);
    if (c && (creator.empty() || creator.back().second != c->state)) {
      creator.emplace_back(r.ev.time, c->state);
    }
    if (r.ev.time == 30 && c) wait_at_30 = c->wait;
    if (const replay::TaskInfo* d = m.task(11); d && !marker_seen) {
      marker_seen = true;
      marker_is_taskwait = d->is_taskwait_depend();
    }
  }
};

TEST(TaskwaitDepend, TheCreatorWaitsInATaskwait) {
  TraceBuilder t;
  taskwait_depend_on_other_thread(t);
  Probe probe;
  testing::replay_experiment(t.write(), {&probe});
  using S = replay::TaskState;
  const std::vector<std::pair<uint64_t, S>> expected = {
      {0, S::kRunning}, {20, S::kSuspended}, {130, S::kReady},    {140, S::kRunning},
      {150, S::kReady}, {160, S::kRunning},  {170, S::kCompleted}};
  EXPECT_EQ(probe.creator, expected);
  EXPECT_EQ(probe.wait_at_30, replay::Wait::kTaskwait);
  EXPECT_TRUE(probe.marker_seen);
  EXPECT_TRUE(probe.marker_is_taskwait);
}

// The trace's profile: the wait is a taskwait node of the creator (its code the taskwait's task's
// create call), in place of the plain taskwait's, and the taskwait's task is no task construct.
// Before the fix the 120 ns were the implicit task's own (exclusive) time.
TEST(TaskwaitDepend, IsATaskwaitInTheProfile) {
  TraceBuilder plain, depend;
  taskwait_on_other_thread(plain);
  taskwait_depend_on_other_thread(depend);
  Profile a = profile_of(plain), b = profile_of(depend);
  std::string expected = dump(a);
  const std::string from = "taskwait 0x3000", to = "taskwait 0x5000";
  ASSERT_NE(expected.find(from), std::string::npos) << expected;
  expected.replace(expected.find(from), from.size(), to);
  EXPECT_EQ(dump(b), expected);
  ASSERT_EQ(b.tasks.size(), 1u);
  EXPECT_EQ(b.tasks[0].codeptr, 0x2000u);
  EXPECT_EQ(b.tasks[0].instances, 1u);
}

}  // namespace
}  // namespace tasklens::analysis
