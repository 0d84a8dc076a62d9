// `tasklens diff BEFORE AFTER` on real runs of the examples: fib 14 without and with a cut-off at
// n < 10 (the same two constructs, 609 and 12 instances each), and fib against dep_chain
// (constructs only in one run).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/two_thread_team.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

nlohmann::json diff(const std::string& a, const std::string& b) {
  CommandResult r = run_command({tasklens_bin(), "diff", a, b, "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.out;
  return doc["diff"];
}

TEST(Diff, ACutOffLeavesFewerInstancesOfTheSameConstructs) {
  Recording before = record_run({example("fib"), "14"}, 1);
  Recording after = record_run({example("fib"), "14", "10"}, 1);
  nlohmann::json d = diff(before.dir, after.dir);
  EXPECT_GT(d["run"]["before_ns"].get<uint64_t>(), 0u);
  EXPECT_GT(d["run"]["after_ns"].get<uint64_t>(), 0u);
  EXPECT_TRUE(d["breakdown"]["before"].contains("work_ns"));
  EXPECT_TRUE(d["breakdown"]["after"].contains("overhead_ns"));
  ASSERT_EQ(d["constructs"].size(), 2u);
  for (const nlohmann::json& c : d["constructs"]) {
    EXPECT_NE(c["location"].get<std::string>().find("fib.c:"), std::string::npos);
    EXPECT_EQ(c["before"]["instances"], 609);  // t[14] = 1218 tasks, half per construct
    EXPECT_EQ(c["after"]["instances"], 12);    // below n = 10 fib runs serially: 24 tasks
    EXPECT_TRUE(c["before"]["time_ns"].contains("mean"));
  }
  // Sorted by the largest change in total time.
  auto change = [](const nlohmann::json& c) {
    return std::llabs(c["after"]["time_ns"]["sum"].get<int64_t>() -
                      c["before"]["time_ns"]["sum"].get<int64_t>());
  };
  EXPECT_GE(change(d["constructs"][0]), change(d["constructs"][1]));
}

TEST(Diff, ConstructsOfOneRunOnlyAreNullOnTheOtherSide) {
  Recording before = record_run({example("fib"), "10"}, 1);
  Recording after = record_run({example("dep_chain"), "10", "10"}, 1);
  nlohmann::json d = diff(before.dir, after.dir);
  ASSERT_EQ(d["constructs"].size(), 3u);
  int only_before = 0, only_after = 0;
  for (const nlohmann::json& c : d["constructs"]) {
    only_before += c["after"].is_null();
    only_after += c["before"].is_null();
  }
  EXPECT_EQ(only_before, 2);
  EXPECT_EQ(only_after, 1);
}

// Two hand-made runs of two threads from 0 to 1000 ns on 2 CPUs, the second off their CPUs while
// runnable for 150 of their 2000 ns (7.5 %, above the 5 % of the contention warning): the diff
// says so first, so that the changes are not taken for the program's.
TEST(Diff, ABusyMachineInEitherRunIsSaid) {
  auto run = [](bool loaded) {
    TraceBuilder t;
    analysis::team(t, 5);
    analysis::team_end(t, 990, 1000);
    t.writer().meta()["machine"] = {{"affinity_cpus", 2}, {"online_cpus", 2}};
    if (loaded) t.preempted(0, 100, 200).preempted(1, 300, 350);
    return t.write();
  };
  std::string quiet = run(false), loaded = run(true);
  nlohmann::json d = diff(quiet, loaded);
  EXPECT_TRUE(d["warnings"]["before"].is_null());
  ASSERT_TRUE(d["warnings"]["after"].is_string());
  EXPECT_EQ(d["warnings"]["after"].get<std::string>().rfind("preempted", 0), 0u);
  EXPECT_EQ(d["breakdown"]["after"]["preempted_ns"], 150);
  CommandResult text = run_command({tasklens_bin(), "diff", quiet, loaded});
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("\nwarning: after: preempted"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("warning: before"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace tasklens::testing
