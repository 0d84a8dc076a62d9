// End to end: a wide tree of untied tasks with taskyield and taskwait (programs/untied_tree.c,
// the shape of BOTS uts) recorded several times with `tasklens run -n 2`. libomp runs untied parts
// on top of other tasks there (src/format/task_switch.h); every run must be sound for `check` (but
// for one rarer sequence still open, see the test), and the profile must nest no deeper than the
// constructs a task encounters. Before the fix, `check`
// failed on most runs and the implicit task's tree grew a stub level per task run on top of
// another (12 levels here, 1,505 on BOTS uts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "support/recording.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

std::string program() { return std::string(TASKLENS_TEST_PROGRAMS_DIR) + "/untied_tree"; }

uint32_t depth(const nlohmann::json& node) {
  uint32_t d = 0;
  if (node.contains("children")) {
    for (const auto& c : node["children"]) d = std::max(d, depth(c));
  }
  return d + 1;
}

TEST(UntiedE2E, CheckIsSoundAndTheProfileShallowOnEveryRun) {
  constexpr int kRuns = 4;
  for (int run = 0; run < kRuns; ++run) {
    Recording rec = record_run({program()}, 2);
    ASSERT_EQ(rec.run.status, 0) << rec.run.err;
    long long tasks = printed_value(rec.run.out, "tasks");
    ASSERT_EQ(tasks, 32768) << rec.run.out;
    ASSERT_NE(rec.run.out.find(" OK"), std::string::npos) << rec.run.out;

    CommandResult check = run_command({tasklens_bin(), "check", rec.dir});
    // Sound, but for a rarer libomp race still open (docs/REPLAY.md, "Limits": a thread switches
    // to an untied task that another thread completes at the same instant), seen once in 80
    // runs with 2 inconsistent events of 227 k. Parts of untied tasks that libomp runs with no
    // event (about every other run) are a note, not an inconsistency. Before the untied
    // sequences were modelled, every run had thousands.
    size_t bad = check.out.find("not sound: ");
    if (bad == std::string::npos) {
      EXPECT_EQ(check.status, 0) << check.out;
      EXPECT_NE(check.out.find("sound: nothing lost, every task consistent"), std::string::npos)
          << check.out;
    } else {
      long long n = std::atoll(check.out.c_str() + bad + std::strlen("not sound: "));
      EXPECT_NE(check.out.find("inconsistent event", bad), std::string::npos) << check.out;
      EXPECT_GE(n, 1) << check.out;
      EXPECT_LE(n, 4) << check.out;
      std::cout << "[ untied ] run " << run << ": " << n << " inconsistent events (the open race)\n"
                << check.out;
    }
    std::string counts = std::to_string(tasks) + " created / " + std::to_string(tasks) +
                         " started / " + std::to_string(tasks) + " completed";
    EXPECT_NE(check.out.find(counts), std::string::npos) << check.out;

    JsonReport report = report_json(rec.dir, {"--profile"});
    ASSERT_EQ(report.command.status, 0) << report.command.err;
    const nlohmann::json& profile =
        report.doc.contains("profile") ? report.doc["profile"] : report.doc;
    ASSERT_TRUE(profile.contains("trees")) << report.command.out.substr(0, 400);
    // The implicit tasks' trees: program > parallel > a scheduling point (barrier, taskwait,
    // creation) > the stubs of the tasks that ran there; stubs never nest.
    uint32_t implicit_depth = 0, task_depth = 0;
    for (const auto& t : profile["trees"]) implicit_depth = std::max(implicit_depth, depth(t));
    // A task's tree: its root > the constructs it encounters (creation, taskyield, taskwait).
    for (const auto& t : profile["task_trees"]) task_depth = std::max(task_depth, depth(t));
    std::cout << "[ untied ] run " << run << ": profile depth " << implicit_depth
              << " (implicit), " << task_depth << " (tasks); program nesting "
              << printed_value(rec.run.out, "nesting") << "\n";
    EXPECT_LE(implicit_depth, 5u);
    EXPECT_LE(task_depth, 3u);
  }
}

// Both modes give each construct of an untied tree its own creations and taskwaits (width 1057:
// more than the 256 tasks a thread's deque holds, so children run at once on top of their
// creator). The switch that profile mode once took for nothing, an untied part resumed on top of
// a task of another construct (clang BOTS uts: the root task had 1,285 taskwaits instead of 1),
// needs an untied creator, which libomp 14 can leave spinning in its taskwait (above); the rule is
// unit-tested (format/task_switch_test.cpp) and the uts comparison is in REAL-BENCHMARKS-LOG.md.
TEST(UntiedE2E, BothModesGiveEachConstructItsOwnCreationsAndTaskwaits) {
  for (const char* mode : {"trace", "profile"}) {
    SCOPED_TRACE(mode);
    std::string dir = scratch_dir("untied-modes");
    CommandResult run = run_command({tasklens_bin(), "run", "-q", "-n", "2", "--mode", mode, "-o",
                                     dir, "--", program(), "1057", "2"});
    ASSERT_EQ(run.status, 0) << run.err;
    JsonReport report = report_json(dir, {"--profile"});
    ASSERT_EQ(report.command.status, 0) << report.command.err;
    // The tied creator is the one task construct with one instance: it created the 1057 untied
    // roots and waited once; each root (level 2) created 2 and waited once.
    uint64_t creator_creates = 0, creator_waits = 0, untied_waits = 0, untied_instances = 0;
    for (const auto& t : report.doc["profile"]["task_trees"]) {
      bool creator = t["metrics"]["visits"] == 1;
      if (!creator) untied_instances += t["metrics"]["visits"].get<uint64_t>();
      for (const auto& c : t["children"]) {
        uint64_t v = c["metrics"]["visits"];
        if (c["kind"] == "create_task" && creator) creator_creates += v;
        if (c["kind"] == "taskwait") (creator ? creator_waits : untied_waits) += v;
      }
    }
    EXPECT_EQ(creator_creates, 1057u);
    EXPECT_EQ(creator_waits, 1u);
    EXPECT_EQ(untied_instances, 3u * 1057u);
    EXPECT_EQ(untied_waits, 1057u);
  }
}

}  // namespace
}  // namespace tasklens::testing
