// A task begun in a barrier names its children's construct by their own line, in both modes and
// with both compilers: programs/barrier_tasks.c, whose 20 parents mostly run in the closing
// barrier of their region on the thread that did not create them. Before, a GCC build reported
// all 20 children at the `parallel` line (libomp 14's GOMP entry points hand the barrier's return
// address to the first creation of a task begun there: runtime_call_site.h, BarrierSite).
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/recording.h"

namespace tasklens::testing {
namespace {

std::string program(const std::string& name) {
  return std::string(TASKLENS_TEST_PROGRAMS_DIR) + "/" + name;
}

// Created tasks per construct location of a recording's `tasks` section.
std::map<std::string, uint64_t> created_by_location(const Recording& r) {
  std::map<std::string, uint64_t> out;
  JsonReport rep = report_json(r.dir, {"--profile"});
  EXPECT_EQ(rep.command.status, 0) << rep.command.err;
  if (rep.doc.is_discarded()) return out;
  for (const nlohmann::json& t : rep.doc["tasks"]) {
    out[t["location"].get<std::string>()] += t["created"].get<uint64_t>();
  }
  return out;
}

void expect_parents_and_children(const std::string& binary) {
  if (access(binary.c_str(), X_OK) != 0) GTEST_SKIP() << binary << " was not built (no gcc)";
  // The lines of programs/barrier_tasks.c's two task constructs; the `parallel` is line 18.
  const std::map<std::string, uint64_t> want = {{"barrier_tasks.c:23", 20},
                                                {"barrier_tasks.c:25", 20}};
  Recording traced = record_run({binary, "20"}, 2);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  EXPECT_EQ(created_by_location(traced), want) << "trace mode";
  Recording prof = record_profile({binary, "20"}, 2);
  ASSERT_EQ(prof.run.status, 0) << prof.run.err;
  EXPECT_EQ(created_by_location(prof), want) << "profile mode";
}

TEST(CallSites, TasksBegunInABarrierNameTheirChildrenByTheirLineClang) {
  expect_parents_and_children(program("barrier_tasks"));
}

TEST(CallSites, TasksBegunInABarrierNameTheirChildrenByTheirLineGcc) {
  expect_parents_and_children(program("gcc/barrier_tasks"));
}

}  // namespace
}  // namespace tasklens::testing
