// The breakdown of real runs: examples recorded with `tasklens run -n 2`, replayed, and checked
// against what they are built to show, and the invariant on every one of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/breakdown_checks.h"
#include "format/experiment.h"
#include "replay/replay.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using testing::example;
using testing::printed_value;



// Fine-grained fib without cut-off: tasks far smaller than their management cost.
TEST(BreakdownEndToEnd, FineGrainedFibIsOverheadDominated) {
  RecordedBreakdown run = record_and_replay({example("fib"), "22"});
  const Breakdown& b = run.breakdown;
  EXPECT_GT(b.overhead_share, 0.10);
  EXPECT_TRUE(b.verdict == Verdict::kLH || b.verdict == Verdict::kHH);
  expect_breakdown_invariant(b);
}

// The task graph of real runs: facts of the graph's structure, which hold on any machine. What
// depends on the measured times (which path is longest, how large tasks are next to their cost)
// is in breakdown_accuracy_test.cpp, which runs alone.
// A chain of 20 dependent tasks of 100 us.
TEST(TaskGraphEndToEnd, DependenceChainIsAPathOfTheGraph) {
  RecordedBreakdown run = record_and_replay({example("dep_chain"), "20", "100"});
  ASSERT_NE(run.output.find(" OK"), std::string::npos) << run.output;
  const TaskGraph& g = run.graph;
  EXPECT_EQ(g.tasks, 20u);
  EXPECT_EQ(g.dependence_edges, 19u);  // distinct pairs, however many finished first
  // The chain is a path of the graph, so the longest one is at least as long.
  EXPECT_GE(g.span_ns, 20u * 100'000);  // each task busy-waits at least its grain
  uint64_t path_ns = 0;
  for (const PathShare& share : g.critical_path) {
    path_ns += share.ns;
    if (share.codeptr) {
      EXPECT_LE(share.tasks, 20u);
      EXPECT_GE(share.ns, share.tasks * 100'000);
    }
  }
  EXPECT_EQ(path_ns, g.span_ns);
}

// A 6 x 6 wavefront of 100 us blocks: the longest dependence path crosses 2*6-1 = 11 blocks.
TEST(TaskGraphEndToEnd, WavefrontSpanIsItsLongestAntidiagonalPath) {
  RecordedBreakdown run = record_and_replay({example("wavefront"), "6", "100"});
  ASSERT_NE(run.output.find(" OK"), std::string::npos) << run.output;
  const TaskGraph& g = run.graph;
  EXPECT_EQ(g.tasks, 36u);
  EXPECT_GE(g.span_ns, 11u * 100'000);
  EXPECT_GE(g.work_ns, 36u * 100'000);
  // A path crosses at most 11 blocks (each step goes one row down or one column right), each
  // with at least its grain. It may cross fewer: creating a task with dependences takes libomp
  // 10-60 us here, so the creator's strand may start the critical path.
  uint64_t blocks = 0, block_ns = 0;
  for (const PathShare& share : g.critical_path) {
    if (share.codeptr) blocks += share.tasks, block_ns += share.ns;
  }
  EXPECT_LE(blocks, 11u);
  EXPECT_GE(block_ns, blocks * 100'000);
}

// fib without a cut-off: each task's parameter n is recorded, every task of both constructs has
// one. (That the subtree work grows with n is TaskGraphAccuracy.FibSubtreeWorkGrowsWithN: it
// depends on the run not being preempted.)
TEST(TaskGraphEndToEnd, FibTasksCarryTheirParameter) {
  RecordedBreakdown run = record_and_replay({example("fib"), "20"});
  const TaskGraph& g = run.graph;
  ASSERT_EQ(g.grains.size(), 2u);  // task shared(x), task shared(y)
  uint64_t tasks = 0;
  for (const TaskGrain& grain : g.grains) {
    tasks += grain.tasks;
    ASSERT_NE(grain.param, 0u);
    uint64_t valued = 0;
    for (const auto& [n, v] : grain.by_value) valued += v.tasks;
    EXPECT_EQ(valued, grain.tasks);                        // every task set n
    EXPECT_EQ(grain.by_value.size(), 19u) << grain.param;  // n = 1..19 (x) or 0..18 (y)
  }
  EXPECT_EQ(tasks, g.tasks);
}

// A 4-ary tree of 7 levels, one task construct, no tasklens_param_int: the creation tree gives
// each task's depth, W^(d+1) tasks at depth d.
TEST(TaskGraphEndToEnd, TreeDepthsComeFromTheCreationTree) {
  RecordedBreakdown run = record_and_replay({example("tree"), "7", "4", "2"});
  ASSERT_NE(run.output.find(" OK"), std::string::npos) << run.output;
  const TaskGraph& g = run.graph;
  EXPECT_EQ(g.tasks, 21844u);
  ASSERT_EQ(g.grains.size(), 1u);
  EXPECT_EQ(g.grains[0].param, 0u);
  ASSERT_EQ(g.grains[0].by_depth.size(), 7u);
  uint64_t level = 1;
  for (const auto& [depth, v] : g.grains[0].by_depth) {
    level *= 4;
    EXPECT_EQ(v.tasks, level) << depth;
  }
}

// POT's load-imbalance benchmark: one task created per thread between two barriers, never two in
// a row, so the estimate comes from the isolated creations; each claims at most the estimate, a
// small fraction of its 16 us task, and the graph and the ompP classes claim the same.
TEST(CreationEndToEnd, ImbalanceCreationsAreIsolatedAndClaimAtMostTheEstimate) {
  RecordedBreakdown run = record_and_replay({example("imbalance"), "16384", "200"});
  ASSERT_NE(run.output.find(" OK"), std::string::npos) << run.output;
  const Breakdown& b = run.breakdown;
  EXPECT_EQ(b.creation.method, CreationCost::Method::kIsolated);
  EXPECT_EQ(b.creation.samples, 2u * 200);  // every creation has an event before and after it
  EXPECT_GT(b.creation.ns, 0u);
  EXPECT_LT(b.creation.ns, 16384u / 4);
  EXPECT_GT(b.total.creation_ns, 0u);
  EXPECT_LE(b.total.creation_ns, 2 * 200 * b.creation.ns);
  EXPECT_LE(run.graph.creation_ns, 2 * 200 * b.creation.ns);
  EXPECT_LE(b.total.creation_ns, run.graph.creation_ns);
}

// The invariant (work + overhead + idleness = the time each thread existed, per thread, per
// region and per slice) on every example.
class EveryExample : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(EveryExample, BreakdownSumsToThreadTime) {
  std::vector<std::string> program = GetParam();
  program[0] = example(program[0]);
  for (int threads : {2, 4}) {
    RecordedBreakdown run = record_and_replay(program, threads);
    // skewed_loop and detach ask for their own team size.
    EXPECT_GE(run.breakdown.threads.size(), 1u) << program[0];
    EXPECT_LE(run.breakdown.threads.size(), size_t(threads)) << program[0];
    expect_breakdown_invariant(run.breakdown);
    // The task graph's work is the time the breakdown saw task bodies run (its work, and the
    // serial and preempted time of running tasks) less the forks' runtime time and the preempted
    // time; its longest path is part of the work plus the runtime's time on it.
    EXPECT_EQ(run.graph.work_ns + run.graph.runtime_ns + run.graph.preempted_ns,
              run.breakdown.task_body_ns)
        << program[0];
    EXPECT_LE(run.breakdown.total.work_ns, run.breakdown.task_body_ns) << program[0];
    EXPECT_GT(run.graph.span_ns, 0u) << program[0];
    EXPECT_LE(run.graph.span_ns, run.graph.work_ns + run.graph.path_runtime_ns) << program[0];
    // Task creation claimed in the breakdown is overhead, and the graph claims it wherever the
    // creator ran (also in serial code or preempted): at least as much.
    EXPECT_LE(run.breakdown.total.creation_ns, run.breakdown.total.overhead_ns) << program[0];
    EXPECT_LE(run.breakdown.total.creation_ns, run.graph.creation_ns) << program[0];
    EXPECT_LE(run.graph.creation_ns, run.graph.runtime_ns) << program[0];
    EXPECT_LE(run.graph.creation_ns, run.graph.tasks * run.breakdown.creation.ns) << program[0];
    // Every dependence edge is a distinct pair: dep_chain's tasks make N - 1 of them.
    if (program[0].find("dep_chain") != std::string::npos) {
      EXPECT_EQ(run.graph.dependence_edges, 19u) << threads;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Examples, EveryExample,
    ::testing::Values(std::vector<std::string>{"fib", "18"},
                      std::vector<std::string>{"nqueens", "6"},
                      std::vector<std::string>{"imbalance", "20000", "50"},
                      std::vector<std::string>{"dep_chain", "20", "100"},
                      std::vector<std::string>{"wavefront", "6", "50"},
                      std::vector<std::string>{"untied", "16"},
                      std::vector<std::string>{"taskloop", "2000", "100"},
                      std::vector<std::string>{"taskgroup", "20"},
                      std::vector<std::string>{"skewed_loop", "100"},
                      std::vector<std::string>{"critical", "1000"},
                      std::vector<std::string>{"single", "5"},
                      std::vector<std::string>{"fork_join", "200"},
                      std::vector<std::string>{"detach", "16"},
                      std::vector<std::string>{"cancel", "32"}),
    [](const auto& info) { return info.param[0]; });

}  // namespace
}  // namespace tasklens::analysis
