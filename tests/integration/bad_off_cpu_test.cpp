// A damaged off_cpu.bin (the recorder's context-switch records): a record of a thread index no
// recording can have sized the per-thread intervals by it, and `report` died of bad_alloc (a
// thread 0xfffffff0: 4 G entries). Such records are left out, `check` says so, every reader goes
// on with the rest (docs/ROBUSTNESS.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/two_thread_team.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

TEST(BadOffCpu, ARecordOfAnImpossibleThreadIsLeftOut) {
  TraceBuilder t;
  analysis::team(t, 5);
  analysis::team_end(t, 990, 1000);
  t.preempted(0, 100, 200).preempted(0xfffffff0u, 300, 400);
  std::string dir = t.write();

  CommandResult check = run_command({tasklens_bin(), "check", dir});
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_NE(check.out.find("  damaged: off_cpu.bin: 2 switch records of threads no recording "
                           "has, left out\n"),
            std::string::npos)
      << check.out;

  CommandResult report = run_command({tasklens_bin(), "report", dir, "--all", "--json"});
  ASSERT_EQ(report.status, 0) << report.err;
  nlohmann::json j = nlohmann::json::parse(report.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["breakdown"]["preempted_ns"], 100);  // thread 0's, the valid one
  EXPECT_EQ(j["graph"]["preempted_ns"], 100);
  for (const char* to : {"paraver", "perfetto", "otf2"}) {
    CommandResult e = run_command(
        {tasklens_bin(), "export", dir, "--to", to, "-q", "-o", scratch_dir("exp") + "/t"});
    EXPECT_EQ(e.status, 0) << to << ": " << e.err;
  }
}

}  // namespace
}  // namespace tasklens::testing
