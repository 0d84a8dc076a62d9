// The simulator on hand-made one-thread recordings whose schedule on P workers is worked out by
// hand in each test (libomp's policy: simulator.h). Times in ns.
#include "simulate/simulator.h"

#include <gtest/gtest.h>

#include "simulate/task_dag.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::simulate {
namespace {

using format::Endpoint;
using testing::DependenceType;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

constexpr uint64_t kImplicit = 2;  // solo_begin's implicit task

TaskDag record(TraceBuilder& t) {
  TaskDagPass pass;
  EXPECT_TRUE(testing::replay_experiment(t.write(), {&pass}));
  return pass.result();
}

SimResult sim(const TaskDag& dag, uint32_t threads, uint64_t schedule_ns = 0) {
  SimCosts costs;
  costs.schedule_ns = schedule_ns;
  SimConfig config;
  config.threads = threads;
  return simulate(dag, costs, config);
}

// The implicit task enters its barrier at `t0` and leaves it at `t1`.
void barrier(TraceBuilder& t, uint64_t t0, uint64_t t1) {
  t.sync_span(0, t0, t1, SyncKind::kBarrierImplicit, 100, kImplicit);
}

// Tasks `order` run one after another from `t` in the barrier, each for its duration.
uint64_t run_in_turn(TraceBuilder& t, uint64_t at,
                     std::initializer_list<std::pair<uint64_t, uint64_t>> order) {
  for (const auto& [task, ns] : order) {
    t.schedule(0, at, kImplicit, Status::kSwitch, task);
    at += ns;
    t.schedule(0, at, task, Status::kComplete, kImplicit);
  }
  return at;
}

// Three tasks of 100 ns chained by dependences (out, inout, inout on one address), created at
// 10, 20, 30; the one thread runs them 30..330 in its barrier, leaves it at 330, ends the
// region at 340 and the program at 350. On more workers the chain starts at its first task's
// creation (10..310 on worker 1) and no more: 330, whatever the count.
TEST(Simulator, AChainTakesAsLongOnAnyThreadCount) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 10, 10, kImplicit, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, DependenceType::kOut}});
  t.create(0, 20, 11, kImplicit, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 20, 11, {{0xA0, DependenceType::kInout}});
  t.create(0, 30, 12, kImplicit, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 30, 12, {{0xA0, DependenceType::kInout}});
  uint64_t end = run_in_turn(t, 30, {{10, 100}, {11, 100}, {12, 100}});
  barrier(t, 30, end);
  t.solo_end(340, 350);
  TaskDag dag = record(t);
  EXPECT_EQ(dag.tasks.size(), 5u);  // root, implicit, three tasks
  EXPECT_EQ(dag.successors.size(), 2u);
  EXPECT_EQ(dag.work_ns, 350u);
  EXPECT_EQ(dag.fragments, 8u);  // root 1, implicit 3 + 1 after the barrier, tasks 3
  for (uint32_t p : {1u, 2u, 4u}) {
    SimResult r = sim(dag, p);
    uint64_t wall = p == 1 ? 350 : 330;
    EXPECT_EQ(r.wall_ns, wall) << p << " threads";  // without the edges: 150 on 4
    EXPECT_EQ(r.work_ns, 350u);
    EXPECT_EQ(r.idle_ns, wall * p - 350u);
    EXPECT_EQ(r.tasks, 3u);
    EXPECT_FALSE(r.stalled);
  }
}

// `taskwait depend(in: A)` on one thread: the implicit task creates A (out 0xA0) at 10 and the
// taskwait's task D (in 0xA0, flagged taskwait: it never runs) at 20, runs A inside the wait
// 20..120, D completes (taskwait_complete) at 125, and the implicit task works 125..225 before
// its barrier; the region ends at 235, the program at 245. 120..125 is the runtime's: no work.
// One worker runs A in the wait: 0..20, A 20..120, 120..220, 220..230, the root 230..240. Two:
// worker 1 steals A at 10 (10..110) and the creator waits for it until 110: 110..210, then 10
// and the root's 10, 230. (Not waiting, the creator went on at 20: 130 on two workers.)
TEST(Simulator, ATaskwaitDependWaitsForTheTasksItNames) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 10, 10, kImplicit, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, DependenceType::kOut}});
  constexpr uint32_t kTaskwaitDepend =
      format::task_flag::kTaskwait | format::task_flag::kUndeferred | format::task_flag::kMergeable;
  t.create(0, 20, 11, kImplicit, 0x5000, kTaskwaitDepend, true);
  t.deps(0, 20, 11, {{0xA0, DependenceType::kIn}});
  run_in_turn(t, 20, {{10, 100}});
  t.schedule(0, 125, 11, Status::kTaskwaitComplete, 0);
  barrier(t, 225, 225);
  t.solo_end(235, 245);
  TaskDag dag = record(t);
  EXPECT_EQ(dag.work_ns, 240u);
  SimResult one = sim(dag, 1);
  EXPECT_EQ(one.wall_ns, 240u);
  EXPECT_EQ(one.work_ns, 240u);
  EXPECT_EQ(one.tasks, 1u);  // A; the taskwait's task is no task
  EXPECT_FALSE(one.stalled);
  SimResult two = sim(dag, 2);
  EXPECT_EQ(two.wall_ns, 230u);
  EXPECT_EQ(two.steals, 1u);
  EXPECT_FALSE(two.stalled);
}

// Two rounds of it: A2 (out 0xA0, created at 130) follows the first taskwait's task D1 (in 0xA0),
// a reader, so it may start only once D1 is done (the recording's taskwait_complete at 125);
// D2 waits for A2. One worker: 0..20, A1 20..120, 120..135 (A2 created at 125), A2 135..235,
// 235..245, the root 245..255. Two: A1 on worker 1 10..110, the creator 110..125 (A2 created at
// 115, stolen then: 115..215), waits until 215, then 10 and the root's 10: 235. (Before, D1 never
// completed in the simulation: A2 never became ready and both stalled.)
TEST(Simulator, ATaskwaitDependReleasesTheTasksThatFollowIt) {
  TraceBuilder t;
  t.solo_begin();
  constexpr uint32_t kTaskwaitDepend =
      format::task_flag::kTaskwait | format::task_flag::kUndeferred | format::task_flag::kMergeable;
  for (uint64_t round = 0; round < 2; ++round) {
    const uint64_t at = round * 120, a = 10 + 2 * round, d = a + 1;
    t.create(0, at + 10, a, kImplicit, 0x2000, format::task_flag::kExplicit, true);
    t.deps(0, at + 10, a, {{0xA0, DependenceType::kOut}});
    t.create(0, at + 20, d, kImplicit, 0x5000, kTaskwaitDepend, true);
    t.deps(0, at + 20, d, {{0xA0, DependenceType::kIn}});
    run_in_turn(t, at + 20, {{a, 100}});
    t.schedule(0, at + 125, d, Status::kTaskwaitComplete, 0);
  }
  barrier(t, 245, 245);
  t.solo_end(255, 265);
  TaskDag dag = record(t);
  EXPECT_EQ(dag.work_ns, 255u);  // I 20 + 15 + 10, the root 10, A1 and A2 100 each
  SimResult one = sim(dag, 1);
  EXPECT_FALSE(one.stalled);
  EXPECT_EQ(one.wall_ns, 255u);
  EXPECT_EQ(one.tasks, 2u);
  SimResult two = sim(dag, 2);
  EXPECT_FALSE(two.stalled);
  EXPECT_EQ(two.wall_ns, 235u);
}

// Four tasks of 100 ns created at 10, 20, 30, 40 (10 ns of the creator's work before each), run
// in the barrier 40..440; the region ends at 450, the program at 460.
TraceBuilder four_equal_tasks() {
  TraceBuilder t;
  t.solo_begin();
  for (uint64_t i = 0; i < 4; ++i) t.create(0, 10 * (i + 1), 10 + i, kImplicit);
  uint64_t end = run_in_turn(t, 40, {{13, 100}, {12, 100}, {11, 100}, {10, 100}});
  barrier(t, 40, end);
  t.solo_end(450, 460);
  return t;
}

TEST(Simulator, AForkOfEqualTasksOnOneWorkerIsTheRecordedRun) {
  TraceBuilder t = four_equal_tasks();
  TaskDag dag = record(t);
  SimResult r = sim(dag, 1);
  EXPECT_EQ(r.wall_ns, 460u);
  EXPECT_EQ(r.work_ns, 460u);
  EXPECT_EQ(r.idle_ns, 0u);
  EXPECT_EQ(r.steals, 0u);
  // 5 ns per task started: four tasks, 20 ns more.
  SimResult costly = sim(dag, 1, 5);
  EXPECT_EQ(costly.wall_ns, 480u);
  EXPECT_EQ(costly.overhead_ns, 20u);
}

// Two workers: worker 1 steals task 10 at its creation (10..110), worker 0 creates the others
// and runs 13 (LIFO) 40..140, worker 1 steals 11, the oldest (110..210), worker 0 runs 12
// (140..240); the barrier releases at 240, the region ends at 250, the program at 260.
TEST(Simulator, AForkOfEqualTasksOnTwoWorkers) {
  TraceBuilder t = four_equal_tasks();
  TaskDag dag = record(t);
  SimResult r = sim(dag, 2);
  EXPECT_EQ(r.wall_ns, 260u);
  EXPECT_EQ(r.work_ns, 460u);
  EXPECT_EQ(r.steals, 2u);
  EXPECT_EQ(r.idle_ns, 2 * 260u - 460u);
  // 5 ns per task started: worker 1 steals 10 at 10 and runs it 15..115, worker 0 runs 13
  // 45..145, worker 1 steals 11 (120..220), worker 0 runs 12 (150..250): 270 in all.
  EXPECT_EQ(sim(dag, 2, 5).wall_ns, 270u);
}

// Worker 1 is busy with task X (50 ns, stolen at 10) while worker 0 queues A (300 ns), B and C
// (100 ns) and runs C, its newest (40..140). At 60 worker 1 steals the oldest, A (60..360);
// worker 0 runs B (140..240). The barrier releases at 360: 380 in all. Stealing the newest
// instead (B) would leave A to worker 0 after C: 140..440, 460 in all.
TEST(Simulator, StealingTakesTheOldestTask) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 10, 20, kImplicit);  // X
  t.create(0, 20, 21, kImplicit);  // A
  t.create(0, 30, 22, kImplicit);  // B
  t.create(0, 40, 23, kImplicit);  // C
  uint64_t end = run_in_turn(t, 40, {{23, 100}, {22, 100}, {21, 300}, {20, 50}});
  barrier(t, 40, end);
  t.solo_end(end + 10, end + 20);
  TaskDag dag = record(t);
  EXPECT_EQ(sim(dag, 1).wall_ns, end + 20);
  SimResult r = sim(dag, 2);
  EXPECT_EQ(r.wall_ns, 380u);
  EXPECT_EQ(r.steals, 2u);
}

// A team of one runs every task at its creation (libomp flags them undeferred): the creator
// makes tasks 10..17 of 1000..8000 ns, each run at once, 10 ns apart, then waits in a taskwait.
// More workers defer them: on two, worker 1 steals 10 at its creation (10..1010), worker 0
// queues the others by 80 and runs 17, its newest (80..8080); worker 1 steals the oldest ones,
// 11 (1010..3010), 12 (..6010), 13 (..10010); worker 0 runs 16 (8080..15080); worker 1 steals
// 14 (10010..15010) and 15 (15010..21010). The taskwait ends at 21010. A second round (tasks
// 18..25) goes the same way from there: the region ends 10 ns after it, the program 10 later.
// The uneven loop of tasks of examples/uneven_tasks. (The taskwait's wait once stayed on after
// it ended, and the creator then ran every task of the second round at once itself.)
TEST(Simulator, ATeamOfOnesTasksSpreadOverTwoWorkers) {
  TraceBuilder t;
  t.solo_begin();
  uint64_t at = 0;
  for (uint64_t round = 0; round < 2; ++round) {
    for (uint64_t k = 0; k < 8; ++k) {
      at += 10;
      t.create(0, at, 10 + 8 * round + k, kImplicit, 0x2000,
               format::task_flag::kExplicit | format::task_flag::kUndeferred);
      t.schedule(0, at, kImplicit, Status::kSwitch, 10 + 8 * round + k);
      at += 1000 * (k + 1);
      t.schedule(0, at, 10 + 8 * round + k, Status::kComplete, kImplicit);
    }
    t.sync_span(0, at, at, SyncKind::kTaskwait, 100, kImplicit);
  }
  t.solo_end(at + 10, at + 20);
  TaskDag dag = record(t);
  EXPECT_EQ(sim(dag, 1).wall_ns, at + 20);
  SimResult r = sim(dag, 2);
  EXPECT_EQ(r.steals, 12u);
  EXPECT_EQ(r.wall_ns, 2 * 21010u + 20);
}

// Task X runs 40..140 and its thread is preempted 60..90: X's work is 70 ns, and the one-thread
// simulation of the run is 30 ns shorter than the recording.
TEST(Simulator, PreemptedTimeIsNotWork) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 10, 20, kImplicit);
  uint64_t end = run_in_turn(t, 40, {{20, 100}});
  barrier(t, 40, end);
  t.solo_end(end + 10, end + 20);
  t.preempted(0, 60, 90);
  TaskDag dag = record(t);
  EXPECT_EQ(dag.preempted_ns, 30u);
  EXPECT_EQ(sim(dag, 1).wall_ns, end + 20 - 30);
}

// An implicit task numbered beyond any simulated team (a damaged trace) is left out of its
// region: no region holds more than kMaxWorkers members.
TEST(Simulator, TeamNumbersBeyondTheLimitAreLeftOut) {
  TraceBuilder t;
  t.solo_begin();
  t.implicit_end(0, 10, 2);
  t.implicit_begin(0, 20, 3, 100, 60001, 60000);
  t.implicit_end(0, 30, 3);
  t.parallel_end(0, 40, 100, 1, 0x1000);
  t.implicit_end(0, 50, 1);
  TaskDag dag = record(t);
  ASSERT_FALSE(dag.regions.empty());
  for (const DagRegion& r : dag.regions) EXPECT_LE(r.members.size(), kMaxWorkers);
  EXPECT_FALSE(sim(dag, 2).stalled);
}

// Task T1 (construct 0x2000, created at 10) creates T2 and T3 of the same construct at 20 and 30
// and waits for them (they run 30..130 and 130..230), then works 10 ns more.
TraceBuilder recursive_pair() {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 10, 30, kImplicit);
  t.sync(0, 10, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, kImplicit);
  t.sync_wait(0, 10, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, kImplicit);
  t.schedule(0, 10, kImplicit, Status::kSwitch, 30);
  t.create(0, 20, 31, 30);
  t.create(0, 30, 32, 30);
  t.sync(0, 30, SyncKind::kTaskwait, Endpoint::kBegin, 100, 30);
  t.sync_wait(0, 30, SyncKind::kTaskwait, Endpoint::kBegin, 100, 30);
  t.schedule(0, 30, 30, Status::kSwitch, 32);
  t.schedule(0, 130, 32, Status::kComplete, 30);
  t.schedule(0, 130, 30, Status::kSwitch, 31);
  t.schedule(0, 230, 31, Status::kComplete, 30);
  t.sync_wait(0, 230, SyncKind::kTaskwait, Endpoint::kEnd, 100, 30);
  t.sync(0, 230, SyncKind::kTaskwait, Endpoint::kEnd, 100, 30);
  t.schedule(0, 240, 30, Status::kComplete, kImplicit);
  t.sync_wait(0, 240, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, kImplicit);
  t.sync(0, 240, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, kImplicit);
  t.solo_end(250, 260);
  return t;
}

TEST(Simulator, TheCreationTreeGivesRecursionDepths) {
  TraceBuilder t = recursive_pair();
  TaskDag dag = record(t);
  ASSERT_EQ(dag.constructs.size(), 1u);
  EXPECT_TRUE(dag.constructs[0].recursive);
  EXPECT_EQ(dag.constructs[0].max_depth, 2u);
  EXPECT_EQ(dag.constructs[0].tasks, 3u);
  EXPECT_EQ(sim(dag, 1).wall_ns, 260u);
  // Two workers: worker 0 enters the barrier as it creates T1 and runs T1 itself; worker 1
  // steals T2 at 20 (20..120); worker 0 runs T3 in T1's taskwait (30..130); T1 ends at 140.
  EXPECT_EQ(sim(dag, 2).wall_ns, 160u);
}

// A cut-off at depth 1: T2 and T3 run inline in T1, each 4 ns shorter (the creation cost of the
// construct taken off); one task is left.
TEST(Simulator, ACutOffInlinesTheDeeperTasks) {
  TraceBuilder t = recursive_pair();
  TaskDag dag = record(t);
  SimCosts costs;
  costs.creation_ns = {4};
  costs.schedule_ns = 0;
  SimConfig config;
  config.threads = 1;
  config.cutoff_construct = 0;
  config.cutoff_depth = 1;
  SimResult r = simulate(dag, costs, config);
  EXPECT_EQ(r.inlined, 2u);
  EXPECT_EQ(r.kept, 1u);
  EXPECT_EQ(r.tasks, 1u);
  EXPECT_EQ(r.wall_ns, 252u);
  EXPECT_EQ(r.work_ns, 252u);
}

}  // namespace
}  // namespace tasklens::simulate
