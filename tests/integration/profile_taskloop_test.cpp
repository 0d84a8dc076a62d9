// Taskloops keep their own identity: libomp 14 gives every taskloop (its work events, its tasks,
// and the tasks its splitting tasks make) one code address inside the runtime; the recorder and
// the replay put the program's call site back (docs/FORMAT.md, "Code addresses").
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <string>

#include "integration/profile_run.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

// "two_taskloops.c:N", N the line of the source holding `marker`.
std::string location_of(const std::string& marker) {
  std::ifstream in(source_dir() + "/tests/integration/profile_programs/two_taskloops.c");
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find(marker) != std::string::npos) return "two_taskloops.c:" + std::to_string(n);
  }
  return "(marker " + marker + " not found)";
}

class TwoTaskloops : public ::testing::TestWithParam<int> {};

TEST_P(TwoTaskloops, AreTwoConstructsAtTheirOwnLines) {
  ProfileRun run = record_and_report({profile_program("two_taskloops")}, GetParam());
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_NE(run.program_out.find("OK"), std::string::npos) << run.program_out;
  const nlohmann::json& tasks = run.report["tasks"];
  ASSERT_EQ(tasks.size(), 2u) << tasks.dump(1);
  std::map<std::string, uint64_t> instances;
  for (const auto& t : tasks) instances[t["location"].get<std::string>()] = t["instances"];
  std::string heavy = location_of("TASKLOOP_HEAVY"), light = location_of("TASKLOOP_LIGHT");
  ASSERT_EQ(instances.count(heavy), 1u) << tasks.dump(1);
  ASSERT_EQ(instances.count(light), 1u) << tasks.dump(1);
  // One task per iteration (grainsize 1), plus the tasks libomp makes to split a large taskloop
  // (more than 10 tasks per thread) between threads.
  EXPECT_GE(instances[heavy], 40u);
  EXPECT_GE(instances[light], 20u);
  EXPECT_LE(instances[light], 21u);
  // The taskloop constructs in the implicit task's tree carry the same two locations.
  std::set<std::string> work;
  for (const nlohmann::json* n : find_nodes(run.report["profile"]["trees"], "work")) {
    if ((*n)["work_type"] == "taskloop") work.insert((*n)["location"].get<std::string>());
  }
  EXPECT_EQ(work, (std::set<std::string>{heavy, light}));
  // A taskloop is no worksharing construct: the single that holds both keeps them, with their
  // taskgroups, until its own end (the replay once ended it at the first taskloop's begin, and
  // the single's and a taskgroup's ends then found nothing open).
  EXPECT_EQ(run.report["profile"]["unmatched_ends"], 0) << run.report["profile"].dump(1);
  std::set<std::string> in_single;
  for (const nlohmann::json* single : find_nodes(run.report["profile"]["trees"], "work")) {
    if ((*single)["work_type"] != "single_executor") continue;
    for (const nlohmann::json* n : find_nodes((*single)["children"], "work")) {
      if ((*n)["work_type"] == "taskloop") in_single.insert((*n)["location"].get<std::string>());
    }
  }
  EXPECT_EQ(in_single, (std::set<std::string>{heavy, light}));
  expect_profile_consistent(run.report);
}

INSTANTIATE_TEST_SUITE_P(Threads, TwoTaskloops, ::testing::Values(2, 4));

}  // namespace
}  // namespace tasklens::testing
