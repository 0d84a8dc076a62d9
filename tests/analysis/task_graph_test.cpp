// Work and span of hand-made traces whose longest path is known by construction. Times in ns.
// Each test also says what the span would be if the edge it is about were missed.
#include "analysis/task_graph.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "analysis/task_graph_run.h"
#include "analysis/two_thread_team.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using format::Endpoint;
using testing::DependenceType;
using testing::Status;
using testing::SyncKind;
using testing::TraceBuilder;

// Task 10 writes what task 11 reads (two_thread_team.h): 11 runs after 10 although it was
// created earlier in the creator's strand and another thread was free.
TEST(TaskGraph, ADependenceChainIsOnePath) {
  TraceBuilder t;
  dependence_chain(t);
  TaskGraph g = run(t);
  // Work: I0 30 + 10, I1 5 + 10, the tasks 100 + 100.
  EXPECT_EQ(g.work_ns, 255u);
  // Path: 10 ns of I0 before it creates task 10, task 10 (100), task 11 (100), 10 after the
  // barrier. Without the dependence, 11 would end at 20 + 100 and the span be 130.
  EXPECT_EQ(g.span_ns, 220u);
  EXPECT_EQ(g.tasks, 2u);
  EXPECT_EQ(g.dependence_edges, 1u);
  EXPECT_EQ(g.threads, 2u);
  EXPECT_DOUBLE_EQ(g.parallelism, 255.0 / 220.0);
  EXPECT_EQ(g.bound_ns, 220u);  // max(255 / 2, 220)
  EXPECT_EQ(g.run_ns, 250u);
  // One task construct (0x2000), two tasks of 100 ns.
  ASSERT_EQ(g.grains.size(), 1u);
  EXPECT_EQ(g.grains[0].tasks, 2u);
  EXPECT_EQ(g.grains[0].subtree_ns, 200u);
  EXPECT_EQ(g.grains[0].by_log2[7], 2u);  // 100 ns: [64, 128)
  // The path: I0 before creating task 10 (10), both tasks (200), then I1 after the barrier (10):
  // at 240 thread 0 leaves the barrier before thread 1's task 11 ends (ties go to the lower
  // thread), so only I1 continues from task 11's end.
  ASSERT_EQ(g.critical_path.size(), 2u);
  EXPECT_EQ(g.critical_path[0].codeptr, 0x2000u);
  EXPECT_EQ(g.critical_path[0].ns, 200u);
  EXPECT_EQ(g.critical_path[0].tasks, 2u);
  EXPECT_EQ(g.critical_path[1].codeptr, 0u);
  EXPECT_EQ(g.critical_path[1].ns, 20u);
  EXPECT_EQ(g.critical_path[1].tasks, 2u);
}

// The chain of ADependenceChainIsOnePath with thread 1 off its CPU while runnable from 150 to
// 190, inside task 11 (140..240): those 40 ns are the machine's, left out of the task's strand,
// the work and the span (255 and 220 with them in).
TEST(TaskGraph, PreemptedTimeIsNoTasksWork) {
  TraceBuilder t;
  dependence_chain(t);
  t.preempted(1, 150, 190);
  TaskGraph g = run(t);
  EXPECT_EQ(g.preempted_ns, 40u);
  EXPECT_EQ(g.work_ns, 215u);
  EXPECT_EQ(g.span_ns, 180u);
  ASSERT_EQ(g.grains.size(), 1u);
  EXPECT_EQ(g.grains[0].subtree_ns, 160u);
}

// Thread 0 waits in a taskwait for its child, which thread 1 runs. The same as `taskwait
// depend(in: A)`: the creator's spin from the taskwait's task's creation (20) to its
// taskwait_complete (140) is no work (it was 120 ns of I0's: 275, and a span of 160).
TEST(TaskGraph, ATaskwaitContinuesAfterTheChild) {
  for (auto trace : {taskwait_on_other_thread, taskwait_depend_on_other_thread}) {
    SCOPED_TRACE(trace == taskwait_on_other_thread ? "taskwait" : "taskwait depend");
    TraceBuilder t;
    trace(t);
    TaskGraph g = run(t);
    EXPECT_EQ(g.work_ns, 155u);  // I0 20 + 10 + 10, I1 5 + 10, the child 100
    // Path: I0 to the creation (10), the child (100), I0 after the taskwait (10), after the
    // barrier (10). Without the taskwait's edge I0 would arrive at 30 and the span be 120.
    EXPECT_EQ(g.span_ns, 130u);
    EXPECT_EQ(g.tasks, 1u);
  }
}

// A taskgroup waits for a grandchild that its child created and did not wait for.
TEST(TaskGraph, ATaskgroupContinuesAfterEveryDescendant) {
  TraceBuilder t;
  team(t, 5);
  t.sync(0, 5, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.create(0, 10, 11, kI0);
  t.sync_wait(0, 20, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 11);
  t.create(1, 50, 12, 11);
  t.schedule(1, 60, 11, Status::kComplete, kI1);
  t.schedule(1, 70, kI1, Status::kSwitch, 12).schedule(1, 170, 12, Status::kComplete, kI1);
  t.sync_wait(0, 200, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  t.sync(0, 200, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  arrive(t, 0, 210);
  team_end(t, 220, 240);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 185u);  // I0 20 + 10 + 10, I1 5 + 10, child 30, grandchild 100
  // Path: I0 to the creation (10), the child to its creation of the grandchild (20), the
  // grandchild (100), I0 after the taskgroup (10) and after the barrier (10). Had the taskgroup
  // waited only for the child (ended at 40), the span would be 140.
  EXPECT_EQ(g.span_ns, 150u);
  // The path: I0 10, the child 20, the grandchild 100, I0 10 + 10.
  ASSERT_EQ(g.critical_path.size(), 2u);
  EXPECT_EQ(g.critical_path[0].ns, 120u);
  EXPECT_EQ(g.critical_path[0].tasks, 2u);
  EXPECT_EQ(g.critical_path[1].ns, 30u);
  // The child's subtree is its own 30 ns: the grandchild (100) ended after it.
  ASSERT_EQ(g.grains.size(), 1u);
  EXPECT_EQ(g.grains[0].tasks, 2u);
  EXPECT_EQ(g.grains[0].subtree_ns, 130u);
}

// I0 creates task 10 at 10, opens a taskgroup at 15, creates task 11 in it at 20 and waits for
// it from 30; I0 runs task 11 35..45, thread 1 runs task 10 30..70; the taskgroup ends at 80.
// With `outer`, I0 opened another taskgroup at 5, around all of it.
void task_before_a_taskgroup(TraceBuilder& t, bool outer) {
  team(t, 5);
  if (outer) t.sync(0, 5, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.create(0, 10, 10, kI0);
  t.sync(0, 15, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.create(0, 20, 11, kI0);
  t.sync_wait(0, 30, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.schedule(0, 35, kI0, Status::kSwitch, 11).schedule(0, 45, 11, Status::kComplete, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 10).schedule(1, 70, 10, Status::kComplete, kI1);
  t.sync_wait(0, 80, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  t.sync(0, 80, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
}

// A taskgroup waits only for the tasks created inside it: task 10, created before it opened and
// ending after task 11, is joined by the barrier, not by the taskgroup.
TEST(TaskGraph, ATaskgroupIgnoresTasksCreatedBeforeIt) {
  TraceBuilder t;
  task_before_a_taskgroup(t, false);
  arrive(t, 0, 90);
  team_end(t, 100, 120);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 115u);  // I0 30 + 10 + 10, I1 5 + 10, task 10 40, task 11 10
  // I0 leaves the taskgroup at 30 (its own 30, task 11 ends at 20 + 10), arrives at 40; the
  // barrier joins task 10 (10 + 40 = 50), then 10 more. Had the taskgroup waited for task 10,
  // I0 would arrive at 60 and the span be 70.
  EXPECT_EQ(g.span_ns, 60u);
}

// Nested taskgroups in one task: the inner one waits only for the tasks created inside it, not
// for task 10 of the outer one, which ended before it. I0 runs 100 ns after the inner group.
TEST(TaskGraph, AnInnerTaskgroupIgnoresTheOuterOnesTasks) {
  TraceBuilder t;
  task_before_a_taskgroup(t, true);
  t.sync_wait(0, 180, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.sync_wait(0, 190, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  t.sync(0, 190, SyncKind::kTaskgroup, Endpoint::kEnd, kRegion, kI0);
  arrive(t, 0, 200);
  team_end(t, 210, 230);
  TaskGraph g = run(t);
  // I0's 30 (task 11 ends at 20 + 10), 100 after the inner group, 10 after the outer one (task
  // 10 ended at 10 + 40), 10 after the barrier. Had the inner group waited for task 10 (as
  // it did), its end would be at 50 and the span 170.
  EXPECT_EQ(g.span_ns, 150u);
}

// A child's subtree work counts in its parent when the parent waits for it.
TEST(TaskGraph, SubtreeWorkHoldsTheChildrenWaitedFor) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 11, kI0, 0x2000);
  t.schedule(0, 20, kI0, Status::kSwitch, 11);
  t.user_param(0, 25, "n", 3);
  t.create(0, 30, 12, 11, 0x2400);
  t.sync_span(0, 40, 100, SyncKind::kTaskwait, kRegion, 11);
  t.schedule(1, 50, kI1, Status::kSwitch, 12);
  t.user_param(1, 55, "n", 2);
  t.schedule(1, 90, 12, Status::kComplete, kI1);
  t.schedule(0, 110, 11, Status::kComplete, kI0);
  arrive(t, 0, 120);
  team_end(t, 130, 150);
  TaskGraph g = run(t);
  // Task 11 ran 20..40 and 100..110 (30 ns) and waited for task 12 (40 ns).
  ASSERT_EQ(g.grains.size(), 2u);
  EXPECT_EQ(g.grains[0].codeptr, 0x2000u);
  EXPECT_EQ(g.grains[0].subtree_ns, 70u);
  EXPECT_EQ(g.grains[1].subtree_ns, 40u);
  ASSERT_EQ(g.grains[0].by_value.size(), 1u);
  EXPECT_EQ(g.grains[0].by_value.begin()->first, 3);
  EXPECT_EQ(g.grains[1].by_value.begin()->first, 2);
}

// Two independent tasks run side by side: the span is the longer branch, not the sum.
TEST(TaskGraph, IndependentTasksAreParallelBranches) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0).create(0, 20, 11, kI0);
  arrive(t, 0, 30);
  t.schedule(0, 30, kI0, Status::kSwitch, 10).schedule(0, 130, 10, Status::kComplete, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 11).schedule(1, 80, 11, Status::kComplete, kI1);
  team_end(t, 140, 160);
  TaskGraph g = run(t);
  EXPECT_EQ(g.work_ns, 30u + 15 + 10 + 100 + 50);
  // Path: 10 ns of I0, task 10 (100), 10 after the barrier; task 11 ends at 20 + 50.
  EXPECT_EQ(g.span_ns, 120u);
}

// A chain of N tasks of g ns (each depend(inout: A)), created up front by thread 0 and run in
// order by thread 1: the span is the chain, N g, plus 10 ns of I0 before and after.
TEST(TaskGraph, AChainOfNTasksIsItsLength) {
  constexpr uint64_t N = 50, g = 100;
  TraceBuilder t;
  team(t, 5);
  for (uint64_t i = 0; i < N; ++i) {
    t.create(0, 10 + i, 10 + i, kI0, 0x2000, format::task_flag::kExplicit, true);
    t.deps(0, 10 + i, 10 + i, {{0xA0, DependenceType::kInout}});
  }
  arrive(t, 0, 10 + N);
  for (uint64_t i = 0; i < N; ++i) {
    t.schedule(1, 100 + i * g, kI1, Status::kSwitch, 10 + i);
    t.schedule(1, 100 + (i + 1) * g, 10 + i, Status::kComplete, kI1);
  }
  team_end(t, 100 + N * g, 100 + N * g + 20);
  TaskGraph g_ = run(t);
  EXPECT_EQ(g_.span_ns, N * g + 20);  // without the dependences: 10 + N + g + 10
  EXPECT_EQ(g_.dependence_edges, N - 1);
  EXPECT_EQ(g_.satisfied_edges, 0u);
  // In order: I0 creating the first task, the chain, an implicit task after the barrier.
  ASSERT_EQ(g_.path_runs.size(), 3u);
  EXPECT_EQ(g_.path_runs[0].codeptr, 0u);
  EXPECT_EQ(g_.path_runs[0].ns, 10u);
  EXPECT_EQ(g_.path_runs[0].creates, 1u);
  const PathRun& chain = g_.path_runs[1];
  EXPECT_EQ(chain.codeptr, 0x2000u);
  EXPECT_EQ(chain.kind, PathKind::kWork);
  EXPECT_EQ(chain.via, PathVia::kCreated);
  EXPECT_EQ(chain.ns, N * g);
  EXPECT_EQ(chain.tasks, N);
  EXPECT_EQ(chain.chained, N - 1);
  EXPECT_EQ(chain.dependence_type, uint8_t(DependenceType::kInout));
  EXPECT_EQ(g_.path_runs[2].via, PathVia::kBarrier);
  EXPECT_EQ(g_.path_runs[2].ns, 10u);
  EXPECT_FALSE(g_.creation_bound.found);
  // The explicit tasks on the path, in chain order (the HTML page marks them).
  ASSERT_EQ(g_.path_tasks.size(), N);
  for (uint64_t i = 0; i < N; ++i) EXPECT_EQ(g_.path_tasks[i], 10 + i) << i;
}

// `taskwait depend(in: A)`: libomp reports no taskwait region but a task flagged taskwait that
// never runs and completes (taskwait_complete) once its predecessors have. I0 creates task 10
// (out A) at 10, task 12 at 15 and the taskwait's task 11 (in A) at 20, then runs task 12
// 25..525 while it waits; thread 1 runs task 10 30..530; I0 goes on at 531 for 1,000 ns.
TEST(TaskGraph, ATaskwaitWithDependencesWaitsForThem) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 10, kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, DependenceType::kOut}});
  t.create(0, 15, 12, kI0, 0x3000);
  constexpr uint32_t kTaskwaitTask =
      format::task_flag::kTaskwait | format::task_flag::kUndeferred | format::task_flag::kMergeable;
  t.create(0, 20, 11, kI0, 0x4000, kTaskwaitTask, true);
  t.deps(0, 20, 11, {{0xA0, DependenceType::kIn}});
  t.schedule(0, 25, kI0, Status::kSwitch, 12).schedule(0, 525, 12, Status::kComplete, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 10).schedule(1, 530, 10, Status::kComplete, kI1);
  t.schedule(0, 531, 11, Status::kTaskwaitComplete, 0);
  arrive(t, 0, 1531);
  team_end(t, 1531, 1600);
  TaskGraph g = run(t);
  // I0's 10 ns, task 10 (500), I0's 1,000 after the wait, 10 after the barrier. Without the
  // wait, I0 went on from its own 31 ns (1,041).
  EXPECT_EQ(g.span_ns, 1520u);
  EXPECT_EQ(g.tasks, 2u);
}

// A binary tree of depth D run on one thread: each inner task runs a = 3 ns, creates its two
// children 1 ns apart, waits for them in a taskwait, then runs b = 2 ns; a leaf runs 50 ns.
struct Tree {
  TraceBuilder& t;
  uint64_t now = 0, next_id = 10;
  static constexpr uint64_t a = 3, b = 2, leaf = 50;
  void run(uint64_t id, uint32_t depth, uint32_t max_depth) {
    if (depth == max_depth) {
      now += leaf;
      return;
    }
    now += a;
    uint64_t c1 = next_id++, c2 = next_id++;
    t.create(0, now, c1, id, 0x2000);
    t.create(0, ++now, c2, id, 0x2000);
    ++now;
    t.sync(0, now, SyncKind::kTaskwait, Endpoint::kBegin, kRegion, id);
    t.sync_wait(0, now, SyncKind::kTaskwait, Endpoint::kBegin, kRegion, id);
    for (uint64_t c : {c1, c2}) {
      t.schedule(0, now, id, Status::kSwitch, c);
      run(c, depth + 1, max_depth);
      t.schedule(0, now, c, Status::kComplete, id);
    }
    t.sync_wait(0, now, SyncKind::kTaskwait, Endpoint::kEnd, kRegion, id);
    t.sync(0, now, SyncKind::kTaskwait, Endpoint::kEnd, kRegion, id);
    now += b;
  }
};

TEST(TaskGraph, ABalancedTreeIsItsDepthTimesTheLevelCost) {
  constexpr uint32_t D = 4;
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 9, kI0, 0x2000);
  arrive(t, 0, 11);
  t.schedule(0, 11, kI0, Status::kSwitch, 9);
  Tree tree{t, 11};
  tree.run(9, 0, D);
  t.schedule(0, tree.now, 9, Status::kComplete, kI0);
  team_end(t, tree.now, tree.now + 20);
  TaskGraph g = run(t);
  EXPECT_EQ(g.tasks, 31u);
  // I0 to the root's creation (10), per level a + 1 + b (the second child's creation 1 ns in),
  // a leaf, 10 after the barrier. Had the taskwaits been missed: 10 + a + 1 + ... no b.
  EXPECT_EQ(g.span_ns, 10 + D * (Tree::a + 1 + Tree::b) + Tree::leaf + 10);
  // Creation depth from the creation tree, no parameter: subtree work 905, 449, 221, 107, 50
  // by depth 0..4.
  ASSERT_EQ(g.grains.size(), 1u);
  const TaskGrain& grain = g.grains[0];
  ASSERT_EQ(grain.by_depth.size(), 5u);
  EXPECT_EQ(grain.by_depth.at(0).tasks, 1u);
  EXPECT_EQ(grain.by_depth.at(0).subtree_ns, 905u);
  EXPECT_EQ(grain.by_depth.at(4).tasks, 16u);
  EXPECT_EQ(grain.by_depth.at(4).subtree_ns, 16u * 50);
  EXPECT_EQ(grain.by_depth.at(2).subtree_ns, 4u * 221);
  GrainAdvice a = advise_grain(grain, 300);
  EXPECT_FALSE(a.cut_off);  // no parameter
  EXPECT_TRUE(a.depth_cut_off);
  EXPECT_EQ(a.depth, 2);  // 221 < 300 <= 449
  EXPECT_EQ(a.depth_tasks_inlined, 4u + 8 + 16);
  EXPECT_EQ(a.depth_tasks_kept, 3u);
  EXPECT_FALSE(advise_grain(grain, 10).depth_cut_off);  // nothing small
}

// The same tree created by a task of another construct: depth counts from the construct's
// shallowest tasks, so the cut-off names the same depth.
TEST(TaskGraph, CreationDepthCountsFromTheConstructsFirstLevel) {
  TraceBuilder t;
  team(t, 5);
  t.create(0, 10, 8, kI0, 0x2800);
  arrive(t, 0, 11);
  t.schedule(0, 11, kI0, Status::kSwitch, 8);
  t.create(0, 12, 9, 8, 0x2000);
  t.schedule(0, 13, 8, Status::kSwitch, 9);
  Tree tree{t, 13};
  tree.run(9, 0, 4);
  t.schedule(0, tree.now, 9, Status::kComplete, 8);
  t.schedule(0, tree.now + 1, 8, Status::kComplete, kI0);
  team_end(t, tree.now + 1, tree.now + 20);
  TaskGraph g = run(t);
  ASSERT_EQ(g.grains.size(), 2u);
  EXPECT_EQ(g.grains[0].codeptr, 0x2000u);
  EXPECT_EQ(g.grains[0].min_depth, 1);
  EXPECT_EQ(g.grains[0].by_depth.begin()->first, 0);
  EXPECT_EQ(advise_grain(g.grains[0], 300).depth, 2);
}

// An N x N wavefront: task (i, j) reads its upper and left neighbours' cells and writes its
// own. Created up front, run in row order on thread 1: the span is the antidiagonal, (2N-1) g.
TEST(TaskGraph, AWavefrontIsItsAntidiagonal) {
  constexpr uint64_t N = 8, g = 100;
  TraceBuilder t;
  team(t, 5);
  auto id = [](uint64_t i, uint64_t j) { return 10 + i * N + j; };
  auto cell = [](uint64_t i, uint64_t j) { return 0x10000 + 8 * (i * N + j); };
  for (uint64_t i = 0; i < N; ++i) {
    for (uint64_t j = 0; j < N; ++j) {
      uint64_t when = 10 + i * N + j;
      t.create(0, when, id(i, j), kI0, 0x2000, format::task_flag::kExplicit, true);
      std::vector<std::pair<uint64_t, DependenceType>> deps;
      if (i) deps.push_back({cell(i - 1, j), DependenceType::kIn});
      if (j) deps.push_back({cell(i, j - 1), DependenceType::kIn});
      deps.push_back({cell(i, j), DependenceType::kInout});
      for (size_t k = 0; k < deps.size(); ++k) {
        t.event(0, format::Event{when, format::Kind::kDependence, uint8_t(deps[k].second), 0,
                                 uint32_t(k), id(i, j), deps[k].first, deps.size()});
      }
    }
  }
  arrive(t, 0, 10 + N * N);
  uint64_t now = 200;
  for (uint64_t k = 0; k < N * N; ++k) {
    t.schedule(1, now, kI1, Status::kSwitch, 10 + k);
    now += g;
    t.schedule(1, now, 10 + k, Status::kComplete, kI1);
  }
  team_end(t, now, now + 20);
  TaskGraph gr = run(t);
  EXPECT_EQ(gr.dependence_edges, 2 * N * (N - 1));
  EXPECT_EQ(gr.satisfied_edges, 0u);
  EXPECT_EQ(gr.span_ns, 10 + (2 * N - 1) * g + 10);  // serial execution took N^2 g
}

// Each of N tasks has depend(inout: a, b): N - 1 edges however the two addresses name the
// predecessor. The first half run as soon as they are created, so their successors find them
// completed: those edges are satisfied at creation and still counted once.
TEST(TaskGraph, DependencesOnTwoAddressesCountOncePerPair) {
  constexpr uint64_t N = 100;
  TraceBuilder t;
  team(t, 5);
  uint64_t now = 10;
  for (uint64_t k = 0; k < N; ++k) {
    t.create(0, now, 10 + k, kI0, 0x2000, format::task_flag::kExplicit, true);
    t.deps(0, now, 10 + k, {{0xA0, DependenceType::kInout}, {0xB0, DependenceType::kInout}});
    ++now;
    if (k < N / 2) {
      t.schedule(0, now, kI0, Status::kSwitch, 10 + k);
      now += 5;
      t.schedule(0, now, 10 + k, Status::kComplete, kI0);
      ++now;
    }
  }
  arrive(t, 0, now);
  for (uint64_t k = N / 2; k < N; ++k) {
    t.schedule(1, now, kI1, Status::kSwitch, 10 + k);
    now += 5;
    t.schedule(1, now, 10 + k, Status::kComplete, kI1);
  }
  team_end(t, now, now + 20);
  TaskGraph g = run(t);
  EXPECT_EQ(g.dependence_edges, N - 1);
  // 0 -> 1 ... 49 -> 50: the predecessor had completed when the successor was created.
  EXPECT_EQ(g.satisfied_edges, N / 2);
}

// One thread creates 200 tasks, 10 ns apart, that another runs as they come: the creations
// are the path, and the pass says so.
TEST(TaskGraph, OneCreatorBoundingTheRunIsNamed) {
  constexpr uint64_t N = 200;
  TraceBuilder t;
  team(t, 5);
  for (uint64_t k = 0; k < N; ++k) t.create(0, 10 + 10 * k, 10 + k, kI0);
  uint64_t end_create = 10 + 10 * (N - 1);
  arrive(t, 0, end_create + 1);
  for (uint64_t k = 0; k < N; ++k) {
    t.schedule(1, 12 + 10 * k, kI1, Status::kSwitch, 10 + k);
    t.schedule(1, 17 + 10 * k, 10 + k, Status::kComplete, kI1);
  }
  team_end(t, end_create + 10, end_create + 30);
  TaskGraph g = run(t);
  ASSERT_TRUE(g.creation_bound.found);
  EXPECT_EQ(g.creation_bound.tasks, N);
  EXPECT_EQ(g.creation_bound.ns, 10 * (N - 1));
  EXPECT_EQ(g.path_runs[g.creation_bound.run].codeptr, 0u);
}

// A damaged trace: task 11, member of I0's taskgroup, opens a taskgroup and creates a task under
// I0's id (kI0 created again while it runs). The new task's taskgroup owner is 11 and 11's is
// kI0: following owners from 11's completion went round the two forever (a hang). The new task
// belongs to no taskgroup now; the replay ends and both creations count.
TEST(TaskGraph, ATaskCreatedAgainInsideItsOwnTaskgroupMakesNoOwnerCycle) {
  TraceBuilder t;
  team(t, 5);
  t.sync(0, 5, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, kI0);
  t.create(0, 10, 11, kI0);
  t.schedule(1, 30, kI1, Status::kSwitch, 11);
  t.sync(1, 40, SyncKind::kTaskgroup, Endpoint::kBegin, kRegion, 11);
  t.create(1, 50, kI0, 11);  // I0's id again, 11's taskgroup open
  t.schedule(1, 60, 11, Status::kComplete, kI1);
  t.schedule(1, 70, kI1, Status::kSwitch, kI0).schedule(1, 80, kI0, Status::kComplete, kI1);
  arrive(t, 0, 90);
  team_end(t, 100, 120);
  TaskGraphPass graph;
  ASSERT_TRUE(testing::replay_experiment(t.write(), {&graph}));
  EXPECT_EQ(graph.result().tasks, 2u);
}

}  // namespace
}  // namespace tasklens::analysis
