// The profile end to end (issue 5): examples/nqueens and examples/fib recorded by `tasklens run`
// with 2 and 4 threads and read back with `tasklens report --profile --json`. The expected
// counts come from serial recursions here, not from the programs.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "integration/profile_run.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;

// Ways to place queens on rows 0..d-1 of an n x n board, one per row, none attacking another.
long long placements(int n, int d, std::vector<int>& cols) {
  int row = int(cols.size());
  if (row == d) return 1;
  long long total = 0;
  for (int c = 0; c < n; ++c) {
    bool ok = true;
    for (int r = 0; r < row && ok; ++r) {
      ok = cols[size_t(r)] != c && std::abs(cols[size_t(r)] - c) != row - r;
    }
    if (!ok) continue;
    cols.push_back(c);
    total += placements(n, d, cols);
    cols.pop_back();
  }
  return total;
}

// Calls fib(k) of the recursion fib(n) (no cut-off), by k; the root call is not a task.
void fib_calls(int n, bool root, std::map<int64_t, uint64_t>& task_calls, uint64_t& calls) {
  ++calls;
  if (!root) ++task_calls[n];
  if (n < 2) return;
  fib_calls(n - 1, false, task_calls, calls);
  fib_calls(n - 2, false, task_calls, calls);
}

class ProfileExamples : public ::testing::TestWithParam<int> {};

TEST_P(ProfileExamples, NqueensDepthSplitCountsPlacements) {
  const int n = 8;
  ProfileRun run = record_and_report({example("nqueens"), std::to_string(n)}, GetParam());
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_NE(run.program_out.find(" OK"), std::string::npos) << run.program_out;
  const json& r = run.report;
  ASSERT_EQ(r["tasks"].size(), 1u);  // one task construct
  std::map<int64_t, uint64_t> expected;
  uint64_t total = 0;
  for (int d = 0; d < n; ++d) {
    std::vector<int> cols;
    expected[d] = uint64_t(n * placements(n, d, cols));
    total += expected[d];
  }
  // n = 8: 8, 64, 336, 1120, 2752, 4544, 4400, 2496 tasks at depths 0..7.
  EXPECT_EQ(expected[2], 336u);
  EXPECT_EQ(parameter_split(r["tasks"], "depth"), expected);
  EXPECT_EQ(r["tasks"][0]["instances"].get<uint64_t>(), total);
  EXPECT_EQ(total, uint64_t(printed_value(run.program_out, "tasks")));
  // Seed 000 Table II: tied tasks of an 8-deep recursion; a thread holds at most one per depth.
  uint64_t max_active = r["tasks"][0]["max_active_per_thread"].get<uint64_t>();
  EXPECT_GE(max_active, 1u);
  EXPECT_LE(max_active, uint64_t(n));
  expect_profile_consistent(r);
}

TEST_P(ProfileExamples, FibTaskCountIsCallsMinusOne) {
  const int n = 15;
  ProfileRun run = record_and_report({example("fib"), std::to_string(n)}, GetParam());
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_NE(run.program_out.find(" OK"), std::string::npos) << run.program_out;
  const json& r = run.report;
  std::map<int64_t, uint64_t> task_calls;
  uint64_t calls = 0;
  fib_calls(n, true, task_calls, calls);
  ASSERT_EQ(calls, 1973u);  // 2 fib(16) - 1
  uint64_t instances = 0;
  for (const json& task : r["tasks"]) instances += task["instances"].get<uint64_t>();
  EXPECT_EQ(r["tasks"].size(), 2u);  // task shared(x), task shared(y)
  EXPECT_EQ(instances, calls - 1);
  EXPECT_EQ(instances, uint64_t(printed_value(run.program_out, "tasks")));
  // Every task runs one call fib(k) and sets n = k; the root call sets n = 15 in the implicit
  // task, where it is a parameter node of the implicit tree.
  EXPECT_EQ(parameter_split(r["tasks"], "n"), task_calls);
  std::vector<const json*> params = find_nodes(r["profile"]["trees"], "parameter");
  ASSERT_EQ(params.size(), 1u);
  EXPECT_EQ((*params[0])["label"], "n=" + std::to_string(n));
  EXPECT_EQ((*params[0])["metrics"]["visits"], 1);
  // The single's implicit barrier, which libomp reports with a code address in the runtime
  // (__kmp_invoke_microtask: the outlined function tail-calls __kmpc_barrier), carries the
  // single's location, and every thread passes it once.
  std::string single;
  for (const json* w : find_nodes(r["profile"]["trees"], "work")) {
    if ((*w)["work_type"] == "single_executor") single = (*w)["location"].get<std::string>();
  }
  ASSERT_NE(single.find("fib.c:"), std::string::npos) << single;
  uint64_t single_barrier_visits = 0;
  for (const json* b : find_nodes(r["profile"]["trees"], "barrier")) {
    EXPECT_EQ((*b)["label"].get<std::string>().find("__kmp"), std::string::npos) << b->dump();
    if (b->contains("location") && (*b)["location"] == single) {
      single_barrier_visits += (*b)["metrics"]["visits"].get<uint64_t>();
    }
  }
  EXPECT_EQ(single_barrier_visits, uint64_t(GetParam()));
  expect_profile_consistent(r);
}

INSTANTIATE_TEST_SUITE_P(Threads, ProfileExamples, ::testing::Values(2, 4),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return std::to_string(i.param) + "threads";
                         });

}  // namespace
}  // namespace tasklens::testing
