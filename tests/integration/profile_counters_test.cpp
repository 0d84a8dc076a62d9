// Counters per task (issue 20): `tasklens run --mode profile --counters` attributes perf_event
// deltas to the task constructs. profile_programs/fresh_memory has a construct that touches
// fresh pages and one that only computes: the page faults must be on the first.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "integration/profile_run.h"
#include "support/recording.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

int line_of(const std::string& location) {  // "fresh_memory.c:34" -> 34
  size_t colon = location.rfind(':');
  return colon == std::string::npos ? -1 : std::stoi(location.substr(colon + 1));
}

TEST(ProfileCounters, PageFaultsGoToTheConstructThatTouchesFreshMemory) {
  std::string dir = (fs::temp_directory_path() /
                     ("tasklens-counters-" + std::to_string(getpid())))
                        .string();
  CommandResult run = run_command({tasklens_bin(), "run", "-q", "-n", "2", "--mode", "profile",
                                   "--counters", "page-faults,task-clock,cycles", "-o", dir,
                                   "--force", "--", profile_program("fresh_memory")});
  ASSERT_EQ(run.status, 0) << run.err;
  ASSERT_NE(run.out.find("OK"), std::string::npos) << run.out;
  // cycles needs a PMU: said at most once, and the run goes on without it.
  size_t said = run.err.find("counter cycles");
  if (said != std::string::npos) {
    EXPECT_EQ(run.err.find("counter cycles", said + 1), std::string::npos) << run.err;
  }
  JsonReport rep = report_json(dir, {"--profile"});
  ASSERT_EQ(rep.command.status, 0) << rep.command.err;
  const json& tasks = rep.doc["tasks"];
  ASSERT_EQ(tasks.size(), 2u);
  const json* fresh = &tasks[0];
  const json* compute = &tasks[1];
  // The fresh-memory construct comes first in the source.
  if (line_of((*fresh)["location"]) > line_of((*compute)["location"])) std::swap(fresh, compute);
  for (const json* t : {fresh, compute}) {
    ASSERT_TRUE(t->contains("counters")) << *t;
    ASSERT_TRUE((*t)["counters"].contains("page-faults")) << *t;
    ASSERT_TRUE((*t)["counters"].contains("task-clock")) << *t;
    EXPECT_EQ((*t)["instances"], 16);
  }
  uint64_t f = (*fresh)["counters"]["page-faults"]["sum"].get<uint64_t>();
  uint64_t c = (*compute)["counters"]["page-faults"]["sum"].get<uint64_t>();
  // 16 tasks x 1024 pages, one fault each (the kernel may map a few pages at once: at least
  // 90 % of them), and at least 90 % of all the faults on this construct.
  EXPECT_GE(f, 16u * 1024 * 9 / 10);
  EXPECT_GE(f * 10, (f + c) * 9) << "fresh " << f << ", compute " << c;
  // task-clock runs while the task does: never more than its measured running time (+1 %).
  for (const json* t : {fresh, compute}) {
    uint64_t clock = (*t)["counters"]["task-clock"]["sum"].get<uint64_t>();
    uint64_t time = (*t)["time_ns"]["sum"].get<uint64_t>();
    EXPECT_GT(clock, 0u);
    EXPECT_LE(clock, time + time / 100) << (*t)["location"];
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tasklens::testing
