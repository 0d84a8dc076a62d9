// Profile mode against trace mode on every example (issue 20): each program recorded both ways
// on 2 threads and read back with `tasklens report --profile --json`; per task construct the
// counts, and over the call-path trees the visits of every node kind whose count does not depend
// on the schedule, must be equal. Kinds profile mode does not build (docs/PROFILE-MODE.md,
// Limits) are compared where the program does not use them; examples/critical checks the
// mutex waits.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/recording.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Example {
  std::string name;
  std::vector<std::string> args;
  // False for a taskloop: profile mode names its construct by the runtime's address, not the
  // program's call site (docs/PROFILE-MODE.md, Limits): the counts are compared without names.
  bool same_locations = true;
};

std::vector<std::vector<uint64_t>> unnamed(const std::map<std::string, std::vector<uint64_t>>& m) {
  std::vector<std::vector<uint64_t>> out;
  for (const auto& [location, counts] : m) out.push_back(counts);
  std::sort(out.begin(), out.end());
  return out;
}

std::ostream& operator<<(std::ostream& os, const Example& e) { return os << e.name; }

// Per construct location: created, instances, unfinished, discarded.
std::map<std::string, std::vector<uint64_t>> construct_counts(const json& tasks) {
  std::map<std::string, std::vector<uint64_t>> out;
  for (const json& t : tasks) {
    std::vector<uint64_t>& c = out[t["location"].get<std::string>()];
    if (c.empty()) c.assign(4, 0);
    c[0] += t["created"].get<uint64_t>();
    c[1] += t["instances"].get<uint64_t>();
    c[2] += t["unfinished"].get<uint64_t>();
    c[3] += t["discarded"].get<uint64_t>();
  }
  return out;
}

void add_visits(const json& node, std::map<std::string, uint64_t>& by_kind) {
  by_kind[node["kind"].get<std::string>()] += node["metrics"]["visits"].get<uint64_t>();
  for (const json& c : node["children"]) add_visits(c, by_kind);
}

std::map<std::string, uint64_t> visits_by_kind(const json& profile) {
  std::map<std::string, uint64_t> out;
  for (const char* trees : {"trees", "task_trees"}) {
    for (const json& t : profile[trees]) add_visits(t, out);
  }
  // Depend on the schedule (fragments, yields) or on what profile mode does not build.
  for (const char* k : {"stub", "taskyield", "parameter", "user_region"}) out.erase(k);
  return out;
}

class ProfileModesOnExamples : public ::testing::TestWithParam<Example> {};

TEST_P(ProfileModesOnExamples, CountsEqualTraceMode) {
  const Example& ex = GetParam();
  std::vector<std::string> program = {example(ex.name)};
  program.insert(program.end(), ex.args.begin(), ex.args.end());
  Recording traced = record_run(program, 2);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  std::string dir = (fs::temp_directory_path() / ("tasklens-modes-" + ex.name + "-" +
                                                  std::to_string(getpid())))
                        .string();
  fs::remove_all(dir);
  std::vector<std::string> argv = {tasklens_bin(), "run", "-q", "-n", "2", "--mode", "profile",
                                   "-o", dir, "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  CommandResult prof = run_command(argv);
  ASSERT_EQ(prof.status, 0) << prof.err;

  JsonReport t = report_json(traced.dir, {"--profile"});
  JsonReport p = report_json(dir, {"--profile"});
  ASSERT_FALSE(t.doc.is_discarded()) << t.command.err;
  ASSERT_FALSE(p.doc.is_discarded()) << p.command.err;
  auto tc = construct_counts(t.doc["tasks"]);
  auto pc = construct_counts(p.doc["tasks"]);
  if (ex.same_locations) {
    EXPECT_EQ(pc, tc);
  } else {
    EXPECT_EQ(unnamed(pc), unnamed(tc));
  }
  auto tv = visits_by_kind(t.doc["profile"]);
  EXPECT_GT(tv["parallel"], 0u);  // every example has a parallel region
  if (ex.name == "critical") {
    EXPECT_EQ(tv["mutex_wait"], 2000u);  // 1000 entries of the critical section per thread
  }
  EXPECT_EQ(visits_by_kind(p.doc["profile"]), tv);
  fs::remove_all(traced.dir);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ProfileModesOnExamples,
    ::testing::Values(Example{"fib", {"15"}}, Example{"nqueens", {"6"}},
                      Example{"imbalance", {"1000", "100"}}, Example{"dep_chain", {"20", "10"}},
                      Example{"wavefront", {"4", "10"}}, Example{"untied", {"8"}},
                      Example{"taskloop", {"1000", "10"}, false}, Example{"taskgroup", {"10"}},
                      Example{"skewed_loop", {"20"}}, Example{"critical", {"1000"}},
                      Example{"single", {"5"}}, Example{"fork_join", {"100"}},
                      Example{"detach", {"8"}}, Example{"cancel", {"8"}},
                      Example{"tree", {"4", "4", "1"}}),
    [](const ::testing::TestParamInfo<Example>& i) { return i.param.name; });

}  // namespace
}  // namespace tasklens::testing
