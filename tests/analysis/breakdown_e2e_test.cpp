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
