// The scaling analysis behind `tasklens compare`, on overhead results made by hand.
#include "analysis/scaling.h"

#include <gtest/gtest.h>

namespace tasklens::analysis {
namespace {

// A run of `threads` threads that lasted `run_ns`, `parallel_ns` of it in regions whose work and
// imbalance are given; regions named by `keys`.
ScalingRun make_run(const std::string& name, uint32_t threads, uint64_t run_ns,
                    uint64_t parallel_ns, uint64_t work, uint64_t imbalance,
                    const std::vector<std::string>& keys) {
  ScalingRun r;
  r.name = name;
  r.threads = threads;
  Overheads& o = r.overheads;
  o.run_ns = run_ns;
  o.parallel_ns = parallel_ns;
  o.coverage = double(parallel_ns) / double(run_ns);
  o.max_team = threads;
  o.program[Cost::kWork] = work;
  o.program[Cost::kImbalance] = imbalance;
  o.program_total_ns = work + imbalance;
  for (size_t i = 0; i < keys.size(); ++i) {
    RegionOverheads region;
    region.instances = 1;
    region.wall_ns = parallel_ns / keys.size();
    region.total_ns = threads * region.wall_ns;
    region.cost[Cost::kWork] = work / keys.size();
    region.cost[Cost::kImbalance] = region.total_ns - region.cost[Cost::kWork];
    o.regions.push_back(region);
  }
  r.region_keys = keys;
  return r;
}

TEST(Scaling, RunsByThreadsWithSpeedupAndAmdahl) {
  // One thread: 1000 ns, 800 of them in two regions. Four threads: 400 ns, 200 in regions.
  // Two threads: 600 ns, 400 in one region only.
  Scaling s = compute_scaling({make_run("four", 4, 400, 200, 800, 0, {"a.c:1", "a.c:9"}),
                               make_run("one", 1, 1000, 800, 800, 0, {"a.c:1", "a.c:9"}),
                               make_run("two", 2, 600, 400, 800, 0, {"a.c:9"})});
  ASSERT_EQ(s.runs.size(), 3u);
  EXPECT_EQ(s.runs[0].name, "one");
  EXPECT_EQ(s.runs[1].name, "two");
  EXPECT_EQ(s.runs[2].name, "four");
  EXPECT_DOUBLE_EQ(s.runs[0].speedup, 1.0);
  EXPECT_DOUBLE_EQ(s.runs[2].speedup, 2.5);
  EXPECT_DOUBLE_EQ(s.runs[2].efficiency, 2.5 / 4);
  EXPECT_EQ(s.runs[2].total_ns, 1600u);
  EXPECT_EQ(s.runs[2].serial_ns, 800u);  // 4 threads x 200 ns outside the regions
  // Amdahl from the one-thread run: a = 0.8, T_4 = 1000 (0.8 / 4 + 0.2) = 400.
  EXPECT_TRUE(s.amdahl.measured);
  EXPECT_DOUBLE_EQ(s.amdahl.alpha, 0.8);
  EXPECT_EQ(s.runs[2].amdahl_ns, 400u);
  EXPECT_EQ(s.runs[1].amdahl_ns, 600u);
  EXPECT_TRUE(s.notes.empty());

  // Regions matched by key, in the first run's order; a.c:1 did not run with two threads.
  ASSERT_EQ(s.regions.size(), 2u);
  EXPECT_EQ(s.regions[0].key, "a.c:1");
  EXPECT_TRUE(s.regions[0].runs[0].present);
  EXPECT_FALSE(s.regions[0].runs[1].present);
  EXPECT_EQ(s.regions[1].runs[1].cost[Cost::kWork], 800u);
  EXPECT_EQ(s.regions[1].runs[2].total_ns, 400u);
}

TEST(Scaling, SameThreadCountIsNoted) {
  Scaling s = compute_scaling({make_run("x", 2, 100, 50, 60, 40, {}),
                               make_run("y", 2, 120, 50, 60, 40, {})});
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("both ran 2 threads"), std::string::npos) << s.notes[0];
  // No one-thread run: Amdahl is estimated from the work (serial 50 + work 60).
  EXPECT_FALSE(s.amdahl.measured);
  EXPECT_EQ(s.amdahl.t1_ns, 110u);
  EXPECT_EQ(s.runs[0].amdahl_ns, 100u);  // anchored at the smallest run's measured time
}

// Work inflation compares the tasks' own time: a run preempted for a while, or with more serial
// code before its first region, has more graph work but did not do more work.
TEST(Scaling, WorkInflationLeavesPreemptionAndSerialCodeOut) {
  ScalingRun one = make_run("one", 1, 1000, 800, 800, 0, {});
  one.graph.work_ns = 1000;  // 800 of tasks + 200 of serial code
  one.split.work_ns = 760, one.split.overhead_ns = one.split.creation_ns = 40;
  one.split.serial_ns = 200;
  ScalingRun two = make_run("two", 2, 700, 500, 880, 120, {});
  two.graph.work_ns = 1880;  // 880 of tasks + 600 preempted inside them + 400 of serial code
  two.split.work_ns = 830, two.split.overhead_ns = two.split.creation_ns = 50;
  two.split.serial_ns = 400;
  two.split.preempted_ns = 600, two.split.idle_ns = 120;
  Scaling s = compute_scaling({two, one});
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_EQ(s.runs[0].tasks_work_ns, 800u);
  EXPECT_EQ(s.runs[1].tasks_work_ns, 880u);
  EXPECT_DOUBLE_EQ(s.runs[1].work_inflation, 1.1);  // not 1.88, the graph's work's ratio
  EXPECT_EQ(s.runs[1].work_ns, 1880u);              // the graph's work stays as it is
  // 600 of its threads' 2000 ns preempted: said, once, for that run only.
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("two: its threads were preempted for 30 %"), std::string::npos)
      << s.notes[0];
  // The contention warning of a run is noted where the measured preemption is not (a run too
  // short for switch records): "one"'s, not "two"'s, which the note above speaks of already.
  one.contention = "preempted: the kernel's totals";
  two.contention = "preempted: measured";
  s = compute_scaling({two, one});
  ASSERT_EQ(s.notes.size(), 2u);
  EXPECT_EQ(s.notes[0], "one: preempted: the kernel's totals");
  EXPECT_NE(s.notes[1].find("two: its threads were preempted for 30 %"), std::string::npos);
}

}  // namespace
}  // namespace tasklens::analysis
