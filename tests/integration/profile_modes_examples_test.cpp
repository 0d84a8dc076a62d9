// Profile mode against trace mode on every example (issue 20): each program recorded both ways
// on 2 threads and read back with `tasklens report --profile --json`; per task construct the
// counts, over the call-path trees the visits of every node kind whose count does not depend
// on the schedule, and the visits of each user region and parameter value, must be equal.
// examples/critical checks the mutex waits, examples/fib and nqueens (tasklens_param_int in
// every task) and profile_programs/api_raii (user regions too) the user API's nodes, with the
// counts the programs make.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "integration/profile_run.h"
#include "support/recording.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Example {
  std::string name;
  std::vector<std::string> args;
  bool test_program = false;  // from tests/integration/profile_programs, not examples/
};

std::ostream& operator<<(std::ostream& os, const Example& e) {
  return os << e.name;
}

// The name without its folder's slash ("gcc/fib": gcc_fib), for test and directory names.
std::string flat_name(const Example& e) {
  std::string s = e.name;
  std::replace(s.begin(), s.end(), '/', '_');
  return s;
}

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

// Visits per path of nodes from a tree's root ("kind location/kind location/..."), both kinds of
// trees; a stub's or a taskyield's visits depend on the schedule, so their subtrees are left out.
void add_path_visits(const json& node, const std::string& parent,
                     std::map<std::string, uint64_t>& out) {
  std::string kind = node["kind"].get<std::string>();
  if (kind == "stub" || kind == "taskyield") return;
  std::string path =
      parent + "/" + kind + " " + node.value("work_type", "") + " " + node.value("location", "");
  out[path] += node["metrics"]["visits"].get<uint64_t>();
  for (const json& c : node["children"]) add_path_visits(c, path, out);
}

std::map<std::string, uint64_t> path_visits(const json& profile) {
  std::map<std::string, uint64_t> out;
  for (const char* trees : {"trees", "task_trees"}) {
    for (const json& t : profile[trees]) add_path_visits(t, trees, out);
  }
  return out;
}

std::map<std::string, uint64_t> visits_by_kind(const json& profile) {
  std::map<std::string, uint64_t> out;
  for (const char* trees : {"trees", "task_trees"}) {
    for (const json& t : profile[trees]) add_visits(t, out);
  }
  // Depend on the schedule (fragments, yields).
  for (const char* k : {"stub", "taskyield"}) out.erase(k);
  return out;
}

// Visits of the user API's nodes by label ("region work", "n=3") over both kinds of trees.
void add_user_visits(const json& node, std::map<std::string, uint64_t>& by_label) {
  std::string kind = node["kind"].get<std::string>();
  if (kind == "parameter" || kind == "user_region") {
    by_label[node["label"].get<std::string>()] += node["metrics"]["visits"].get<uint64_t>();
  }
  for (const json& c : node["children"]) add_user_visits(c, by_label);
}

std::map<std::string, uint64_t> user_visits(const json& profile) {
  std::map<std::string, uint64_t> out;
  for (const char* trees : {"trees", "task_trees"}) {
    for (const json& t : profile[trees]) add_user_visits(t, out);
  }
  return out;
}

// tasks[].parameters: per construct location, per name=value, the instances.
std::map<std::string, uint64_t> parameter_splits(const json& tasks) {
  std::map<std::string, uint64_t> out;
  for (const json& t : tasks) {
    for (const json& split : t["parameters"]) {
      for (const json& v : split["values"]) {
        std::string key = t["location"].get<std::string>() + " " +
                          split["name"].get<std::string>() + "=" +
                          std::to_string(v["value"].get<int64_t>());
        out[key] += v["instances"].get<uint64_t>();
      }
    }
  }
  return out;
}

class ProfileModesOnExamples : public ::testing::TestWithParam<Example> {};

TEST_P(ProfileModesOnExamples, CountsEqualTraceMode) {
  const Example& ex = GetParam();
  std::vector<std::string> program = {ex.test_program ? profile_program(ex.name)
                                                      : example(ex.name)};
  program.insert(program.end(), ex.args.begin(), ex.args.end());
  Recording traced = record_run(program, 2);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  std::string dir = (fs::temp_directory_path() /
                     ("tasklens-modes-" + flat_name(ex) + "-" + std::to_string(getpid())))
                        .string();
  fs::remove_all(dir);
  std::vector<std::string> argv = {tasklens_bin(), "run",     "-q", "-n", "2",
                                   "--mode",       "profile", "-o", dir,  "--"};
  argv.insert(argv.end(), program.begin(), program.end());
  CommandResult prof = run_command(argv);
  ASSERT_EQ(prof.status, 0) << prof.err;

  JsonReport t = report_json(traced.dir, {"--profile"});
  JsonReport p = report_json(dir, {"--profile"});
  ASSERT_FALSE(t.doc.is_discarded()) << t.command.err;
  ASSERT_FALSE(p.doc.is_discarded()) << p.command.err;
  auto tc = construct_counts(t.doc["tasks"]);
  auto pc = construct_counts(p.doc["tasks"]);
  // One row per construct in both (copies of one construct fold into it: profile_copies.h).
  EXPECT_EQ(p.doc["tasks"].size(), t.doc["tasks"].size());
  // The same locations too: profile mode names a taskloop's tasks by the program's call site
  // as the trace does (two_taskloops: two constructs; once one, at the runtime's address).
  EXPECT_EQ(pc, tc);
  auto tv = visits_by_kind(t.doc["profile"]);
  EXPECT_GT(tv["parallel"], 0u);  // every example has a parallel region
  if (ex.name == "critical") {
    EXPECT_EQ(tv["mutex_wait"], 2000u);  // 1000 entries of the critical section per thread
  }
  EXPECT_EQ(visits_by_kind(p.doc["profile"]), tv);
  // The same trees: every node at the same place (a GCC single, which reports no end, held its
  // barrier in profile mode).
  EXPECT_EQ(path_visits(p.doc["profile"]), path_visits(t.doc["profile"]));
  // The user API's nodes: each label's visits, and the tasks' parameter splits.
  auto tu = user_visits(t.doc["profile"]);
  EXPECT_EQ(user_visits(p.doc["profile"]), tu);
  EXPECT_EQ(parameter_splits(p.doc["tasks"]), parameter_splits(t.doc["tasks"]));
  if (ex.name == "fib") {
    // fib 15: every call sets n: 1973 calls (1972 tasks and the first call), fib(k) called
    // fib(16 - k) times for k >= 1 (n=15 once, n=1 610 times), n=0 fib(14) = 377 times.
    uint64_t calls = 0;
    for (const auto& [label, visits] : tu) calls += visits;
    EXPECT_EQ(calls, 1973u);
    EXPECT_EQ(tu["n=15"], 1u);
    EXPECT_EQ(tu["n=1"], 610u);
    EXPECT_EQ(tu["n=0"], 377u);
  }
  if (ex.name == "nqueens") {
    EXPECT_EQ(tu["depth=0"], 6u);  // nqueens 6: one task per column of the first row
  }
  if (ex.name == "api_raii") {
    // One "spawn" region in the single, 20 tasks each setting i and entering "work" once.
    EXPECT_EQ(tu["region spawn"], 1u);
    EXPECT_EQ(tu["region work"], 20u);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(tu["i=" + std::to_string(i)], 1u) << i;
  }
  fs::remove_all(traced.dir);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ProfileModesOnExamples,
    ::testing::Values(Example{"fib", {"15"}}, Example{"nqueens", {"6"}},
                      Example{"imbalance", {"1000", "100"}}, Example{"dep_chain", {"20", "10"}},
                      Example{"wavefront", {"4", "10"}}, Example{"untied", {"8"}},
                      Example{"taskloop", {"1000", "10"}}, Example{"taskgroup", {"10"}},
                      Example{"skewed_loop", {"20"}}, Example{"critical", {"1000"}},
                      Example{"single", {"5"}}, Example{"fork_join", {"100"}},
                      Example{"detach", {"8"}}, Example{"cancel", {"8"}},
                      Example{"tree", {"4", "4", "1"}}, Example{"api_raii", {}, true},
                      Example{"two_taskloops", {}, true}, Example{"gcc/taskloop", {"1000", "10"}},
                      Example{"gcc/fib", {"15"}}, Example{"nested", {"4", "8"}},
                      Example{"gcc/nested", {"4", "8"}}),
    [](const ::testing::TestParamInfo<Example>& i) { return flat_name(i.param); });

}  // namespace
}  // namespace tasklens::testing
