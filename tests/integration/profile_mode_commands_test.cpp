// The commands that set runs side by side, given a profile-mode experiment (which has no event
// streams): `diff` reads its profile.json and leaves out only the critical path; `compare` and
// `report --what-if-also`, which need every run's events, refuse it by name. Before, each replayed
// its (absent) streams and printed a run in which nothing happened as figures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/recording.h"

namespace tasklens::testing {
namespace {

const char kNeedsTrace[] = "a profile-mode experiment needs a trace: run without --mode profile";

TEST(ProfileModeCommands, DiffGivesAllButTheCriticalPath) {
  const std::vector<std::string> fib = {example("fib"), "14"};
  Recording traced = record_run(fib, 2);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  Recording prof = record_profile(fib, 2);
  ASSERT_EQ(prof.run.status, 0) << prof.run.err;

  CommandResult r = run_command({tasklens_bin(), "diff", traced.dir, prof.dir, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json d = nlohmann::json::parse(r.out)["diff"];
  EXPECT_GT(d["critical_path"]["before_ns"].get<uint64_t>(), 0u);
  EXPECT_TRUE(d["critical_path"]["after_ns"].is_null());
  // The profile-mode run's own breakdown and constructs, not a run of nothing.
  EXPECT_GT(d["breakdown"]["after"]["work_ns"].get<uint64_t>(), 0u);
  EXPECT_GT(d["run"]["after_ns"].get<uint64_t>(), 0u);
  ASSERT_EQ(d["constructs"].size(), 2u);
  for (const nlohmann::json& c : d["constructs"]) {
    EXPECT_EQ(c["before"]["instances"], 609) << c;  // t[14] = 1218 tasks, half per construct
    EXPECT_EQ(c["after"]["instances"], 609) << c;
  }

  CommandResult text = run_command({tasklens_bin(), "diff", prof.dir, traced.dir});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("(profile mode: no task graph)"), std::string::npos) << text.out;
}

TEST(ProfileModeCommands, CompareAndWhatIfAlsoRefuseItByName) {
  const std::vector<std::string> fib = {example("fib"), "12"};
  Recording traced = record_run(fib, 1);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  Recording prof = record_profile(fib, 2);
  ASSERT_EQ(prof.run.status, 0) << prof.run.err;

  CommandResult compare = run_command({tasklens_bin(), "compare", traced.dir, prof.dir});
  EXPECT_EQ(compare.status, 2) << compare.out;
  EXPECT_NE(compare.err.find(prof.dir + ": " + kNeedsTrace), std::string::npos) << compare.err;

  JsonReport what_if =
      report_json(traced.dir, {"--what-if", "--what-if-threads", "1,2", "--what-if-also", prof.dir});
  ASSERT_EQ(what_if.command.status, 0) << what_if.command.err;
  const nlohmann::json& errors = what_if.doc["what_if"]["recording_errors"];
  ASSERT_EQ(errors.size(), 1u) << what_if.doc["what_if"];
  EXPECT_EQ(errors[0], prof.dir + ": " + kNeedsTrace);
}

}  // namespace
}  // namespace tasklens::testing
