// End to end: examples whose overheads are known by construction, recorded with
// `tasklens run -n 2` and read from `tasklens report --overheads --json`: exact facts (counts,
// the invariant on every example) and the class each example is built to show. The times
// checked against the construction are in overheads_timing_test.cpp.
#include <cmath>
#include <iostream>

#include "integration/overheads_support.h"

namespace tasklens::testing {
namespace {

double ms(uint64_t ns) { return double(ns) / 1e6; }

// skewed_loop: thread 1 gets three times thread 0's iterations. The imbalance the tool finds
// is the difference of the two threads' loop bodies, whatever the machine did to them.
TEST(OverheadsE2E, SkewedLoopImbalanceIsTheWorkDifference) {
  Recorded r = record("skewed_loop", {"2000"});
  expect_overheads_invariant(r.report);
  ASSERT_EQ(r.report["regions"].size(), 1u);
  const auto& loop = construct(r.report["regions"][0], "loop");
  ASSERT_EQ(loop["threads"].size(), 2u);
  double b0 = loop["threads"][0]["body_ns"], b1 = loop["threads"][1]["body_ns"];
  double diff = std::fabs(b1 - b0), imbalance = double(ns(loop, "imbalance"));
  std::cout << "[ overheads ] skewed_loop: loop bodies " << ms(uint64_t(b0)) << " / "
            << ms(uint64_t(b1)) << " ms, difference " << diff / 1e6 << " ms, imbalance "
            << imbalance / 1e6 << " ms\n";
  // The thread that finished first waits for the other at the loop's barrier (a late start is
  // thread management, not imbalance). It can only notice the release late, never early: on a
  // busy machine (tests run in parallel) the waiter may be descheduled when the other arrives.
  // Whatever part of that wait it spent off its CPU while runnable is preempted time, no class.
  EXPECT_GE(imbalance + double(ns(loop, "preempted")), 0.9 * diff);
  EXPECT_LE(imbalance, 1.1 * diff + 5e6);

  CommandResult text = run_command({tasklens_bin(), "report", r.dir, "--overheads"});
  EXPECT_EQ(text.status, 0) << text.err;
  for (const char* part : {"Total runtime (wallclock)", "Parallel coverage", "Amdahl estimate",
                           "Parallel regions sorted by wallclock time", "skewed_loop.c:",
                           "Overheads wrt. each individual parallel region",
                           "Overheads wrt. whole program", "Imbal (%)", "Tasks (%)"}) {
    EXPECT_NE(text.out.find(part), std::string::npos) << part << "\n" << text.out;
  }
}

// The facts of critical and single that do not depend on time (their times: timing test).
TEST(OverheadsE2E, CriticalAndSingleCounts) {
  Recorded critical = record("critical", {"2000"});
  expect_overheads_invariant(critical.report);
  const auto& c = construct(critical.report["regions"][0], "critical");
  EXPECT_EQ(c["timings"]["count"], printed_value(critical.output, "entries"));
  // The time waiting to enter (enterT) is exactly the construct's synchronization, but for the
  // part of it spent off the CPU while runnable (preempted, with any of the bodies').
  uint64_t enter = c["timings"]["enter_ns"];
  EXPECT_LE(ns(c, "synchronization"), enter);
  EXPECT_LE(enter, ns(c, "synchronization") + ns(c, "preempted"));
  if (ns(c, "preempted") == 0) EXPECT_EQ(ns(c, "synchronization"), enter);

  Recorded single = record("single", {"20"});
  expect_overheads_invariant(single.report);
  const auto& s = construct(single.report["regions"][0], "single");
  EXPECT_EQ(s["timings"]["count"], 2);  // each thread passes it once
  uint64_t executor = uint64_t(printed_value(single.output, "executor"));
  EXPECT_GE(uint64_t(s["threads"][executor]["body_ns"]), 20000000u);  // singleBodyT
  // The other thread's single_other begin/end are a few ns apart: no body.
  EXPECT_LT(uint64_t(s["threads"][1 - executor]["body_ns"]), 1000000u);
}

// 10^4 empty parallel regions: fork and join are all there is (thread management).
TEST(OverheadsE2E, EmptyRegionsAreThreadManagement) {
  Recorded r = record("fork_join", {"10000"});
  expect_overheads_invariant(r.report);
  EXPECT_EQ(r.report["instances"], printed_value(r.output, "regions"));
  ASSERT_EQ(r.report["regions"].size(), 1u);
  const auto& region = r.report["regions"][0];
  EXPECT_EQ(region["instances"], 10000);
  EXPECT_EQ(region["max_team"], 2);
  const auto& program = r.report["program"];
  std::cout << "[ overheads ] fork_join 10000: thread management "
            << ms(ns(program, "thread_management")) << " ms of " << ms(program["total_ns"])
            << " ms, work " << ms(ns(program, "work")) << " ms\n";
  EXPECT_EQ(largest_overhead(program), "thread_management");
  EXPECT_GT(ns(program, "thread_management"), ns(program, "work"));
}

// Work + the five classes = accumulated region time, to the ns, on every example.
class OverheadsInvariant : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(OverheadsInvariant, ClassesAddUpToRegionTime) {
  std::vector<std::string> args = GetParam();
  std::string name = args.front();
  args.erase(args.begin());
  Recorded r = record(name, args);
  expect_overheads_invariant(r.report);
  EXPECT_GT(r.report.value("instances", 0), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, OverheadsInvariant,
    ::testing::Values(std::vector<std::string>{"fib", "15"}, std::vector<std::string>{"nqueens", "6"},
                      std::vector<std::string>{"imbalance", "1000", "100"},
                      std::vector<std::string>{"dep_chain", "20", "10"},
                      std::vector<std::string>{"wavefront", "4", "10"},
                      std::vector<std::string>{"untied", "8"},
                      std::vector<std::string>{"taskloop", "1000", "10"},
                      std::vector<std::string>{"taskgroup", "10"},
                      std::vector<std::string>{"skewed_loop", "20"},
                      std::vector<std::string>{"critical", "1000"},
                      std::vector<std::string>{"single", "5"},
                      std::vector<std::string>{"fork_join", "100"},
                      std::vector<std::string>{"detach", "8"},
                      std::vector<std::string>{"cancel", "8"}),
    [](const ::testing::TestParamInfo<std::vector<std::string>>& info) {
      return info.param.front();
    });

}  // namespace
}  // namespace tasklens::testing
