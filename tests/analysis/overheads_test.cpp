// Golden tests of the overhead analysis (ompP classes + task management): hand-made traces whose
// every nanosecond is classified by hand in the comments, checked exactly.
#include "analysis/overheads.h"

#include <gtest/gtest.h>

#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using format::Kind;
using format::MutexKind;
using format::WorkType;
using testing::DependenceType;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

constexpr uint64_t kRegionCode = 0x1000;


struct Expected {
  uint64_t work, sync, imbalance, limpar, mgmt, tasks;
  uint64_t preempted = 0;
};

void expect_costs(const CostTimes& c, Expected e, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(c[Cost::kWork], e.work);
  EXPECT_EQ(c[Cost::kSynchronization], e.sync);
  EXPECT_EQ(c[Cost::kImbalance], e.imbalance);
  EXPECT_EQ(c[Cost::kLimitedParallelism], e.limpar);
  EXPECT_EQ(c[Cost::kThreadManagement], e.mgmt);
  EXPECT_EQ(c[Cost::kTaskManagement], e.tasks);
  EXPECT_EQ(c[Cost::kPreempted], e.preempted);
}

// Per region: the classes add up to the accumulated time, over constructs and over threads too.
void expect_invariant(const Overheads& o) {
  EXPECT_EQ(o.unaccounted_ns, 0);
  CostTimes outermost;
  for (const auto& r : o.regions) {
    SCOPED_TRACE(r.codeptr);
    EXPECT_EQ(r.cost.total_ns(), r.total_ns);
    CostTimes by_construct, by_thread;
    for (const auto& c : r.constructs) by_construct += c.cost;
    for (const auto& t : r.threads) by_thread += t;
    EXPECT_EQ(by_construct.ns, r.cost.ns);
    EXPECT_EQ(by_thread.ns, r.cost.ns);
    // No construct's execT exceeds the region's accumulated time (nested instances on a thread
    // do not overlap).
    for (const auto& c : r.constructs) EXPECT_LE(c.total().exec_ns, r.total_ns) << int(c.kind);
    if (r.level == 1) outermost += r.cost;
  }
  EXPECT_EQ(o.program.ns, outermost.ns);
  EXPECT_EQ(o.program.total_ns(), o.program_total_ns);
}

// A worksharing construct at 0x4000 of implicit task `task` on thread `th` (region 100): its
// body from `begin` to `end`, then its barrier until `leave`.
void worksharing(TraceBuilder& t, uint32_t th, uint64_t task, WorkType type, uint32_t count,
                 uint64_t begin, uint64_t end, uint64_t leave) {
  t.work(th, begin, type, Endpoint::kBegin, 100, task, count, 0x4000);
  t.work(th, end, type, Endpoint::kEnd, 100, task, 0, 0x4010);
  t.sync_span(th, end, leave, SyncKind::kBarrierImplicit, 100, task, 0x4020);
}

// A taskwait at 0x5000 of `task` on thread `th` (region 100): its begin or its end.
void taskwait(TraceBuilder& t, uint32_t th, uint64_t at, Endpoint ep, uint64_t task) {
  if (ep == Endpoint::kBegin) t.sync(th, at, SyncKind::kTaskwait, ep, 100, task, 0x5000);
  t.sync_wait(th, at, SyncKind::kTaskwait, ep, 100, task, 0x5000);
  if (ep == Endpoint::kEnd) t.sync(th, at, SyncKind::kTaskwait, ep, 100, task, 0x5000);
}

struct TaskRun {
  uint64_t task, start, end;
};

// Thread 1 (implicit task 3 of region 100, begun at 0) passes the single at 0x4000 at `pass`.
void single_other(TraceBuilder& t, uint64_t pass) {
  t.implicit_begin(1, 0, 3, 100, 2, 1);
  t.work(1, pass, WorkType::kSingleOther, Endpoint::kBegin, 100, 3, 1, 0x4000);
  t.work(1, pass, WorkType::kSingleOther, Endpoint::kEnd, 100, 3, 1, 0x4000);
}

// Thread 1 waits in the single's barrier from `arrive` to `leave` and runs these tasks there.
void barrier_tasks(TraceBuilder& t, uint64_t arrive, uint64_t leave,
                   std::initializer_list<TaskRun> tasks) {
  t.sync(1, arrive, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 3, 0x4300);
  t.sync_wait(1, arrive, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 3, 0x4300);
  for (const TaskRun& run : tasks) {
    t.schedule(1, run.start, 3, Status::kSwitch, run.task);
    t.schedule(1, run.end, run.task, Status::kComplete, 3);
  }
  t.sync_wait(1, leave, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 3, 0x4300);
  t.sync(1, leave, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 3, 0x4300);
}

// Replays a hand-made trace through the pass; every golden trace must keep the invariant.
Overheads analyze(TraceBuilder& t) {
  OverheadsPass pass;
  testing::replay_experiment(t.write(), {&pass});
  expect_invariant(pass.result());
  return pass.result();
}

const RegionOverheads& region(const Overheads& o, uint64_t codeptr);

// Replays `t` and checks the classes of threads 0 and 1 in region 100; returns the region.
RegionOverheads check_threads(TraceBuilder& t, Expected thread0, Expected thread1) {
  Overheads o = analyze(t);
  const RegionOverheads& r = region(o, kRegionCode);
  if (r.threads.size() < 2) {
    ADD_FAILURE() << "threads missing";
    return r;
  }
  expect_costs(r.threads[0], thread0, "thread 0");
  expect_costs(r.threads[1], thread1, "thread 1");
  return r;
}

const RegionOverheads& region(const Overheads& o, uint64_t codeptr) {
  for (const auto& r : o.regions) {
    if (r.codeptr == codeptr) return r;
  }
  ADD_FAILURE() << "no region " << codeptr;
  static RegionOverheads none;
  return none;
}

const ConstructOverheads& construct(const RegionOverheads& r, Construct kind, uint64_t codeptr) {
  for (const auto& c : r.constructs) {
    if (c.kind == kind && c.codeptr == codeptr) return c;
  }
  ADD_FAILURE() << "no construct " << construct_name(kind) << " " << codeptr;
  static ConstructOverheads none;
  return none;
}

// Thread 0 (running the initial task 1) forks `region` at `fork` and begins its implicit task
// `task` at `start`.
void fork(TraceBuilder& t, uint64_t region, uint64_t fork, uint64_t start, uint32_t team,
          uint64_t task) {
  if (region == 100) t.initial_task(0, 0, 1);
  t.parallel_begin(0, fork, region, 1);
  t.implicit_begin(0, start, task, region, team, 0);
}

// The end barrier of a parallel region as libomp 14 reports it (barrier_implicit with the
// region's codeptr on the primary thread, none on workers, parallel_data NULL at its end) from
// `arrive` to `leave`, then the end of the implicit task; on thread 0, the join at `join`.
void join(TraceBuilder& t, uint32_t th, uint64_t region, uint64_t task, uint64_t arrive,
          uint64_t leave, uint64_t join = 0) {
  uint64_t code = th == 0 ? kRegionCode : 0;
  t.sync(th, arrive, SyncKind::kBarrierImplicit, Endpoint::kBegin, region, task, code);
  t.sync_wait(th, arrive, SyncKind::kBarrierImplicit, Endpoint::kBegin, region, task, code);
  t.sync_wait(th, leave, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, task, code);
  t.sync(th, leave, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, task, code);
  t.implicit_end(th, leave, task);
  if (th == 0) t.parallel_end(0, join, region, 1);
}

// A static loop where thread 1 works 280 ns and thread 0 100 ns: thread 0 waits 190 ns in the
// loop's barrier for thread 1: 180 ns of imbalance (the difference in work) and 10 ns because
// thread 1 began 10 ns later (thread management); then both wait for the barrier's release
// (10 ns each) and the end barrier's, once both arrived: the runtime's, thread management.
void loop_imbalance(TraceBuilder& t) {
  // thread 0: startup 5 | loop 100 | barrier 200: late start of thread 1 10, imbalance 180,
  //           release 10 (management) | body 2 |
  //           end barrier 8 (both arrived: join) | after its implicit task 5 (join)
  fork(t, 100, 5, 10, 2, 2);
  worksharing(t, 0, 2, WorkType::kLoop, 1000, 10, 110, 310);
  join(t, 0, 100, 2, 312, 320, 325);
  // thread 1: startup 15 | loop 280 | barrier 10 (release) | body 2 | end barrier 13 (join);
  // libomp reports the end of its end barrier when it wakes again (at 400): not in the region.
  t.implicit_begin(1, 20, 3, 100, 2, 1);
  worksharing(t, 1, 3, WorkType::kLoop, 1000, 20, 300, 310);
  join(t, 1, 100, 3, 312, 400);
}

TEST(Overheads, LoopImbalance) {
  TraceBuilder t;
  loop_imbalance(t);

  Overheads o = analyze(t);
  ASSERT_EQ(o.regions.size(), 1u);
  const RegionOverheads& r = o.regions[0];
  EXPECT_EQ(r.instances, 1u);
  EXPECT_EQ(r.wall_ns, 320u);
  EXPECT_EQ(r.total_ns, 640u);
  EXPECT_EQ(r.max_team, 2u);
  expect_costs(r.threads[0], {102, 0, 180, 0, 38, 0}, "thread 0");
  expect_costs(r.threads[1], {282, 0, 0, 0, 38, 0}, "thread 1");
  expect_costs(r.cost, {384, 0, 180, 0, 76, 0}, "region");
  expect_costs(o.program, {384, 0, 180, 0, 76, 0}, "program");

  const ConstructOverheads& loop = construct(r, Construct::kLoop, 0x4000);
  expect_costs(loop.cost, {380, 0, 180, 0, 30, 0}, "loop");
  ASSERT_EQ(loop.threads.size(), 2u);
  EXPECT_EQ(loop.threads[0].count, 1u);
  EXPECT_EQ(loop.threads[0].body_ns, 100u);
  EXPECT_EQ(loop.threads[0].exit_bar_ns, 200u);
  EXPECT_EQ(loop.threads[0].exec_ns, 300u);
  EXPECT_EQ(loop.threads[1].body_ns, 280u);
  EXPECT_EQ(loop.threads[1].exit_bar_ns, 10u);
  EXPECT_EQ(loop.threads[1].exec_ns, 290u);

  const ConstructOverheads& par = r.constructs[0];
  EXPECT_EQ(par.kind, Construct::kParallel);
  ASSERT_EQ(par.threads.size(), 2u);
  EXPECT_EQ(par.threads[0].exec_ns, 320u);
  EXPECT_EQ(par.threads[0].enter_ns, 5u);   // startupT
  EXPECT_EQ(par.threads[0].exit_bar_ns, 0u);
  EXPECT_EQ(par.threads[0].exit_ns, 13u);   // shutdownT: end barrier release + after the task
  EXPECT_EQ(par.threads[0].body_ns, 302u);
  EXPECT_EQ(par.threads[1].enter_ns, 15u);
  EXPECT_EQ(par.threads[1].exit_ns, 13u);
  EXPECT_EQ(par.threads[1].body_ns, 292u);

  EXPECT_EQ(o.instances, 1u);
  EXPECT_EQ(o.parallel_ns, 320u);
  EXPECT_EQ(o.run_ns, 400u);
  EXPECT_DOUBLE_EQ(o.coverage, 320.0 / 400.0);
}

// The loop of LoopImbalance, with each thread off its CPU while runnable for a while
// (off_cpu.bin): thread 0 from 150 to 250, inside its wait in the loop's barrier, thread 1 from
// 100 to 150, inside its loop body. That time is preempted, in no class: the wait keeps 80 ns
// of imbalance (was 180) and thread 1's body 230 ns of work (was 280); the rest is unchanged.
TEST(Overheads, PreemptedTimeIsInNoClass) {
  TraceBuilder t;
  loop_imbalance(t);
  t.preempted(0, 150, 250).preempted(1, 100, 150);

  Overheads o = analyze(t);
  ASSERT_EQ(o.regions.size(), 1u);
  const RegionOverheads& r = o.regions[0];
  expect_costs(r.threads[0], {102, 0, 80, 0, 38, 0, 100}, "thread 0");
  expect_costs(r.threads[1], {232, 0, 0, 0, 38, 0, 50}, "thread 1");
  expect_costs(r.cost, {334, 0, 80, 0, 76, 0, 150}, "region");
  EXPECT_EQ(r.cost.overhead_ns(), 156u);  // the five classes only
  const ConstructOverheads& loop = construct(r, Construct::kLoop, 0x4000);
  expect_costs(loop.cost, {330, 0, 80, 0, 30, 0, 150}, "loop");
  // ompP's timings are the construct's wall-clock times, preempted or not.
  EXPECT_EQ(loop.threads[0].exit_bar_ns, 200u);
  EXPECT_EQ(loop.threads[1].body_ns, 280u);
}

// The loop of LoopImbalance, each thread off its CPU for a while before its implicit task began:
// thread 0 from 6 to 9 of its startup 5..10, thread 1 from 8 to 18 of its 5..20. That time is
// preempted too, not thread management (no event of the thread closes a segment there: the
// startup is counted from the region's begin when the implicit task begins). startupT (enterT)
// stays the wall-clock time.
TEST(Overheads, PreemptedStartupIsInNoClass) {
  TraceBuilder t;
  loop_imbalance(t);
  t.preempted(0, 6, 9).preempted(1, 8, 18);

  RegionOverheads r = check_threads(t, {102, 0, 180, 0, 35, 0, 3}, {282, 0, 0, 0, 28, 0, 10});
  ASSERT_FALSE(r.constructs.empty());
  const ConstructOverheads& par = r.constructs[0];
  expect_costs(par.cost, {4, 0, 0, 0, 33, 0, 13}, "parallel");
  EXPECT_EQ(par.threads[0].enter_ns, 5u);
  EXPECT_EQ(par.threads[1].enter_ns, 15u);
}

// `single` whose executor creates two tasks and waits for them; the other thread runs one of
// them inside the single's barrier (work), waits there with nothing to run (limited
// parallelism) or while a task is ready (task management).
TEST(Overheads, SingleWithTasks) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 2, 2);
  t.work(0, 0, WorkType::kSingleExecutor, Endpoint::kBegin, 100, 2, 1, 0x4000);
  t.create(0, 10, 10, 2);
  t.create(0, 20, 11, 2);
  taskwait(t, 0, 30, Endpoint::kBegin, 2);
  t.schedule(0, 40, 2, Status::kSwitch, 11);
  t.schedule(0, 60, 11, Status::kComplete, 2);
  taskwait(t, 0, 80, Endpoint::kEnd, 2);
  t.work(0, 90, WorkType::kSingleExecutor, Endpoint::kEnd, 100, 2, 1, 0x4010);
  t.sync_span(0, 90, 95, SyncKind::kBarrierImplicit, 100, 2, 0x4300);
  join(t, 0, 100, 2, 95, 100, 102);

  single_other(t, 2);
  barrier_tasks(t, 5, 97, {{10, 15, 75}});
  join(t, 1, 100, 3, 97, 150);

  // thread 0: single body 30+10, task 11 20 | taskwait: task ready 10, waiting for task 10 on
  // thread 1 20 (sync) | single barrier release 5 (management) | end barrier: thread 1 not there
  // 2 (imbalance), join 3 | after its implicit task 2 (join)
  // thread 1: body 5 | single barrier: nothing to run 5+15 (limited parallelism), task 10 ready
  // 5, running task 10 60 (work), release 7 (management) | end barrier 5 (join)
  RegionOverheads r = check_threads(t, {60, 20, 2, 0, 10, 10}, {65, 0, 0, 20, 12, 5});
  EXPECT_EQ(r.total_ns, 204u);

  const ConstructOverheads& single = construct(r, Construct::kSingle, 0x4000);
  expect_costs(single.cost, {40, 0, 0, 20, 12, 5}, "single");
  ASSERT_EQ(single.threads.size(), 2u);
  EXPECT_EQ(single.threads[0].count, 1u);
  EXPECT_EQ(single.threads[0].body_ns, 90u);  // singleBodyT
  EXPECT_EQ(single.threads[0].exit_bar_ns, 5u);
  EXPECT_EQ(single.threads[0].exec_ns, 95u);
  EXPECT_EQ(single.threads[0].task_ns, 20u);
  EXPECT_EQ(single.threads[1].count, 1u);
  EXPECT_EQ(single.threads[1].body_ns, 0u);
  EXPECT_EQ(single.threads[1].exit_bar_ns, 92u);
  EXPECT_EQ(single.threads[1].task_ns, 60u);

  const ConstructOverheads& task = construct(r, Construct::kTask, 0x2000);
  expect_costs(task.cost, {80, 0, 0, 0, 0, 0}, "task");
  EXPECT_EQ(task.total().count, 2u);
  const ConstructOverheads& taskwait = construct(r, Construct::kTaskwait, 0x5000);
  expect_costs(taskwait.cost, {0, 20, 0, 0, 0, 10}, "taskwait");
  // 30 .. 80 less task 11 run inside it (its work, taskT): the taskwait's own 30 = its classes.
  EXPECT_EQ(taskwait.threads[0].exec_ns, 30u);
  EXPECT_EQ(taskwait.threads[0].task_ns, 20u);
}

// Two threads contend for one critical section: the wait to enter is synchronization, the body
// work; ompP's exitT cannot be seen (OMPT reports the release after it happened).
TEST(Overheads, CriticalContention) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 2, 2);
  t.mutex(0, 10, Kind::kMutexAcquire, MutexKind::kCritical, 0x77, 0x6000);
  t.mutex(0, 10, Kind::kMutexAcquired, MutexKind::kCritical, 0x77, 0x6000);
  t.mutex(0, 30, Kind::kMutexReleased, MutexKind::kCritical, 0x77, 0x6010);
  join(t, 0, 100, 2, 31, 45, 46);
  t.implicit_begin(1, 0, 3, 100, 2, 1);
  t.mutex(1, 12, Kind::kMutexAcquire, MutexKind::kCritical, 0x77, 0x6000);
  t.mutex(1, 30, Kind::kMutexAcquired, MutexKind::kCritical, 0x77, 0x6000);
  t.mutex(1, 40, Kind::kMutexReleased, MutexKind::kCritical, 0x77, 0x6010);
  join(t, 1, 100, 3, 41, 60);

  RegionOverheads r = check_threads(t, {31, 0, 10, 0, 5, 0}, {23, 18, 0, 0, 5, 0});
  const ConstructOverheads& critical = construct(r, Construct::kCritical, 0x6000);
  expect_costs(critical.cost, {30, 18, 0, 0, 0, 0}, "critical");
  ASSERT_EQ(critical.threads.size(), 2u);
  EXPECT_EQ(critical.threads[0].count, 1u);
  EXPECT_EQ(critical.threads[0].enter_ns, 0u);
  EXPECT_EQ(critical.threads[0].body_ns, 20u);
  EXPECT_EQ(critical.threads[1].enter_ns, 18u);
  EXPECT_EQ(critical.threads[1].body_ns, 10u);
  EXPECT_EQ(critical.threads[1].exec_ns, 28u);
  EXPECT_EQ(critical.threads[1].exit_ns, 0u);
}

// Two instances of an empty region: a worker that starts late (startup, and the primary thread
// waiting for it in the end barrier: thread management, not imbalance), and libomp's late
// report of the worker's end barrier, which lands inside the next instance and must not count.
TEST(Overheads, ForkJoinThreadManagement) {
  TraceBuilder t;
  fork(t, 100, 0, 2, 2, 2);
  join(t, 0, 100, 2, 3, 13, 14);
  fork(t, 200, 15, 16, 2, 4);
  join(t, 0, 200, 4, 17, 25, 26);

  t.thread_begin(1, 9);
  t.implicit_begin(1, 10, 3, 100, 2, 1);
  join(t, 1, 100, 3, 11, 20);  // the end is late: instance 200 has begun
  t.implicit_begin(1, 21, 5, 200, 2, 1);
  join(t, 1, 200, 5, 22, 40);

  Overheads o = analyze(t);
  ASSERT_EQ(o.regions.size(), 1u);
  const RegionOverheads& r = o.regions[0];
  EXPECT_EQ(r.instances, 2u);
  EXPECT_EQ(r.wall_ns, 25u);
  EXPECT_EQ(r.total_ns, 50u);
  // Instance 100: thread 0 startup 2, body 1, end barrier 8 waiting for thread 1, which began
  // 8 ns later and worked as long (management, no imbalance), 2 release, 1 after.
  // Thread 1: startup 10, body 1, end barrier 3. Instance 200: thread 0 startup 1, body 1,
  // 5 + 3 + 1 management; thread 1 startup 6, body 1, barrier 4.
  expect_costs(r.threads[0], {2, 0, 0, 0, 23, 0}, "thread 0");
  expect_costs(r.threads[1], {2, 0, 0, 0, 23, 0}, "thread 1");
  EXPECT_EQ(r.constructs[0].threads[1].enter_ns, 16u);  // startupT over both instances
  EXPECT_EQ(o.parallel_ns, 25u);
  EXPECT_EQ(o.instances, 2u);
}

// A damaged team size (the fuzzer's: 65,280) or thread number cannot make a team larger than the
// threads the trace has: phantom threads would each get a row of thread management.
TEST(Overheads, TeamSizeBeyondTheThreadsIsDamage) {
  TraceBuilder t;
  fork(t, 100, 0, 2, 65280, 2);
  join(t, 0, 100, 2, 3, 13, 14);
  t.thread_begin(1, 9);
  t.implicit_begin(1, 10, 3, 100, 65280, 60000);
  join(t, 1, 100, 3, 11, 13);

  Overheads o = analyze(t);
  ASSERT_EQ(o.regions.size(), 1u);
  const RegionOverheads& r = o.regions[0];
  EXPECT_EQ(r.max_team, 2u);
  EXPECT_EQ(o.max_team, 2u);
  EXPECT_EQ(r.threads.size(), 2u);
  EXPECT_EQ(r.total_ns, 2 * r.wall_ns);
}

// Tasks run by a thread inside an explicit barrier are work; the time a ready task waits for a
// thread is task management; once everyone arrived, waiting for the task running elsewhere is
// imbalance, and the barrier's release thread management.
TEST(Overheads, TasksInsideBarrierAreWork) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 2, 2);
  t.create(0, 5, 10, 2);
  t.sync_span(0, 10, 40, SyncKind::kBarrierExplicit, 100, 2, 0x3000);
  join(t, 0, 100, 2, 40, 50, 50);
  t.implicit_begin(1, 0, 3, 100, 2, 1);
  t.sync(1, 20, SyncKind::kBarrierExplicit, Endpoint::kBegin, 100, 3, 0x3000);
  t.sync_wait(1, 20, SyncKind::kBarrierExplicit, Endpoint::kBegin, 100, 3, 0x3000);
  t.schedule(1, 22, 3, Status::kSwitch, 10);
  t.schedule(1, 32, 10, Status::kComplete, 3);
  t.sync_wait(1, 40, SyncKind::kBarrierExplicit, Endpoint::kEnd, 100, 3, 0x3000);
  t.sync(1, 40, SyncKind::kBarrierExplicit, Endpoint::kEnd, 100, 3, 0x3000);
  join(t, 1, 100, 3, 40, 70);

  // thread 0: body 10 | barrier: task ready 12, task running on thread 1 10, release 8 |
  // end barrier 10 (join)
  // thread 1: body 20 | barrier: task ready 2, running it 10 (work), release 8 | join 10
  RegionOverheads r = check_threads(t, {10, 0, 10, 0, 18, 12}, {30, 0, 0, 0, 18, 2});
  const ConstructOverheads& barrier = construct(r, Construct::kBarrier, 0x3000);
  expect_costs(barrier.cost, {0, 0, 10, 0, 16, 14}, "barrier");
  EXPECT_EQ(barrier.threads[1].exec_ns, 20u);
  EXPECT_EQ(barrier.threads[1].task_ns, 10u);
  expect_costs(construct(r, Construct::kTask, 0x2000).cost, {10, 0, 0, 0, 0, 0}, "task");
}

// A chain of two dependent tasks made in a single and run by the other thread: while the second
// waits for the first, the idle thread is limited parallelism (the task graph has no more to
// offer); while it runs with nothing left to wait, imbalance.
TEST(Overheads, DependenceChainIsLimitedParallelism) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 2, 2);
  t.work(0, 0, WorkType::kSingleExecutor, Endpoint::kBegin, 100, 2, 1, 0x4000);
  t.create(0, 5, 10, 2, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 5, 10, {{0x100, DependenceType::kInout}});
  t.create(0, 6, 11, 2, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 6, 11, {{0x100, DependenceType::kInout}});
  t.work(0, 10, WorkType::kSingleExecutor, Endpoint::kEnd, 100, 2, 1, 0x4010);
  t.sync_span(0, 10, 55, SyncKind::kBarrierImplicit, 100, 2, 0x4300);
  join(t, 0, 100, 2, 55, 60, 60);
  single_other(t, 1);
  barrier_tasks(t, 2, 55, {{10, 12, 30}, {11, 32, 50}});
  join(t, 1, 100, 3, 55, 70);

  // thread 0: single body 10 | barrier (everyone there at 10): task ready 2 + 2, task 11
  // waiting for task 10 18 (limited parallelism), task 11 running with nothing left 18
  // (imbalance), release 5 | end barrier 5
  // thread 1: body 2 | barrier: before thread 0 arrived, nothing ready 3 (single: limited
  // parallelism), task 10 ready 5 + 2; running 10 and 11 18 + 18; task 11 ready 2 | release 5 |
  // end barrier 5
  check_threads(t, {10, 0, 18, 18, 10, 4}, {38, 0, 0, 3, 10, 9});
}

// `sections` with one section and two threads: the other thread's wait is limited parallelism.
TEST(Overheads, SectionsFewerThanThreads) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 2, 2);
  worksharing(t, 0, 2, WorkType::kSections, 1, 0, 50, 52);
  join(t, 0, 100, 2, 52, 54, 54);
  t.implicit_begin(1, 0, 3, 100, 2, 1);
  worksharing(t, 1, 3, WorkType::kSections, 1, 0, 1, 52);
  join(t, 1, 100, 3, 52, 60);

  RegionOverheads r = check_threads(t, {50, 0, 0, 0, 4, 0}, {1, 0, 0, 49, 4, 0});
  const ConstructOverheads& sections = construct(r, Construct::kSections, 0x4000);
  EXPECT_EQ(sections.sections, 1u);
  EXPECT_EQ(sections.threads[0].body_ns, 50u);  // sectionT
}

// GCC's single (begin only on the executor) as the last statement of a region: its barrier is the
// region's end barrier, where the other thread's wait is still limited parallelism.
TEST(Overheads, GccSingleSharesTheEndBarrier) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 2, 2);
  t.work(0, 0, WorkType::kSingleExecutor, Endpoint::kBegin, 100, 2, 1, 0x4000);
  join(t, 0, 100, 2, 50, 52, 52);
  single_other(t, 1);
  join(t, 1, 100, 3, 2, 60);

  RegionOverheads r = check_threads(t, {50, 0, 0, 0, 2, 0}, {2, 0, 0, 48, 2, 0});
  const ConstructOverheads& single = construct(r, Construct::kSingle, 0x4000);
  EXPECT_EQ(single.threads[0].body_ns, 50u);  // it ends where the executor enters the barrier
  EXPECT_EQ(r.constructs[0].threads[1].exit_bar_ns, 48u);
}

// A region nested in another (a team of one, as libomp runs nested regions by default): the
// inner region has its own classes; the outer one sees the inner time under its nested-parallel
// construct; the program counts the outer region only.
TEST(Overheads, NestedRegion) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 1, 2);
  t.parallel_begin(0, 10, 200, 2, 1, 0x1100);
  t.implicit_begin(0, 12, 3, 200, 1, 0);
  t.implicit_end(0, 20, 3);
  t.parallel_end(0, 21, 200, 2, 0x1100);
  t.implicit_end(0, 30, 2);
  t.parallel_end(0, 31, 100, 1);

  Overheads o = analyze(t);
  const RegionOverheads& inner = region(o, 0x1100);
  EXPECT_EQ(inner.level, 2u);
  EXPECT_EQ(inner.total_ns, 11u);
  expect_costs(inner.cost, {8, 0, 0, 0, 3, 0}, "inner");
  const RegionOverheads& outer = region(o, kRegionCode);
  EXPECT_EQ(outer.level, 1u);
  expect_costs(outer.cost, {27, 0, 0, 0, 4, 0}, "outer");
  const ConstructOverheads& nested = construct(outer, Construct::kNestedParallel, 0x1100);
  expect_costs(nested.cost, {8, 0, 0, 0, 3, 0}, "nested");
  EXPECT_EQ(nested.threads[0].exec_ns, 11u);
  expect_costs(o.program, {27, 0, 0, 0, 4, 0}, "program");
  EXPECT_EQ(o.parallel_ns, 31u);
  EXPECT_EQ(o.instances, 2u);
}

// A trace cut short inside a region: the region ends with the trace, nothing is lost.
TEST(Overheads, TraceEndsInsideRegion) {
  TraceBuilder t;
  fork(t, 100, 0, 4, 2, 2);
  t.mutex(0, 10, Kind::kMutexAcquire, MutexKind::kLock, 0x99, 0x6000);
  t.mutex(0, 20, Kind::kMutexAcquired, MutexKind::kLock, 0x99, 0x6000);
  t.implicit_begin(1, 8, 3, 100, 2, 1);
  t.work(1, 8, WorkType::kLoop, Endpoint::kBegin, 100, 3, 10, 0x4000);
  t.work(1, 30, WorkType::kLoop, Endpoint::kEnd, 100, 3, 0, 0x4010);

  // thread 0: startup 4, body 6, lock wait 10 (sync), holding it 10; thread 1: startup 8, 22
  RegionOverheads r = check_threads(t, {16, 10, 0, 0, 4, 0}, {22, 0, 0, 0, 8, 0});
  EXPECT_EQ(r.wall_ns, 30u);
}

// Nested taskwaits, each with a task run inside it (fib's shape, one thread): the outer
// taskwait's time is its own task's, not that of the task run inside it nor of that task's own
// taskwait. Implicit task 2 creates A (10) and waits; A runs, creates B (11) and waits at the
// same taskwait construct; B runs inside it.
//   0..20  implicit task's body (work 20)        20..25 taskwait of 2, A ready (task mgmt 5)
//   25..40 A (work 15)                           40..45 taskwait of A, B ready (task mgmt 5)
//   45..75 B (work 30)                           75..80 taskwait of A, nothing to run (sync 5)
//   80..90 A (work 10)                           90..100 taskwait of 2, nothing to run (sync 10)
// The taskwait's execT: 2's 80 less 65 on A (A running, A's taskwait) = 15, A's 40 less B's 30 =
// 10: 25, its classes' sum (before: 80 + 40 = 120 of a 100 ns region). taskT: what ran directly
// inside each (A 15 + 10 in 2's, B 30 in A's) = 55.
TEST(Overheads, NestedTaskwaitsDoNotOverlap) {
  TraceBuilder t;
  fork(t, 100, 0, 0, 1, 2);
  t.create(0, 10, 10, 2);
  taskwait(t, 0, 20, Endpoint::kBegin, 2);
  t.schedule(0, 25, 2, Status::kSwitch, 10);
  t.create(0, 30, 11, 10);
  taskwait(t, 0, 40, Endpoint::kBegin, 10);
  t.schedule(0, 45, 10, Status::kSwitch, 11);
  t.schedule(0, 75, 11, Status::kComplete, 10);
  taskwait(t, 0, 80, Endpoint::kEnd, 10);
  t.schedule(0, 90, 10, Status::kComplete, 2);
  taskwait(t, 0, 100, Endpoint::kEnd, 2);
  join(t, 0, 100, 2, 100, 100, 100);

  Overheads o = analyze(t);
  const RegionOverheads& r = region(o, kRegionCode);
  EXPECT_EQ(r.total_ns, 100u);
  expect_costs(r.cost, {75, 15, 0, 0, 0, 10}, "region");
  const ConstructOverheads& taskwait = construct(r, Construct::kTaskwait, 0x5000);
  expect_costs(taskwait.cost, {0, 15, 0, 0, 0, 10}, "taskwait");
  ConstructTimes tw = taskwait.total();
  EXPECT_EQ(tw.count, 2u);
  EXPECT_EQ(tw.exec_ns, 25u);
  EXPECT_EQ(tw.task_ns, 55u);
  const ConstructOverheads& task = construct(r, Construct::kTask, 0x2000);
  expect_costs(task.cost, {55, 0, 0, 0, 0, 0}, "task");
  EXPECT_EQ(task.total().exec_ns, 55u);
  EXPECT_EQ(task.total().count, 2u);
}

}  // namespace
}  // namespace tasklens::analysis
