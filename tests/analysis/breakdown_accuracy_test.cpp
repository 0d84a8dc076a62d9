// The breakdown of real runs whose answer is known by construction (timings: these tests run
// alone, RUN_SERIAL in tests/analysis/CMakeLists.txt; under other load the ideal is not what
// happens, so a run during which other processes took the cores is not judged).
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/breakdown_checks.h"
#include "format/experiment.h"
#include "replay/replay.h"
#include "support/machine_contention.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using testing::example;
using testing::printed_value;


double relative_error(double measured, double ideal) {
  return std::fabs(measured - ideal) / ideal;
}

constexpr int kTries = 4;

// A run is disturbed when other processes took more than this share of the machine meanwhile.
constexpr double kDisturbedShare = 0.10;

// Whether other processes competed for the cores during a run that started at `window`.
bool disturbed(const testing::MachineContention& window, const char* what) {
  double others = window.others_share();
  if (others <= kDisturbedShare) return false;
  std::cout << "[ disturbed ] " << what << ": other processes took " << int(others * 100)
            << " % of the machine during the run\n";
  return true;
}

// POT's load-imbalance benchmark (Pereira et al., Sect. 4.2) at a grain of 1 ms: each iteration,
// thread t runs a task of t ms; ideal work g·n(n+1)/2 and idleness g·n(n-1)/2 per iteration.
// The ideal holds only when nothing delays the threads: the tasks time themselves, and a run
// whose tasks took more than 2 % over the ideal was disturbed. Nor does the ideal have the runtime
// release a thread late from a barrier that is complete: libomp sometimes wakes the worker a
// whole task later, iteration after iteration (seen in dumps on a quiet machine), and the
// worker's implicit task, ready all that time, is overhead (POT's definition), not idleness.
// A run with more than 2 % overhead (an undelayed run has about 0.5 %) is such a run. Nor does
// the ideal have a worker that starts late or barriers that release slowly, which make the
// parallel region longer than its ideal n·g per iteration and add idleness: a region more than
// 2 % longer than that is such a run. Up to kImbalanceTries runs are made to get an undelayed
// one, whose work must also match the tasks' own timing.
constexpr int kImbalanceTries = 10;
constexpr double kLateReleaseShare = 0.02;
constexpr double kLongRegionShare = 0.02;
// Other load under kDisturbedShare can still take a thread off its CPU for milliseconds: in a
// task, whose spin still ends on time, work becomes preempted time; in a wait, idleness does. A
// run with more preempted time than this share of the ideal work is disturbed too.
constexpr double kPreemptedShare = 0.01;

TEST(BreakdownEndToEnd, LoadImbalanceMatchesTheIdealWithin5Percent) {
  int busy_runs = 0;  // runs that other processes disturbed
  for (int attempt = 1; attempt <= kImbalanceTries; ++attempt) {
    testing::MachineContention window;
    RecordedBreakdown run = record_and_replay({example("imbalance"), "1000000", "40"});
    bool busy = disturbed(window, "imbalance");
    busy_runs += busy;
    double ideal_work = double(printed_value(run.output, "ideal_work_ns"));
    double ideal_idle = double(printed_value(run.output, "ideal_idle_ns"));
    double self_timed = double(printed_value(run.output, "measured_work_ns"));
    ASSERT_EQ(ideal_work, 1e6 * 3 * 40);  // n = 2: 3 ms of tasks per iteration
    const Breakdown& b = run.breakdown;
    expect_breakdown_invariant(b);
    // Disturbed (the tasks overran, or other programs compete for the cores): try again.
    if (relative_error(self_timed, ideal_work) > 0.02 || busy) continue;
    if (double(b.total.preempted_ns) > kPreemptedShare * ideal_work) {
      std::cout << "[ preempted ] " << double(b.total.preempted_ns) / 1e6
                << " ms off the CPU while runnable: other load; again\n";
      ++busy_runs;
      continue;
    }
    double overhead_share = double(b.total.overhead_ns) / double(b.total.active_ns());
    if (overhead_share > kLateReleaseShare) {
      std::cout << "[ late release ] overhead " << overhead_share * 100
                << " % of the threads' time: the runtime released a thread late; again\n";
      continue;
    }
    double ideal_wall = 2e6 * 40;  // the slowest thread's 2 ms task per iteration
    uint64_t wall = 0;
    for (const RegionBreakdown& r : b.regions) {
      if (r.codeptr) wall += r.wall_ns;
    }
    if (double(wall) > ideal_wall * (1 + kLongRegionShare)) {
      std::cout << "[ long region ] the parallel region took " << double(wall) / 1e6
                << " ms, ideal " << ideal_wall / 1e6 << " ms: a late start or release; again\n";
      continue;
    }
    const std::string shares = ", overhead " + std::to_string(b.total.overhead_ns) +
                               ", preempted " + std::to_string(b.total.preempted_ns);
    EXPECT_LT(relative_error(double(b.total.work_ns), self_timed), 0.05)
        << "work " << b.total.work_ns << ", the tasks timed themselves at " << self_timed << shares;
    EXPECT_LT(relative_error(double(b.total.work_ns), ideal_work), 0.05)
        << "work " << b.total.work_ns << " ideal " << ideal_work << shares;
    EXPECT_LT(relative_error(double(b.total.idle_ns), ideal_idle), 0.05)
        << "idle " << b.total.idle_ns << " ideal " << ideal_idle << shares;
    // A quarter of the time is idle: high idleness. (Overhead is the barrier's release, which
    // on this VM sits near the 10 % threshold, so the verdict is HL or HH.)
    EXPECT_GE(b.idle_share, b.high_threshold);
    EXPECT_TRUE(b.verdict == Verdict::kHL || b.verdict == Verdict::kHH);
    return;
  }
  // Under other load the delays above are load too: no verdict on the runtime.
  if (busy_runs > 0) GTEST_SKIP() << busy_runs << " of the runs were disturbed by other load";
  FAIL() << "no run in " << kImbalanceTries
         << " tries where the tasks kept to their 1 ms grain and the runtime delayed no thread";
}

// A chain of dependent tasks: one task is ready at a time, so one of the two threads is idle
// (not in overhead) for most of the run. Other load makes ready tasks wait for a thread (which
// is overhead), so up to kTries runs are made.
TEST(BreakdownEndToEnd, DependenceChainLeavesOneThreadIdle) {
  double idle_share = 0, overhead_share = 0;
  bool busy = false;
  for (int attempt = 1; attempt <= kTries; ++attempt) {
    testing::MachineContention window;
    RecordedBreakdown run = record_and_replay({example("dep_chain"), "60", "1000"});
    busy = disturbed(window, "dep_chain");
    const Breakdown& b = run.breakdown;
    expect_breakdown_invariant(b);
    double total = double(b.total.active_ns());
    idle_share = double(b.total.idle_ns) / total;
    overhead_share = double(b.total.overhead_ns) / total;
    if (busy) continue;
    if (idle_share > 0.40 && overhead_share < 0.10) {
      EXPECT_EQ(b.verdict, Verdict::kHL);
      return;
    }
  }
  if (busy) GTEST_SKIP() << "every run was disturbed by other load";
  FAIL() << "idleness " << idle_share << " (expected > 0.40), overhead " << overhead_share
         << " (expected < 0.10)";
}

// Which path of a task graph is the longest, and how large tasks are next to their cost, depend
// on the measured times: a thread descheduled during a task counts that time as the task's. Each
// check judges the first of up to kTries runs that was not disturbed; false when all were.
template <class Check>
bool on_an_undisturbed_run(const std::vector<std::string>& program, const char* what,
                           Check check) {
  for (int i = 0; i < kTries; ++i) {
    testing::MachineContention window;
    RecordedBreakdown run = record_and_replay(program);
    if (disturbed(window, what)) continue;
    check(run);
    return true;
  }
  return false;
}

// A chain of 20 dependent tasks of 1 ms fills the critical path: all its tasks, unless the
// creator's strand outran the chain for a moment; and the graph has no parallelism. The path also
// holds the serial code and the runtime's fork of the region (0.3 to 1 ms here), which a chain of
// 20 x 100 us (2 ms) would not outweigh fourfold.
TEST(TaskGraphAccuracy, DependenceChainFillsTheCriticalPath) {
  bool judged = on_an_undisturbed_run({example("dep_chain"), "20", "1000"}, "dep_chain",
                                      [](const RecordedBreakdown& run) {
    const TaskGraph& g = run.graph;
    ASSERT_FALSE(g.critical_path.empty());
    EXPECT_NE(g.critical_path[0].codeptr, 0u);
    EXPECT_GE(g.critical_path[0].tasks, 15u);
    EXPECT_LT(g.parallelism, 2.0) << g.work_ns << " / " << g.span_ns;
    // Issue 14: span >= 0.9 N g and the chain's construct >= 80 % of the path, one run of it
    // chained by depend(inout).
    EXPECT_GE(g.span_ns, 9u * 20 * 1'000'000 / 10);
    EXPECT_GE(g.critical_path[0].ns, g.span_ns * 8 / 10);
    bool chain = false;
    for (const PathRun& r : g.path_runs) {
      chain |= r.codeptr == g.critical_path[0].codeptr && r.chained >= 15 &&
               r.dependence_type == uint8_t(format::DependenceType::kInout);
    }
    EXPECT_TRUE(chain);
  });
  if (!judged) GTEST_SKIP() << "every run competed with other processes for the cores";
}

// fib without a cut-off: tasks far below 20x their cost, ordered by size by n: a cut-off on n.
TEST(TaskGraphAccuracy, FibTasksGetACutOff) {
  bool judged = on_an_undisturbed_run({example("fib"), "20"}, "fib",
                                      [](const RecordedBreakdown& run) {
    const TaskGraph& g = run.graph;
    ASSERT_EQ(g.grains.size(), 2u);
    uint64_t threshold = grain_cost(run.breakdown.total.overhead_ns, g.tasks).threshold_ns;
    for (const TaskGrain& grain : g.grains) {
      GrainAdvice a = advise_grain(grain, threshold);
      EXPECT_GT(a.below, 0.5);
      EXPECT_TRUE(a.cut_off);
      EXPECT_TRUE(a.inline_below);
      EXPECT_GE(a.value, 2);
      EXPECT_LT(a.value, 19);
      // The same from the creation tree alone, no parameter needed: the deep tasks inline.
      EXPECT_TRUE(a.depth_cut_off);
      EXPECT_GE(a.depth, 1);
    }
  });
  if (!judged) GTEST_SKIP() << "every run competed with other processes for the cores";
}

// fib without a cut-off: a task's subtree work grows with its n like fib(n): fib(18) / fib(8) =
// 123. A task's time holds the time off its CPU that the switch records did not see (they start
// 20 ms into a short run): about 3 ms of it inside the n = 8 tasks (about 4 us of subtree each,
// 89 or 144 of them per construct) raises their mean tenfold, as at load 8 (132 us).
TEST(TaskGraphAccuracy, FibSubtreeWorkGrowsWithN) {
  bool judged =
      on_an_undisturbed_run({example("fib"), "20"}, "fib", [](const RecordedBreakdown& run) {
        const TaskGraph& g = run.graph;
        ASSERT_EQ(g.grains.size(), 2u);
        for (const TaskGrain& grain : g.grains) {
          auto mean = [&](int64_t n) {
            const TaskGrain::Values& v = grain.by_value.at(n);
            return double(v.subtree_ns) / double(v.tasks);
          };
          EXPECT_GT(mean(18), 10 * mean(8)) << "preempted " << g.preempted_ns << " ns";
        }
      });
  if (!judged) GTEST_SKIP() << "every run competed with other processes for the cores";
}

// Issue 14 §8: a 4-ary tree of 21,844 tasks of 1 us, no tasklens_param_int: the cut-off comes
// from the creation depth, in 2..5. Measured without tasklens (41 runs, medians): 16-23 ms cut
// off at depth 1-5, 24.5 ms at 6, 30 ms without a cut-off. A task costs about 0.5 us here, so the
// threshold (20x) is about 10 us, and the tasks at depth 5 carry 5 us, those at depth 4 21 us:
// a factor of 2 each side. With 2 us tasks, depth 5's 10.5 us sat within 5 % of the threshold and
// the answer (5 or 6) followed the run's noise.
TEST(TaskGraphAccuracy, TreeGetsADepthCutOffWithoutParameters) {
  bool judged = on_an_undisturbed_run({example("tree"), "7", "4", "1"}, "tree",
                                      [](const RecordedBreakdown& run) {
    const TaskGraph& g = run.graph;
    ASSERT_EQ(g.grains.size(), 1u);
    GrainCost c = grain_cost(run.breakdown.total.overhead_ns, g.tasks);
    uint64_t cost = c.task_cost_ns;
    GrainAdvice a = advise_grain(g.grains[0], c.threshold_ns);
    EXPECT_FALSE(a.cut_off);
    EXPECT_TRUE(a.depth_cut_off);
    EXPECT_GE(a.depth, 2) << cost;
    EXPECT_LE(a.depth, 5) << cost;
  });
  if (!judged) GTEST_SKIP() << "every run competed with other processes for the cores";
}

}  // namespace
}  // namespace tasklens::analysis
