// TaskCostPass on hand-made traces: the scheduling cost of a task start is the time from the end
// of its thread's last body (or from when a task became ready) to its switch-in, and waiting
// with nothing ready is no sample; tasks a team of one ran at their creation are found, and the
// simulation defers them on more threads. Times in ns.
#include "simulate/task_costs.h"

#include <gtest/gtest.h>

#include "simulate/simulator.h"
#include "simulate/task_dag.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::simulate {
namespace {

using format::Endpoint;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

constexpr uint32_t kUndeferredTask = format::task_flag::kExplicit | format::task_flag::kUndeferred;

// A team of two: thread 1 reaches the barrier at 50 with nothing ready; thread 0 creates tasks
// 10 and 11 at 100 and 200 and reaches the barrier at 300. Thread 0 starts 11 at 320 (a task
// was ready all along: 20 since its body ended); thread 1 starts 10 at 400 (nothing was ready
// until 100: 300, not 350). 11 ends at 420; thread 0 then waits with nothing ready until task
// 10 creates 12 at 1300, and starts it at 1350: 50, not the 930 since its last body.
TEST(TaskCosts, TaskStartsWithoutTheWaitsWithNothingReady) {
  TraceBuilder t;
  t.pair_begin();
  t.sync(1, 50, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 3);
  t.create(0, 100, 10, 2);
  t.create(0, 200, 11, 2);
  t.sync(0, 300, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 2);
  t.schedule(0, 320, 2, Status::kSwitch, 11);
  t.schedule(1, 400, 3, Status::kSwitch, 10);
  t.schedule(0, 420, 11, Status::kComplete, 2);
  t.create(1, 1300, 12, 10);
  t.schedule(0, 1350, 2, Status::kSwitch, 12);
  t.schedule(1, 1400, 10, Status::kComplete, 3);
  t.schedule(0, 1450, 12, Status::kComplete, 2);
  t.sync(0, 1500, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 2);
  t.sync(1, 1500, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 3);
  t.implicit_end(1, 1510, 3);
  t.implicit_end(0, 1510, 2);
  t.parallel_end(0, 1510, 100, 1);
  t.implicit_end(0, 1520, 1);
  TaskCostPass pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  const TaskCosts& c = pass.result();
  ASSERT_EQ(c.constructs.size(), 1u);
  EXPECT_EQ(c.constructs[0].codeptr, 0x2000u);
  EXPECT_EQ(c.schedule.samples, 3u);  // 20, 300, 50: too few to trim, their mean
  EXPECT_EQ(c.schedule.ns, 123u);
  EXPECT_EQ(c.constructs[0].schedule.ns, 123u);
  // Creation: to the creator's next event: 100 (10: the next create), 100 (11: the barrier),
  // 100 (12: its creator's completion).
  EXPECT_EQ(c.constructs[0].creation.samples, 3u);
  EXPECT_EQ(c.constructs[0].creation.ns, 100u);
  EXPECT_EQ(c.ran_immediately, 0u);
}

// A team of one runs every task at its creation (libomp's serialized team): created at 10, 150,
// 280, switched in 30, 20, 10 later, each runs 100. The creator works 0..10, 140..150,
// 270..280, 390..400; the program ends at 410 (the root's last 10).
// With dependences, each task has one (inout on one address), recorded 5 after its create call.
std::string team_of_one_trace(bool dependences) {
  TraceBuilder t;
  t.solo_begin();
  uint64_t at = 10;
  uint64_t task = 10;
  for (uint64_t dispatch : {30, 20, 10}) {
    t.create(0, at, task, 2, 0x2000, kUndeferredTask, dependences);
    if (dependences) t.deps(0, at + 5, task, {{0xA0, format::DependenceType::kInout}});
    t.schedule(0, at + dispatch, 2, Status::kSwitch, task);
    t.schedule(0, at + dispatch + 100, task, Status::kComplete, 2);
    at += dispatch + 110;
    ++task;
  }
  t.solo_end(400, 410);
  return t.write();
}

TEST(TaskCosts, ATeamOfOneRunsItsTasksAtOnceAndMoreThreadsDeferThem) {
  TaskCostPass costs;
  TaskDagPass dag_pass;
  ASSERT_TRUE(testing::replay_experiment(team_of_one_trace(false), {&costs, &dag_pass}));
  const TaskCosts& c = costs.result();
  EXPECT_EQ(c.ran_immediately, 3u);
  EXPECT_EQ(c.ran_immediately_team_of_one, 3u);
  EXPECT_EQ(c.schedule.samples, 3u);
  EXPECT_EQ(c.schedule.ns, 20u);  // the mean of 30, 20, 10
  const TaskDag& dag = dag_pass.result();
  for (const DagTask& d : dag.tasks) EXPECT_FALSE(d.undeferred);
  SimCosts none;
  SimConfig one, two;
  two.threads = 2;
  // One worker: 40 of the creator, 300 of tasks, 10 of the root.
  EXPECT_EQ(simulate(dag, none, one).wall_ns, 350u);
  // Two: the creator makes the three tasks at 10, 20, 30 and reaches the barrier at 40; worker
  // 1 runs 10 (10..110) then steals 11 (110..210); the creator runs 12 (40..140). 210 + 10.
  EXPECT_EQ(simulate(dag, none, two).wall_ns, 220u);
  // Its construct's own scheduling cost per task start: three starts on one worker.
  SimCosts per_construct;
  per_construct.schedule_ns = 1000;  // for constructs without their own
  per_construct.schedule_by_construct = {c.constructs[0].schedule.ns};
  EXPECT_EQ(simulate(dag, per_construct, one).wall_ns, 350u + 3 * 20);
}

// The same with a dependence per task (inout on one address, as EPCC taskbench's
// MASTER_TASK_DEPS): libomp writes the task's dependence record between the create call and the
// switch-in, 5 after the create. The whole create-to-switch-in time is the start's sample, so
// none of it may stay in the creator's work: the part up to the dependence record did, and a
// one-thread recording predicted itself 2 to 4 % long (40,950 tasks of about 110 ns).
TEST(TaskCosts, ATeamOfOnesDependenceRecordsAreInItsDispatchNotInTheCreatorsWork) {
  TaskCostPass costs;
  TaskDagPass dag_pass;
  ASSERT_TRUE(testing::replay_experiment(team_of_one_trace(true), {&costs, &dag_pass}));
  const TaskCosts& c = costs.result();
  EXPECT_EQ(c.ran_immediately_team_of_one, 3u);
  EXPECT_EQ(c.schedule.ns, 20u);  // the mean of 30, 20, 10, from the create calls
  const TaskDag& dag = dag_pass.result();
  EXPECT_EQ(dag.dispatch_ns, 60u);
  EXPECT_EQ(dag.successors.size(), 2u);  // 10 -> 11 -> 12: the records' edges are kept
  SimCosts none;
  SimConfig one;
  EXPECT_EQ(simulate(dag, none, one).wall_ns, 350u);  // 40 of the creator, 300, 10 of the root
  SimCosts measured;
  measured.schedule_by_construct = {c.constructs[0].schedule.ns};
  EXPECT_EQ(simulate(dag, measured, one).wall_ns, 410u);  // the run itself
}

// libomp runs a task at once on its creator when the creator's deque is full (task throttling):
// that costs the same dispatch as a team of one's, which the recording measured apart from the
// creator's work. With a deque of one entry, the first task is queued and the next two run at
// once: each start is charged, and one worker takes as long as the recorded run. (They were not:
// BOTS uts, whose root creates 2,000 tasks, predicted its own one-thread run 3 to 5 % short.)
TEST(TaskCosts, TasksRunAtOnceOnAFullDequePayTheirDispatch) {
  TaskCostPass costs;
  TaskDagPass dag_pass;
  ASSERT_TRUE(testing::replay_experiment(team_of_one_trace(false), {&costs, &dag_pass}));
  SimCosts measured;
  measured.schedule_by_construct = {costs.result().constructs[0].schedule.ns};
  SimConfig one;
  one.deque_size = 1;
  EXPECT_EQ(simulate(dag_pass.result(), measured, one).wall_ns, 410u);
}

// An if(0) task in a team of two: thread 0 creates it at 100 and runs it at once (130..230),
// thread 1 waits in the barrier. The program asked for it: no scheduling sample, undeferred in
// the simulation, its dispatch (100..130) in its creator's work: 100 + 30 + 10 of the creator
// (until its barrier at 240), 100 of the task.
TEST(TaskCosts, AnUndeferredTaskOfALargerTeamStaysTheProgramsChoice) {
  TraceBuilder t;
  t.pair_begin();
  t.sync(1, 10, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 3);
  t.create(0, 100, 10, 2, 0x2000, kUndeferredTask);
  t.schedule(0, 130, 2, Status::kSwitch, 10);
  t.schedule(0, 230, 10, Status::kComplete, 2);
  t.sync(0, 240, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 2);
  t.sync(0, 250, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 2);
  t.sync(1, 250, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 3);
  t.implicit_end(1, 250, 3);
  t.implicit_end(0, 250, 2);
  t.parallel_end(0, 250, 100, 1);
  t.implicit_end(0, 250, 1);
  TaskCostPass costs;
  TaskDagPass dag_pass;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&costs, &dag_pass}));
  const TaskCosts& c = costs.result();
  EXPECT_EQ(c.ran_immediately, 1u);
  EXPECT_EQ(c.ran_immediately_team_of_one, 0u);
  EXPECT_EQ(c.schedule.samples, 0u);
  const TaskDag& dag = dag_pass.result();
  ASSERT_EQ(dag.tasks.size(), 4u);  // the root (the initial task), two implicit tasks, the task
  EXPECT_TRUE(dag.tasks[3].undeferred);
  EXPECT_TRUE(dag.tasks[3].ran_immediately);
  EXPECT_EQ(dag.work_ns, 250u);  // 240 of the creator and the task, 10 of thread 1
  SimCosts none;
  none.schedule_ns = 1000;  // never charged: the task starts from no deque
  SimConfig two;
  two.threads = 2;
  EXPECT_EQ(simulate(dag, none, two).wall_ns, 240u);
}

// A taskwait's own cost: the one at 130..160 has nothing to wait for (task 10 ran at its
// creation) and gives a sample of 30, wait records inside it included; the one at 210..290 has
// task 11 live at its begin and runs it inside: no sample.
TEST(TaskCosts, OnlyATaskwaitWithNothingToWaitForIsASample) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 10, 10, 2, 0x2000, kUndeferredTask);
  t.schedule(0, 20, 2, Status::kSwitch, 10);
  t.schedule(0, 120, 10, Status::kComplete, 2);
  t.sync_span(0, 130, 160, SyncKind::kTaskwait, 100, 2);
  t.create(0, 200, 11, 2);
  t.sync(0, 210, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2);
  t.sync_wait(0, 210, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2);
  t.schedule(0, 220, 2, Status::kSwitch, 11);
  t.schedule(0, 280, 11, Status::kComplete, 2);
  t.sync_wait(0, 290, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2);
  t.sync(0, 290, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2);
  t.solo_end(300, 310);
  TaskCostPass costs;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&costs}));
  EXPECT_EQ(costs.result().taskwait.samples, 1u);
  EXPECT_EQ(costs.result().taskwait.ns, 30u);
}

// A cost between two clock ticks (15 ns on a 10 ns clock) reads 10 and 20 in turn: the
// estimate is 15, where the median said 10; one sample in 20 at either end is dropped (a
// preemption the kernel did not report).
TEST(TaskCosts, TheEstimateIsNotBiasedByTheClockTickAndDropsTheOutliers) {
  std::vector<uint64_t> ticks;
  for (int i = 0; i < 38; ++i) ticks.push_back(i % 2 ? 20 : 10);
  ticks.push_back(0);
  ticks.push_back(1000000);
  EXPECT_EQ(trimmed_mean_of(ticks), 15u);
  std::vector<uint64_t> none;
  EXPECT_EQ(trimmed_mean_of(none), 0u);
  std::vector<uint64_t> one = {7};
  EXPECT_EQ(trimmed_mean_of(one), 7u);
}

}  // namespace
}  // namespace tasklens::simulate
