// Counters per task (issue 20): `tasklens run --counters` attributes perf_event deltas to the
// task constructs, in profile mode (in the process) and in trace mode (`counters` events at the
// task switches, replayed). profile_programs/fresh_memory has a construct that touches fresh
// pages and one that only computes: the page faults must be on the first, and each construct's
// task-clock must be its measured work (within 15 %) when the machine was not busy. The call
// trees' nodes carry the counters too: the faults on the first construct's task root and on its
// stubs (where its instances ran), none on the creations.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "integration/overheads_support.h"
#include "integration/profile_run.h"
#include "support/machine_contention.h"
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

uint64_t faults(const json& node, const char* k = "sum") {
  return node["counters"]["page-faults"][k].get<uint64_t>();
}

// The nodes of `kind` whose location is `location`, over a tree.
void collect(const json& node, const std::string& kind, const std::string& location,
             std::vector<const json*>& out) {
  if (node["kind"] == kind && node.value("location", "") == location) out.push_back(&node);
  for (const json& c : node["children"]) collect(c, kind, location, out);
}

// Page faults on the call trees' nodes: each construct's task root has its instances' sums, its
// stubs below the implicit tasks' barrier hold every fault, the barrier holds its stubs' total
// and the creations none.
void check_node_counters(const json& profile, const json& fresh, const json& compute) {
  for (const json* t : {&fresh, &compute}) {
    std::string location = (*t)["location"];
    std::vector<const json*> roots, stubs, creations;
    for (const json& tree : profile["task_trees"]) collect(tree, "task", location, roots);
    for (const json& tree : profile["trees"]) {
      collect(tree, "stub", location, stubs);
      collect(tree, "create_task", location, creations);
    }
    ASSERT_EQ(roots.size(), 1u) << location;
    // The root's visits are the instances: the same sums as tasks[].counters, exactly.
    EXPECT_EQ(faults(*roots[0]), (*t)["counters"]["page-faults"]["sum"].get<uint64_t>());
    EXPECT_EQ(faults(*roots[0], "min"), (*t)["counters"]["page-faults"]["min"].get<uint64_t>());
    uint64_t in_stubs = 0, stub_visits = 0;
    for (const json* s : stubs) {
      in_stubs += faults(*s), stub_visits += (*s)["metrics"]["visits"].get<uint64_t>();
    }
    EXPECT_EQ(stub_visits, 16u) << location;  // each instance ran in one piece
    EXPECT_EQ(in_stubs, faults(*roots[0])) << location;
    ASSERT_FALSE(creations.empty()) << location;
    for (const json* c : creations) EXPECT_EQ(faults(*c), 0u) << location;
  }
  std::vector<const json*> fresh_roots;
  for (const json& tree : profile["task_trees"]) {
    collect(tree, "task", fresh["location"], fresh_roots);
  }
  EXPECT_GE(faults(*fresh_roots[0], "min"), 1024u);  // every instance its 1024 pages
  // The implicit barrier's nodes hold what ran in their stubs, nothing else.
  uint64_t barriers = 0, stubs = 0;
  std::function<void(const json&)> walk = [&](const json& n) {
    if (n["kind"] == "barrier") {
      barriers += faults(n);
      for (const json& c : n["children"]) {
        if (c["kind"] == "stub") stubs += faults(c);
      }
    }
    for (const json& c : n["children"]) walk(c);
  };
  for (const json& tree : profile["trees"]) walk(tree);
  EXPECT_EQ(barriers, stubs);
  EXPECT_GE(barriers, 16u * 1024);
}

void check_fresh_memory(const std::string& mode) {
  SCOPED_TRACE(mode + " mode");
  std::string dir =
      (fs::temp_directory_path() / ("tasklens-counters-" + mode + "-" + std::to_string(getpid())))
          .string();
  MachineContention window;
  CommandResult run = run_command({tasklens_bin(), "run", "-q", "-n", "2", "--mode", mode,
                                   "--counters", "page-faults,task-clock,cycles", "-o", dir,
                                   "--force", "--", profile_program("fresh_memory")});
  double others = window.others_share();
  ASSERT_EQ(run.status, 0) << run.err;
  ASSERT_NE(run.out.find("OK"), std::string::npos) << run.out;
  // cycles needs a PMU: said at most once, and the run goes on without it.
  size_t said = run.err.find("counter cycles");
  if (said != std::string::npos) {
    EXPECT_EQ(run.err.find("counter cycles", said + 1), std::string::npos) << run.err;
  }
  JsonReport rep = report_json(dir, {"--profile"});
  ASSERT_EQ(rep.command.status, 0) << rep.command.err;
  // Every sample read and recorded whole: the report says none was lost.
  EXPECT_EQ(rep.doc["profile"]["bad_counter_samples"], 0u);
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
    EXPECT_FALSE((*t)["counters"].contains("cycles")) << "no PMU on this machine";
    for (const char* k : {"sum", "min", "max", "mean"}) {
      EXPECT_TRUE((*t)["counters"]["page-faults"].contains(k)) << k;
    }
    EXPECT_EQ((*t)["instances"], 16);
  }
  uint64_t f = (*fresh)["counters"]["page-faults"]["sum"].get<uint64_t>();
  uint64_t c = (*compute)["counters"]["page-faults"]["sum"].get<uint64_t>();
  // 16 tasks x 1024 pages, one fault each (perf stat counts every one), and at least 90 % of all
  // the faults on this construct. Every task has its own: a task-clock grouped with page-faults
  // lost up to all of them, a few tasks' at a time. Load-independent.
  EXPECT_GE(f, 16u * 1024);
  EXPECT_GE((*fresh)["counters"]["page-faults"]["min"].get<uint64_t>(), 1024u);
  EXPECT_GE(f * 10, (f + c) * 9) << "fresh " << f << ", compute " << c;
  check_node_counters(rep.doc["profile"], *fresh, *compute);
  // task-clock runs while the task does: never more than its measured running time (+1 %),
  // and, on a machine nobody else used, within 15 % of it.
  std::string busy = contention_warning(rep.doc);
  // Preemption not measured (the kernel refused the records): the machine's own figures decide.
  if (busy.rfind("preempted time not measured", 0) == 0) busy.clear();
  if (busy.empty() && others > 0.05) {
    busy = "other processes took " + std::to_string(int(others * 100)) + " % of the machine";
  }
  for (const json* t : {fresh, compute}) {
    uint64_t clock = (*t)["counters"]["task-clock"]["sum"].get<uint64_t>();
    uint64_t time = (*t)["time_ns"]["sum"].get<uint64_t>();
    EXPECT_GT(clock, 0u);
    EXPECT_LE(clock, time + time / 100) << (*t)["location"];
    if (busy.empty()) {
      EXPECT_GE(clock, time - time * 15 / 100)
          << (*t)["location"] << ": task-clock " << clock << " ns, work " << time << " ns";
    }
  }
  if (!busy.empty()) {
    std::printf("[ note ] %s mode: task-clock vs work not checked: %s\n", mode.c_str(),
                busy.c_str());
  }
  fs::remove_all(dir);
}

TEST(ProfileCounters, PageFaultsGoToTheConstructThatTouchesFreshMemory) {
  check_fresh_memory("profile");
}

TEST(TraceCounters, PageFaultsGoToTheConstructThatTouchesFreshMemory) {
  check_fresh_memory("trace");
}

}  // namespace
}  // namespace tasklens::testing
