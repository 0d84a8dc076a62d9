// Profile mode end to end (issue 20): examples/fib recorded by `tasklens run` in both modes and
// read back with `tasklens report --json`; the task counts per construct must be exactly equal,
// the profile-mode experiment small, and the sections that need a trace refused.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "format/experiment.h"
#include "support/recording.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

struct Counts {
  uint64_t created = 0, instances = 0, unfinished = 0;
};

std::map<std::string, Counts> counts_by_construct(const json& tasks) {
  std::map<std::string, Counts> out;
  for (const json& t : tasks) {
    Counts& c = out[t["location"].get<std::string>()];  // addresses move between runs (PIE)
    c.created = t["created"].get<uint64_t>();
    c.instances = t["instances"].get<uint64_t>();
    c.unfinished = t["unfinished"].get<uint64_t>();
  }
  return out;
}

uint64_t dir_bytes(const std::string& dir) {
  uint64_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.is_regular_file() ? e.file_size() : 0;
  return n;
}

// Visits of every node of `kind` over the trees.
uint64_t visits_of(const json& node, const std::string& kind) {
  uint64_t v = node["kind"] == kind ? node["metrics"]["visits"].get<uint64_t>() : 0;
  for (const json& c : node["children"]) v += visits_of(c, kind);
  return v;
}
uint64_t visits_in(const json& trees, const std::string& kind) {
  uint64_t v = 0;
  for (const json& t : trees) v += visits_of(t, kind);
  return v;
}

TEST(ProfileMode, FibCountsEqualTraceModeAndExperimentIsSmall) {
  const std::vector<std::string> fib = {example("fib"), "20"};
  Recording traced = record_run(fib, 2);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  Recording prof = record_profile(fib, 2);
  ASSERT_EQ(prof.run.status, 0) << prof.run.err;
  EXPECT_TRUE(fs::exists(prof.dir + "/profile.json"));
  EXPECT_FALSE(fs::exists(prof.dir + "/thread-0000.tlt"));

  JsonReport t = report_json(traced.dir, {"--profile"});
  JsonReport p = report_json(prof.dir, {"--profile"});
  ASSERT_EQ(t.command.status, 0) << t.command.err;
  ASSERT_EQ(p.command.status, 0) << p.command.err;
  EXPECT_EQ(p.doc["run"]["mode"], "profile");
  EXPECT_EQ(t.doc["run"]["mode"], "trace");

  // fib(20) without a cut-off: 2 * fib(21) - 2 tasks, of two constructs.
  const uint64_t kTasks = 21890;
  auto tc = counts_by_construct(t.doc["tasks"]);
  auto pc = counts_by_construct(p.doc["tasks"]);
  ASSERT_EQ(tc.size(), 2u);
  ASSERT_EQ(pc.size(), tc.size());
  uint64_t total = 0;
  for (const auto& [code, c] : tc) {
    ASSERT_TRUE(pc.count(code)) << code;
    EXPECT_EQ(pc[code].created, c.created) << code;
    EXPECT_EQ(pc[code].instances, c.instances) << code;
    EXPECT_EQ(pc[code].unfinished, 0u) << code;
    total += c.instances;
  }
  EXPECT_EQ(total, kTasks);
  // Per construct: the time and creation statistics count every instance.
  for (const json& task : p.doc["tasks"]) {
    EXPECT_EQ(task["time_ns"]["sum"].get<uint64_t>() > 0, true);
    EXPECT_LE(task["time_ns"]["min"].get<uint64_t>(), task["time_ns"]["max"].get<uint64_t>());
  }
  // The same JSON keys in the sections both modes answer.
  for (const char* section : {"tasks", "profile", "breakdown"}) {
    ASSERT_TRUE(p.doc.contains(section)) << section;
  }
  for (const auto& [k, v] : t.doc["tasks"][0].items()) {
    EXPECT_TRUE(p.doc["tasks"][0].contains(k)) << k;
  }
  for (const auto& [k, v] : t.doc["profile"].items())
    EXPECT_TRUE(p.doc["profile"].contains(k)) << k;
  JsonReport tb = report_json(traced.dir, {});
  JsonReport pb = report_json(prof.dir, {});
  for (const auto& [k, v] : tb.doc["breakdown"].items()) {
    EXPECT_TRUE(pb.doc["breakdown"].contains(k)) << k;
  }
  // Profile mode measures no preemption and its own line says so: no word of a refusal (every
  // profile-mode report said "the kernel refused context-switch records" before).
  for (const json& w : pb.doc["run"]["warnings"]) {
    EXPECT_EQ(w.get<std::string>().find("refused"), std::string::npos) << w;
  }
  EXPECT_FALSE(pb.doc["breakdown"]["preemption_measured"].get<bool>());
  // But the kernel's totals of the threads' wait for a CPU, as the trace has them (where /proc
  // has them: the trace's metadata says).
  auto traced_x = format::open_experiment(traced.dir);
  ASSERT_TRUE(bool(traced_x));
  if (!traced_x->metadata.threads.empty() && traced_x->metadata.threads[0].run_delay_ns) {
    EXPECT_TRUE(pb.doc["breakdown"]["run_queue_wait_ns"].is_number()) << pb.doc["breakdown"];
    EXPECT_TRUE(tb.doc["breakdown"]["run_queue_wait_ns"].is_number()) << tb.doc["breakdown"];
  }
  // The call-path profile: one create visit per task, one stub visit per fragment (the runs'
  // schedules differ: their fragments too), one task root visit per instance, in both modes.
  for (const JsonReport* r : {&t, &p}) {
    const json& prof_json = r->doc["profile"];
    EXPECT_EQ(visits_in(prof_json["task_trees"], "create_task") +
                  visits_in(prof_json["trees"], "create_task"),
              kTasks);
    uint64_t fragments = 0;
    for (const json& task : r->doc["tasks"]) fragments += task["fragments"].get<uint64_t>();
    EXPECT_EQ(visits_in(prof_json["trees"], "stub"), fragments);
    EXPECT_EQ(visits_in(prof_json["task_trees"], "task"), kTasks);
  }
  EXPECT_EQ(visits_in(p.doc["profile"]["task_trees"], "taskwait"),
            visits_in(t.doc["profile"]["task_trees"], "taskwait"));

  // Small: the trace is about 1 MB here, the profile a few kB, whatever the task count.
  EXPECT_LT(dir_bytes(prof.dir), 64u * 1024) << prof.dir;
  EXPECT_GT(dir_bytes(traced.dir), 10 * dir_bytes(prof.dir));

  // The sections that need a trace are refused when asked for, by name.
  for (const char* flag : {"--graph", "--what-if", "--overheads"}) {
    CommandResult r = run_command({tasklens_bin(), "report", prof.dir, flag, "--json"});
    EXPECT_NE(r.status, 0) << flag;
    EXPECT_NE(r.err.find("needs a trace: run without --mode profile"), std::string::npos)
        << flag << ": " << r.err;
  }
  std::string dot = prof.dir + "/graph.dot";
  for (std::vector<std::string> cmd :
       {std::vector<std::string>{"check"}, std::vector<std::string>{"dump"},
        std::vector<std::string>{"export", "--to", "dot", "-o", dot}}) {
    std::vector<std::string> argv = {tasklens_bin(), cmd[0], prof.dir};
    argv.insert(argv.end(), cmd.begin() + 1, cmd.end());
    CommandResult r = run_command(argv);
    EXPECT_NE(r.status, 0) << cmd[0];
    EXPECT_NE(r.err.find("needs a trace: run without --mode profile"), std::string::npos)
        << cmd[0] << ": " << r.err;
  }
  // --all answers what it can and says what it left out.
  JsonReport all = report_json(prof.dir, {"--all"});
  EXPECT_EQ(all.command.status, 0) << all.command.err;
  EXPECT_FALSE(all.doc.contains("graph"));
  fs::remove_all(traced.dir);
  fs::remove_all(prof.dir);
}

// The sum of the inclusive times of the nodes of `kind` over the trees.
uint64_t inclusive_of(const json& node, const std::string& kind) {
  uint64_t v = node["kind"] == kind ? node["metrics"]["inclusive_ns"]["sum"].get<uint64_t>() : 0;
  for (const json& c : node["children"]) v += inclusive_of(c, kind);
  return v;
}

// One region of 30 ms on two threads, then 150 ms of serial code. libomp reports the end of the
// worker's closing barrier only at the exit (docs/LIBOMP.md): both modes close its frames with
// the region, so the barriers hold the wait for the team, not the serial code (they held about
// 150 ms before), and the worker's time is its region's. The same with a host `teams` league of
// two teams, whose second team's initial task ends late likewise (profile mode's barrier held
// the serial code).
class ProfileModeLateEnd : public ::testing::TestWithParam<const char*> {};

TEST_P(ProfileModeLateEnd, AWorkersClosingBarrierEndsWithTheRegionInBothModes) {
  std::vector<std::string> spin = {std::string(TASKLENS_TEST_PROGRAMS_DIR) + "/serial_spin", "0",
                                   "30", "150"};
  if (*GetParam()) spin.push_back(GetParam());
  Recording traced = record_run(spin, 2);
  ASSERT_EQ(traced.run.status, 0) << traced.run.err;
  Recording prof = record_profile(spin, 2);
  ASSERT_EQ(prof.run.status, 0) << prof.run.err;
  for (const Recording* r : {&traced, &prof}) {
    JsonReport j = report_json(r->dir, {"--profile"});
    ASSERT_EQ(j.command.status, 0) << j.command.err;
    const json& p = j.doc["profile"];
    uint64_t barriers = 0;
    for (const json& t : p["trees"]) barriers += inclusive_of(t, "barrier");
    EXPECT_LT(barriers, 60'000'000u) << j.doc["run"]["mode"];
    ASSERT_EQ(p["thread_time_ns"].size(), 2u);
    EXPECT_LT(p["thread_time_ns"][1].get<uint64_t>(), 100'000'000u) << j.doc["run"]["mode"];
    EXPECT_EQ(p["unmatched_ends"], 0) << j.doc["run"]["mode"];
    // One program root, visited once: a league's teams are its children, not programs again.
    ASSERT_EQ(p["trees"].size(), 1u) << j.doc["run"]["mode"];
    EXPECT_EQ(p["trees"][0]["kind"], "program");
    EXPECT_EQ(p["trees"][0]["metrics"]["visits"], 1) << j.doc["run"]["mode"];
  }
  fs::remove_all(prof.dir);
}

INSTANTIATE_TEST_SUITE_P(ParallelAndTeams, ProfileModeLateEnd, ::testing::Values("", "teams"));

}  // namespace
}  // namespace tasklens::testing
