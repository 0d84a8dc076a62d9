// The runtime's time inside task creation (analysis/creation_cost.h): its estimate from the gaps
// of hand-made traces, and its claims on the creator's work in the breakdown (overhead), the ompP
// classes (task management) and the task graph (runtime weight on the path). Times in ns.
#include "analysis/creation_cost.h"

#include <gtest/gtest.h>

#include "analysis/breakdown.h"
#include "analysis/overheads.h"
#include "analysis/task_graph.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

constexpr uint64_t kCreates = 40;

struct Passes {
  BreakdownPass breakdown;
  OverheadsPass overheads;
  TaskGraphPass graph;
};

// Replays the trace; the estimate must be `method` with `per_task` ns, and the breakdown's
// creation time `claimed` ns.
void replay(TraceBuilder& t, Passes& p, CreationCost::Method method, uint64_t per_task,
            uint64_t claimed) {
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&p.breakdown, &p.overheads, &p.graph}));
  // The graph's work, runtime and preempted time are the time the breakdown saw task bodies run.
  EXPECT_EQ(p.graph.result().work_ns + p.graph.result().runtime_ns + p.graph.result().preempted_ns,
            p.breakdown.result().task_body_ns);
  const Breakdown& b = p.breakdown.result();
  EXPECT_EQ(b.creation.method, method);
  EXPECT_EQ(b.creation.ns, per_task);
  EXPECT_EQ(b.total.creation_ns, claimed);
}

// Thread 0's implicit task 2 creates tasks 10.. back to back, at 1000 then alternately 300 and
// 500 ns apart (39 gaps: 20 of 300, 19 of 500), then runs them in a taskwait, 1000 ns each.
void creation_chain(TraceBuilder& t) {
  t.solo_begin();
  uint64_t time = 1000;
  for (uint64_t i = 0; i < kCreates; ++i) {
    if (i) time += i % 2 ? 300 : 500;
    t.create(0, time, 10 + i, 2);
  }
  uint64_t wait = time + 1000;  // 17,500
  t.sync(0, wait, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2);
  t.sync_wait(0, wait, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2);
  for (uint64_t i = 0; i < kCreates; ++i) {
    uint64_t at = wait + 1000 * i;
    t.schedule(0, at, i ? 10 + i - 1 : 2, i ? Status::kComplete : Status::kSwitch, 10 + i);
  }
  uint64_t done = wait + 1000 * kCreates;  // 57,500
  t.schedule(0, done, 10 + kCreates - 1, Status::kComplete, 2);
  t.sync_wait(0, done, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2);
  t.sync(0, done, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2);
  t.solo_end(done + 100, done + 200);
}

TEST(CreationCost, TheTenthPercentileOfBackToBackGaps) {
  CreationSampler s;
  format::Event e{};
  e.kind = format::Kind::kImplicitTask;
  s.add(e);
  e.kind = format::Kind::kTaskCreate;
  e.c = 0x2000;
  uint64_t time = 1000;
  for (uint64_t i = 0; i < kCreates; ++i) {
    if (i) time += i % 2 ? 300 : 500;
    e.time = time;
    s.add(e);
    // A dependence record belongs to its creation: the gap goes on across it.
    format::Event dep = e;
    dep.kind = format::Kind::kDependence;
    dep.time = time + 50;
    s.add(dep);
  }
  CreationCost c = s.estimate();
  EXPECT_EQ(c.method, CreationCost::Method::kBackToBack);
  EXPECT_EQ(c.samples, kCreates - 1);
  EXPECT_EQ(c.ns, 300u);  // sorted: 20 x 300 then 19 x 500; the 10th percentile is the 4th
  EXPECT_EQ(c.of(0x2000), 300u);
  EXPECT_EQ(c.of(0x9999), 300u);  // a construct without samples: the run's estimate
}

TEST(CreationCost, TooFewSamplesClaimNothing) {
  CreationSampler s;
  format::Event e{};
  e.kind = format::Kind::kTaskCreate;
  for (uint64_t i = 0; i < CreationCost::kMinSamples; ++i) {  // kMinSamples - 1 gaps
    e.time = 1000 * i;
    s.add(e);
  }
  CreationCost c = s.estimate();
  EXPECT_EQ(c.method, CreationCost::Method::kNone);
  EXPECT_EQ(c.ns, 0u);
}

// 40 back-to-back creations of 300 ns each (the estimate): 12,000 ns of the implicit task's
// 17,500 ns before its taskwait are the runtime's.
TEST(CreationCost, BackToBackCreationsMoveFromWorkToOverhead) {
  TraceBuilder t;
  creation_chain(t);
  Passes p;
  replay(t, p, CreationCost::Method::kBackToBack, 300, kCreates * 300);
  const Breakdown& b = p.breakdown.result();
  // Work: the implicit task 17,500 - 12,000, the tasks 40,000, after the taskwait 100, the
  // initial task after the region 100 (the trace has no initial thread_begin: no serial time).
  EXPECT_EQ(b.total.work_ns, 5500u + 40000u + 100u + 100u);
  EXPECT_EQ(b.total.overhead_ns, kCreates * 300);
  EXPECT_EQ(b.total.idle_ns, 0u);
  // ompP: task management.
  const Overheads& o = p.overheads.result();
  ASSERT_EQ(o.regions.size(), 1u);
  EXPECT_EQ(o.regions[0].cost[Cost::kTaskManagement], kCreates * 300);
  EXPECT_EQ(o.regions[0].cost[Cost::kWork], 5500u + 40000u + 100u);
  // The graph: every creation is on the implicit task's path, before its taskwait; the path
  // (17,500 to the taskwait, 100 after it, 100 of the initial task after the region) holds all
  // of them as runtime weight.
  const TaskGraph& g = p.graph.result();
  EXPECT_EQ(g.creation_ns, kCreates * 300);
  EXPECT_EQ(g.path_creation_ns, kCreates * 300);
  EXPECT_EQ(g.path_runtime_ns, kCreates * 300);  // no fork time: the region forks at 0
  EXPECT_EQ(g.span_ns, 17500u + 100u + 100u);
  uint64_t implicit_on_path = 0;
  for (const PathShare& s : g.critical_path) {
    if (!s.runtime && s.codeptr == 0) implicit_on_path += s.ns;
  }
  EXPECT_EQ(implicit_on_path, 17500u + 200u - kCreates * 300);
}

// Each creation sits between the end of a taskwait (200 ns before it) and the next taskwait
// (100 ns after it): no back-to-back gaps, so the estimate is the span between the two events,
// 300 ns; each creation claims its 200 ns before and its 100 ns after.
TEST(CreationCost, IsolatedCreationsClaimTheTimeAroundThem) {
  TraceBuilder t;
  t.solo_begin();
  uint64_t base = 0;
  for (uint64_t i = 0; i < kCreates; ++i) {
    uint64_t task = 10 + i;
    t.create(0, base + 200, task, 2);
    t.sync(0, base + 300, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2);
    t.sync_wait(0, base + 300, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2);
    t.schedule(0, base + 300, 2, Status::kSwitch, task);
    t.schedule(0, base + 1300, task, Status::kComplete, 2);
    t.sync_wait(0, base + 1300, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2);
    t.sync(0, base + 1300, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2);
    base += 1300;
  }
  t.solo_end(base + 100, base + 200);
  Passes p;
  replay(t, p, CreationCost::Method::kIsolated, 300, kCreates * 300);
  const Breakdown& b = p.breakdown.result();
  // The tasks, after the last taskwait, the initial task after the region.
  EXPECT_EQ(b.total.work_ns, kCreates * 1000 + 200);
  EXPECT_EQ(b.total.overhead_ns, kCreates * 300);
  EXPECT_EQ(p.overheads.result().regions[0].cost[Cost::kTaskManagement], kCreates * 300);
  const TaskGraph& g = p.graph.result();
  EXPECT_EQ(g.creation_ns, kCreates * 300);
  EXPECT_EQ(g.work_ns, kCreates * 1000 + 200);
  // The path: each creation (runtime: 200 before its task_create, 100 after it), then its task,
  // which starts after the whole creation; and so on.
  EXPECT_EQ(g.span_ns, base + 200);
  EXPECT_EQ(g.path_creation_ns, kCreates * 300);
}

}  // namespace
}  // namespace tasklens::analysis
