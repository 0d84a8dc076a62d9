// profile.json (`tasklens run --mode profile`) read by hand-made files with known answers: a
// sound one, and damage of every kind the reader checks, each refused with one line naming the
// file and the member (docs/ROBUSTNESS.md).
#include "analysis/profile_file.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "format/experiment.h"
#include "support/experiment_writer.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;

json stat(uint64_t count, uint64_t sum, uint64_t min, uint64_t max) { return {count, sum, min, max}; }

// Two threads; the program's tree (program > create_task) and task construct 0x400's (task >
// taskwait), as profile_writer.cpp writes them. Ticks are ns (the writer's monotonic clock).
json sound_profile() {
  json threads = json::array();
  for (uint64_t i = 0; i < 2; ++i) {
    threads.push_back({{"index", i}, {"initial", i == 0}, {"begin", 10}, {"end", 1010},
                       {"work", 600}, {"overhead", 100}, {"idle", 200}, {"serial", 100},
                       {"thread_time", 1000}, {"max_active", 2}, {"unmatched_ends", 0}});
  }
  auto node = [](const char* key, const char* parent, const char* kind, const char* code,
                 json rows) {
    return json{{"key", key}, {"parent", parent}, {"kind", kind}, {"sub", 0}, {"code", code},
                {"threads", rows}};
  };
  json nodes = json::array();
  nodes.push_back(node("0x1", "0x0", "program", "0x0",
                       {{0, 1, 1, stat(1, 1000, 1000, 1000), stat(1, 700, 700, 700)}}));
  nodes.push_back(node("0x2", "0x1", "create_task", "0x400",
                       {{0, 3, 3, stat(3, 300, 100, 100), stat(3, 300, 100, 100)}}));
  nodes.push_back(node("0x3", "0x0", "task", "0x400",
                       {{0, 1, 1, stat(1, 200, 200, 200), stat(1, 150, 150, 150)},
                        {1, 2, 2, stat(2, 400, 200, 200), stat(2, 300, 150, 150)}}));
  nodes.push_back(node("0x4", "0x3", "taskwait", "0x0",
                       {{1, 2, 2, stat(2, 100, 50, 50), stat(2, 100, 50, 50)}}));
  json constructs = json::array();
  constructs.push_back({{"code", "0x400"}, {"created", 3}, {"instances", 3}, {"unfinished", 0},
                        {"discarded", 0}, {"fragments", 3}, {"migrations", 0},
                        {"time", stat(3, 600, 200, 200)}, {"creation", stat(3, 300, 100, 100)},
                        {"start_delay", stat(3, 30, 10, 10)}, {"max_active", 2},
                        {"counters", {stat(3, 9000, 3000, 3000)}}});
  return {{"profile_version", 1}, {"threads", threads}, {"nodes", nodes},
          {"constructs", constructs}, {"counters", {"task-clock"}}, {"overflow", false}};
}

// An experiment of mode "profile" holding `profile` (raw text) as its profile.json.
format::Experiment experiment_with(const std::string& profile, std::string* path) {
  ExperimentWriter w;
  w.metadata().mode = "profile";
  std::string dir = scratch_dir() + "/profile-exp";
  auto written = w.write(dir);
  EXPECT_TRUE(written) << (written ? "" : written.error().message);
  *path = dir + "/profile.json";
  std::ofstream(*path) << profile;
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(x) << (x ? "" : x.error().message);
  return std::move(*x);
}

TEST(ProfileFile, SoundFileIsRead) {
  std::string path;
  format::Experiment x = experiment_with(sound_profile().dump(), &path);
  auto d = analysis::read_profile_mode(x);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->threads, 2u);
  const analysis::Profile& p = d->profile;
  ASSERT_EQ(p.nodes.size(), 4u);
  ASSERT_EQ(p.roots.size(), 1u);
  const analysis::ProfileNode& program = p.nodes[p.roots[0]];
  EXPECT_EQ(program.kind, analysis::NodeKind::kProgram);
  ASSERT_EQ(program.children.size(), 1u);
  EXPECT_EQ(p.nodes[program.children[0]].total.visits, 3u);
  ASSERT_EQ(p.tasks.size(), 1u);
  const analysis::TaskConstruct& t = p.tasks[0];
  EXPECT_EQ(t.codeptr, 0x400u);
  ASSERT_NE(t.root, analysis::kNoNode);
  EXPECT_EQ(p.nodes[t.root].total.visits, 3u);
  EXPECT_EQ(p.nodes[t.root].total.inclusive.sum, 600u);
  EXPECT_EQ(p.nodes[t.root].threads[1].exclusive.sum, 300u);
  ASSERT_EQ(t.counters.size(), 1u);
  EXPECT_EQ(t.counters[0].second.sum, 9000u);
  EXPECT_EQ(p.total_time_ns, 2000u);
  EXPECT_EQ(d->breakdown.total.work_ns, 1200u);
  EXPECT_FALSE(d->breakdown.run_delay_known);  // files before 2026-11-28 have none
}

// The kernel's run-queue wait per thread (run_delay_ns), where the recorder could read it: summed
// into the breakdown, known when any thread has it.
TEST(ProfileFile, TheThreadsWaitForACpuIsSummed) {
  json j = sound_profile();
  j["threads"][0]["run_delay_ns"] = 1500;
  j["threads"][1]["run_delay_ns"] = 2500;
  std::string path;
  format::Experiment x = experiment_with(j.dump(), &path);
  auto d = analysis::read_profile_mode(x);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_TRUE(d->breakdown.run_delay_known);
  EXPECT_EQ(d->breakdown.run_delay_ns, 4000u);
}

struct Damage {
  const char* name;
  void (*apply)(json&);
  const char* error;  // after "DIR/profile.json: "
};

const Damage kDamage[] = {
    {"NegativeRunDelay", [](json& j) { j["threads"][0]["run_delay_ns"] = -1; },
     "threads[0].run_delay_ns: -1, not a count"},
    {"NegativeCount", [](json& j) { j["nodes"][0]["threads"][0][1] = -2; },
     "nodes[0].threads[0][1]: -2, not a count"},
    {"FractionalCount", [](json& j) { j["constructs"][0]["created"] = 2.5; },
     "constructs[0].created: 2.5, not a count"},
    {"MissingThreadIndex", [](json& j) { j["threads"][0].erase("index"); },
     "threads[0].index: missing"},
    {"HugeThreadIndex", [](json& j) { j["threads"][1]["index"] = 4000000000u; },
     "threads[1].index: 4000000000, above 65"},
    {"ThreadTwice", [](json& j) { j["threads"][1]["index"] = 0; },
     "threads[1].index: thread 0 is listed twice"},
    {"RowOfAnUnlistedThread", [](json& j) { j["nodes"][3]["threads"][0][0] = 7; },
     "nodes[3].threads[0][0]: 7, above 1"},
    {"FlagOfAnotherType", [](json& j) { j["threads"][0]["initial"] = "yes"; },
     "threads[0].initial: \"yes\", not true or false"},
    {"NodeThatIsNotAnObject", [](json& j) { j["nodes"][1] = 7; }, "nodes[1]: 7, not an object"},
    {"KindOfAnotherType", [](json& j) { j["nodes"][0]["kind"] = 3; },
     "nodes[0].kind: 3, not a string"},
    {"UnknownKind", [](json& j) { j["nodes"][0]["kind"] = "loop"; },
     "nodes[0].kind: \"loop\", not a node kind"},
    {"AddressThatIsNotHex", [](json& j) { j["nodes"][2]["code"] = "0xzz"; },
     "nodes[2].code: \"0xzz\", not a hex address"},
    {"KeyTwice", [](json& j) { j["nodes"][1]["key"] = "0x1"; },
     "nodes[1].key: a key an earlier node has"},
    {"ParentCycle", [](json& j) { j["nodes"][2]["parent"] = "0x4"; },
     "nodes[2].parent: the node's ancestors form a cycle"},
    {"ShortStat",
     [](json& j) {
       j["constructs"][0]["time"] = {1, 2};
     },
     "constructs[0].time: 2 numbers, not 4 (count, sum, min, max)"},
    {"CountersOfAnotherNumber", [](json& j) { j["constructs"][0]["counters"] = json::array(); },
     "constructs[0].counters: 0 counters, not the 1 the file names"},
    {"NodesThatAreAnObject", [](json& j) { j["nodes"] = json::object(); },
     "nodes: an object, not an array"},
    {"MissingConstructs", [](json& j) { j.erase("constructs"); }, "constructs: missing"},
    {"NewerVersion", [](json& j) { j["profile_version"] = 2; },
     "profile_version: 2, a version this tasklens does not read (1)"},
    {"NotAnObject",
     [](json& j) {
       j = json::array({1, 2});
     },
     "corrupt (not a JSON object)"},
};

void PrintTo(const Damage& d, std::ostream* os) { *os << d.name; }

class ProfileFileDamage : public ::testing::TestWithParam<Damage> {};

TEST_P(ProfileFileDamage, IsOneLineNamingTheFileAndMember) {
  json j = sound_profile();
  GetParam().apply(j);
  std::string path;
  format::Experiment x = experiment_with(j.dump(), &path);
  auto d = analysis::read_profile_mode(x);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message, path + ": " + GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(Each, ProfileFileDamage, ::testing::ValuesIn(kDamage),
                         [](const auto& info) { return std::string(info.param.name); });

// 10^6 nested arrays (2 MB): copying the parsed value recursed once per level and overflowed
// the stack.
TEST(ProfileFile, NestingTooDeepIsRefused) {
  size_t n = 1'000'000;
  std::string text = R"({"profile_version": 1, "threads": [], "nodes": )" + std::string(n, '[') +
                     std::string(n, ']') + R"(, "constructs": [], "counters": [], "overflow": false})";
  std::string path;
  format::Experiment x = experiment_with(text, &path);
  auto d = analysis::read_profile_mode(x);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message, path + ": corrupt (nested deeper than 100 levels)");
}

// A chain of 1500 user regions: past kMaxProfileDepth levels the nodes fold into the deepest
// kept one, a visit each, their exclusive time in its own (as the trace's profile does).
TEST(ProfileFile, ATreeDeeperThanTheLimitFoldsIntoItsDeepestNode) {
  json j = sound_profile();
  json& nodes = j["nodes"];
  nodes.erase(nodes.begin() + 1);  // the create_task under the program
  for (uint64_t i = 0; i < 1500; ++i) {
    char key[32], parent[32];
    std::snprintf(key, sizeof key, "0x%llx", (unsigned long long)(0x1000 + i));
    std::snprintf(parent, sizeof parent, "0x%llx", (unsigned long long)(i ? 0x1000 + i - 1 : 1));
    nodes.push_back({{"key", key}, {"parent", parent}, {"kind", "user_region"}, {"sub", 0},
                     {"code", "0x1"},
                     {"threads", {{0, 1, 1, stat(1, 1500 - i, 1500 - i, 1500 - i), stat(1, 1, 1, 1)}}}});
  }
  std::string path;
  format::Experiment x = experiment_with(j.dump(), &path);
  auto d = analysis::read_profile_mode(x);
  ASSERT_TRUE(d) << d.error().message;
  const analysis::Profile& p = d->profile;
  // program + 999 regions under it; the task tree's 2 nodes.
  ASSERT_EQ(p.nodes.size(), 1000u + 2u);
  uint32_t n = p.roots.at(0);
  uint32_t levels = 1;
  while (!p.nodes[n].children.empty()) {
    ASSERT_EQ(p.nodes[n].children.size(), 1u);
    n = p.nodes[n].children[0];
    ++levels;
  }
  EXPECT_EQ(levels, analysis::kMaxProfileDepth);
  const analysis::ProfileNode& deepest = p.nodes[n];
  EXPECT_EQ(deepest.total.visits, 1u + 501u);  // its own and the 501 deeper ones
  EXPECT_EQ(deepest.total.exclusive.sum, 502u);
  EXPECT_EQ(deepest.total.inclusive.sum, 1500u - 998u);  // region 998's: theirs inside already
  EXPECT_EQ(deepest.threads[0].visits, 502u);
}

// A profile-mode run killed by a signal writes no profile.json (no malloc in the handler): the
// report says which signal, from the end_reason the handler wrote.
TEST(ProfileFile, ARunEndedByASignalSaysWhichAndWhyThereIsNoProfile) {
  ExperimentWriter w;
  w.metadata().mode = "profile";
  w.metadata().status = "crashed";
  w.metadata().end_reason = "signal 11 (SEGV)";
  std::string dir = scratch_dir() + "/crashed";
  ASSERT_TRUE(w.write(dir));
  auto x = format::open_experiment(dir);
  ASSERT_TRUE(x) << x.error().message;
  auto d = analysis::read_profile_mode(*x);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().message,
            dir + "/profile.json: missing: the run ended by signal 11 (SEGV) (experiment.json's "
                  "end_reason); profile mode writes its profile at a normal end only");
}

}  // namespace
}  // namespace tasklens::testing
