// The task benchmark suite (bench/programs) recorded by the build tree's `tasklens run -n 2` at
// size `tiny`: every program must still verify its result (prints OK), the trace must hold
// exactly the explicit tasks the program says it created (its printed tasks=), each created,
// started and completed once, and `tasklens check` must pass. The programs' own CTest tests
// (label benchprograms) run them without the recorder.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "integration/recorder_runs.h"
#include "integration/trace_facts.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

using format::Kind;

constexpr int kThreads = 2;

struct SuiteCase {
  std::string name;
  // Every task construct of the program has a depend clause.
  bool all_tasks_depend = false;
};

void PrintTo(const SuiteCase& c, std::ostream* os) { *os << c.name; }

const std::vector<SuiteCase>& suite() {
  static const std::vector<SuiteCase> programs = {
      {"fib"},        {"nqueens"},     {"sort"},         {"sparselu_single"},
      {"sparselu_for"}, {"strassen"},  {"health"},       {"uts"},
      {"jacobi_dep", true}, {"sparselu_dep", true}, {"cholesky_dep", true}, {"imbalance"},
  };
  return programs;
}

class SuiteProgram : public ::testing::TestWithParam<SuiteCase> {};

TEST_P(SuiteProgram, TinyRecordedRunVerifiesAndHoldsItsTasks) {
  const SuiteCase& c = GetParam();
  Recorded r = record_run(bench_program(c.name), {"tiny"}, kThreads);
  expect_sound(r, kThreads);
  if (::testing::Test::HasFatalFailure()) return;
  EXPECT_EQ(r.run.out.find("FAILED"), std::string::npos) << r.run.out;
  tasks_as_printed(r, kThreads);
  if (c.all_tasks_depend) {
    // Every task says at creation that dependence records follow, and they do.
    EXPECT_EQ(r.facts.count(Kind::kTaskCreate, 1), r.facts.explicit_created);
    EXPECT_GE(r.facts.dependence_records, r.facts.explicit_created);
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, SuiteProgram, ::testing::ValuesIn(suite()),
                         [](const ::testing::TestParamInfo<SuiteCase>& info) {
                           return info.param.name;
                         });

TEST(SuiteProgram, FibWithoutCutOffHasOneTaskwaitPerTaskPair) {
  Recorded r = record_run(bench_program("fib"), {"tiny"}, kThreads);
  ASSERT_EQ(r.run.status, 0) << r.run.err;
  ASSERT_GT(r.printed("tasks"), 0) << r.run.out;
  EXPECT_EQ(r.facts.count(Kind::kSyncRegion, 1, uint16_t(format::SyncKind::kTaskwait)),
            uint64_t(r.printed("tasks")) / 2);
}

// A program added to bench/programs must be added to the cases above.
TEST(SuiteProgram, EveryProgramOfTheSuiteIsCovered) {
  std::vector<std::string> sources;
  for (const auto& entry :
       std::filesystem::directory_iterator(source_dir() + "/bench/programs")) {
    if (entry.path().extension() == ".c") sources.push_back(entry.path().stem().string());
  }
  std::vector<std::string> covered;
  for (const SuiteCase& c : suite()) covered.push_back(c.name);
  std::sort(sources.begin(), sources.end());
  std::sort(covered.begin(), covered.end());
  EXPECT_EQ(sources, covered);
}

}  // namespace
}  // namespace tasklens::testing
