// The user API (include/tasklens/tasklens.h) end to end: calls made before the OpenMP runtime
// starts do not switch it off, the C++ helper, programs that run without tasklens, and no
// link-time dependency on it.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <stdlib.h>
#include <tasklens/tasklens.h>

#include "integration/profile_run.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;

TEST(ProfileApi, CallsBeforeTheRuntimeStartsDoNotSwitchItOff) {
  ProfileRun run = record_and_report({profile_program("api_early")}, 2);
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_NE(run.program_out.find("threads=2 tasks=10 OK"), std::string::npos) << run.program_out;
  const json& trees = run.report["profile"]["trees"];
  // Before the runtime loaded the recorder: dropped (there was no recording yet).
  EXPECT_EQ(visits_named(trees, "user_region", "before_runtime"), 0u);
  EXPECT_EQ(visits_named(trees, "parameter", "early"), 0u);
  // After it: recorded, on both threads and after the parallel region.
  EXPECT_EQ(visits_named(trees, "user_region", "inside"), 2u);
  EXPECT_EQ(visits_named(trees, "user_region", "after"), 1u);
  for (const json* after : find_nodes(trees, "user_region")) {
    if ((*after)["name"] != "after") continue;
    ASSERT_EQ((*after)["children"].size(), 1u);
    EXPECT_EQ((*after)["children"][0]["label"], "late=7");
  }
  ASSERT_EQ(run.report["tasks"].size(), 1u);
  std::map<int64_t, uint64_t> items = {{0, 4}, {1, 3}, {2, 3}};  // i % 3 for i < 10
  EXPECT_EQ(parameter_split(run.report["tasks"], "item"), items);
  expect_profile_consistent(run.report);
}

TEST(ProfileApi, CppRegionHelperInsideTasks) {
  ProfileRun run = record_and_report({profile_program("api_raii")}, 2);
  ASSERT_TRUE(run.ok) << run.error;
  ASSERT_NE(run.program_out.find(" OK"), std::string::npos) << run.program_out;
  EXPECT_EQ(visits_named(run.report["profile"]["trees"], "user_region", "spawn"), 1u);
  // One "work" region per task, under the task's parameter node i=<i>.
  EXPECT_EQ(visits_named(run.report["profile"]["task_trees"], "user_region", "work"), 20u);
  ASSERT_EQ(run.report["tasks"].size(), 1u);
  std::map<int64_t, uint64_t> each_once;
  for (int i = 0; i < 20; ++i) each_once[i] = 1;
  EXPECT_EQ(parameter_split(run.report["tasks"], "i"), each_once);
  expect_profile_consistent(run.report);
}

// Without tasklens the calls find no recorder and do nothing; even with TASKLENS_OUTPUT set (as
// if recording) but no tool loaded, the programs run and print OK, and nothing is written.
TEST(ProfileApi, ProgramsRunWithoutTasklens) {
  std::string out_dir = scratch_dir("no-tool") + "/would-be-experiment";
  const std::vector<std::vector<std::string>> programs = {{example("nqueens"), "6"},
                                                          {example("fib"), "12"},
                                                          {profile_program("api_early")},
                                                          {profile_program("api_raii")}};
  for (const auto& argv : programs) {
    for (const std::vector<std::string>& env :
         {std::vector<std::string>{"OMP_NUM_THREADS=2"},
          std::vector<std::string>{"OMP_NUM_THREADS=2", "TASKLENS_OUTPUT=" + out_dir}}) {
      CommandResult r = run_command(argv, env);
      EXPECT_EQ(r.status, 0) << argv[0] << ": " << r.err;
      EXPECT_NE(r.out.find(" OK"), std::string::npos) << argv[0] << ": " << r.out;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(out_dir));
}

// The API is header only: binaries that call it need no tasklens symbol or library at link time.
TEST(ProfileApi, NoLinkTimeDependency) {
  for (const std::string& bin : {example("nqueens"), example("fib"), profile_program("api_early"),
                                 profile_program("api_raii")}) {
    CommandResult undefined = run_command({"/usr/bin/nm", "-D", "--undefined-only", bin});
    ASSERT_EQ(undefined.status, 0) << undefined.err;
    EXPECT_EQ(undefined.out.find("tasklens"), std::string::npos) << bin << ":\n" << undefined.out;
    CommandResult dynamic = run_command({"/usr/bin/readelf", "-d", bin});
    ASSERT_EQ(dynamic.status, 0) << dynamic.err;
    EXPECT_EQ(dynamic.out.find("libtasklens"), std::string::npos) << bin;
  }
}

// The header waits for the recorder only when `tasklens run` set it up: TASKLENS_OUTPUT and an
// entry of OMP_TOOL_LIBRARIES whose file name is libtasklens.so (not any name with "tasklens" in
// it, such as the empty tool of bench/, which would make every call retry the lookup).
TEST(ProfileApi, ExpectsTheRecorderOnlyByItsFileName) {
  setenv("TASKLENS_OUTPUT", "/tmp/x", 1);
  unsetenv("OMP_TOOL");
  const std::map<std::string, int> cases = {
      {"/opt/tasklens/lib/libtasklens.so", 1},
      {"libtasklens.so", 1},
      {"/a/libfoo.so:/b/libtasklens.so", 1},
      {"/b/libtasklens.so:/a/libfoo.so", 1},
      {"/b/libtasklens_empty_tool.so", 0},
      {"/b/libtasklens.so.1", 0},
      {"/tasklens/libother.so", 0},
  };
  for (const auto& [libs, expected] : cases) {
    setenv("OMP_TOOL_LIBRARIES", libs.c_str(), 1);
    EXPECT_EQ(tasklens_recorder_expected_(), expected) << libs;
  }
  setenv("OMP_TOOL_LIBRARIES", "/b/libtasklens.so", 1);
  setenv("OMP_TOOL", "disabled", 1);
  EXPECT_EQ(tasklens_recorder_expected_(), 0);
  unsetenv("OMP_TOOL");
  unsetenv("TASKLENS_OUTPUT");
  EXPECT_EQ(tasklens_recorder_expected_(), 0);
  unsetenv("OMP_TOOL_LIBRARIES");
}

}  // namespace
}  // namespace tasklens::testing
