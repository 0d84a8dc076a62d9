// End to end: `tasklens compare` on runs of one example with 1, 2 and 4 threads (the table, the
// JSON and the SVG chart, parsed as XML), and its refusals: runs of another program or other
// arguments, a missing or corrupt experiment.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "integration/overheads_support.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kXmllint = "/usr/bin/xmllint";  // libxml2-utils (scripts/setup.sh)

class Compare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (int threads : {1, 2, 4}) runs_.push_back(record("fib", {"18"}, threads).dir);
  }
  static std::vector<std::string> runs_;
};
std::vector<std::string> Compare::runs_;

TEST_F(Compare, TableJsonAndChart) {
  std::string chart = scratch_dir("chart") + "/chart.svg";
  CommandResult text =
      run_command({tasklens_bin(), "compare", runs_[2], runs_[0], runs_[1], "-o", chart});
  ASSERT_EQ(text.status, 0) << text.err;
  for (const char* part : {"Time accumulated over threads", "Speedup", "Amdahl", "Synch",
                           "Imbal", "Limpar", "Mgmt", "Tasks", "Serial",
                           "Per parallel region", "fib.c:", "1 thread", "2 threads",
                           "4 threads"}) {
    EXPECT_NE(text.out.find(part), std::string::npos) << part << "\n" << text.out;
  }
  // Rows in thread order whatever the order of the arguments (in the table: a note above it,
  // e.g. on a run that was preempted, may name any run).
  size_t table = text.out.find("Time accumulated over threads");
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(text.out.find(runs_[0], table), text.out.find(runs_[1], table));
  EXPECT_LT(text.out.find(runs_[1], table), text.out.find(runs_[2], table));

  ASSERT_TRUE(fs::exists(chart));
  ASSERT_EQ(access(kXmllint, X_OK), 0) << "xmllint is missing: run scripts/setup.sh";
  CommandResult xml = run_command({kXmllint, "--noout", chart});
  EXPECT_EQ(xml.status, 0) << xml.err;
  CommandResult root = run_command({kXmllint, "--xpath", "local-name(/*)", chart});
  EXPECT_EQ(root.out.substr(0, root.out.find_last_not_of("\n") + 1), "svg");
  CommandResult bars = run_command({kXmllint, "--xpath", "count(//*[local-name()='rect'])", chart});
  EXPECT_GE(std::atoi(bars.out.c_str()), 3 + 7);  // a bar per run, a legend box per layer

  CommandResult json = run_command({tasklens_bin(), "compare", runs_[0], runs_[1], runs_[2],
                                    "--json"});
  ASSERT_EQ(json.status, 0) << json.err;
  nlohmann::json j = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  ASSERT_EQ(j["runs"].size(), 3u);
  std::vector<int> threads;
  for (const auto& run : j["runs"]) {
    threads.push_back(run["threads"]);
    // Everything accumulated over threads is the regions' time plus the serial time.
    EXPECT_EQ(uint64_t(run["total_ns"]), uint64_t(run["threads"]) * uint64_t(run["run_ns"]));
    EXPECT_EQ(uint64_t(run["regions_total_ns"]) + uint64_t(run["serial_ns"]),
              uint64_t(run["total_ns"]));
    uint64_t classes = ns(run, "work") + ns(run, "preempted");
    for (const auto& c : overhead_classes()) classes += ns(run, c);
    EXPECT_EQ(classes, uint64_t(run["regions_total_ns"]));
    // The task graph: its longest path is part of its work plus the runtime's fork time on it;
    // no schedule beats the bound.
    const auto& g = run["graph"];
    EXPECT_GT(uint64_t(g["span_ns"]), 0u);
    EXPECT_LE(uint64_t(g["span_ns"]), uint64_t(g["work_ns"]) + uint64_t(g["path_runtime_ns"]));
    EXPECT_GE(uint64_t(g["bound_ns"]), uint64_t(g["span_ns"]));
    EXPECT_GT(uint64_t(g["tasks_work_ns"]), 0u);  // what the work inflation compares
    EXPECT_GE(uint64_t(g["bound_ns"]) * uint64_t(run["threads"]) + uint64_t(run["threads"]),
              uint64_t(g["work_ns"]));
  }
  EXPECT_DOUBLE_EQ(double(j["runs"][0]["graph"]["work_inflation"]), 1.0);
  EXPECT_EQ(threads, (std::vector<int>{1, 2, 4}));
  EXPECT_DOUBLE_EQ(double(j["runs"][0]["speedup"]), 1.0);
  EXPECT_TRUE(j["amdahl"]["measured"]);  // the smallest run has one thread
  ASSERT_FALSE(j["regions"].empty());
  EXPECT_EQ(j["regions"][0]["runs"].size(), 3u);
  EXPECT_TRUE(j["regions"][0]["runs"][2]["present"]);
  EXPECT_EQ(j["program"]["args"], nlohmann::json::array({"18"}));
}

TEST_F(Compare, RefusesAnotherProgram) {
  std::string other = record("skewed_loop", {"20"}).dir;
  CommandResult r = run_command({tasklens_bin(), "compare", runs_[0], runs_[1], other});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("not runs of one program"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(other), std::string::npos) << r.err;  // which run
  EXPECT_NE(r.err.find("skewed_loop"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(runs_[1] + " ran"), std::string::npos) << r.err;  // not the good ones
  EXPECT_TRUE(r.out.empty());
}

TEST_F(Compare, RefusesOtherArguments) {
  std::string other = record("fib", {"17"}, 2).dir;
  CommandResult r = run_command({tasklens_bin(), "compare", runs_[0], other});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("fib 17"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("fib 18"), std::string::npos) << r.err;
}

TEST_F(Compare, MissingOrCorruptExperimentIsOneLine) {
  std::string missing = scratch_dir("missing") + "/nothing-here";
  CommandResult r = run_command({tasklens_bin(), "compare", runs_[0], missing});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  std::string corrupt = scratch_dir("corrupt") + "/exp";
  fs::copy(runs_[1], corrupt, fs::copy_options::recursive);
  std::ofstream(corrupt + "/thread-0000.tlt", std::ios::trunc) << "this is not a trace";
  r = run_command({tasklens_bin(), "compare", runs_[0], corrupt});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("thread-0000.tlt"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  std::ofstream(corrupt + "/experiment.json", std::ios::trunc) << "{ not json";
  r = run_command({tasklens_bin(), "compare", corrupt, runs_[0]});
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("experiment.json"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// `compare` says of each run what `check` says of it: events the recorder lost, next to the run.
TEST_F(Compare, SaysWhichRunLostEvents) {
  std::string lossy = scratch_dir("lossy") + "/exp";
  fs::copy(runs_[1], lossy, fs::copy_options::recursive);
  nlohmann::json meta = nlohmann::json::parse(std::ifstream(lossy + "/experiment.json"));
  meta["recorder"]["events_lost"] = 7;
  std::ofstream(lossy + "/experiment.json", std::ios::trunc) << meta.dump();
  CommandResult check = run_command({tasklens_bin(), "check", lossy});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("  note: 7 events were lost by the recorder\n"), std::string::npos)
      << check.out;
  CommandResult r = run_command({tasklens_bin(), "compare", "--json", runs_[0], lossy});
  ASSERT_EQ(r.status, 0) << r.err;
  auto notes = nlohmann::json::parse(r.out).at("notes").get<std::vector<std::string>>();
  EXPECT_EQ(std::count(notes.begin(), notes.end(), lossy + ": 7 events were lost by the recorder"),
            1) << r.out;
  // Nothing of the kind of the clean run (a loaded machine may have preempted it: that is said,
  // with the contention warning's words).
  for (const std::string& n : notes) {
    if (n.rfind(runs_[0] + ": preempted: ", 0) == 0) continue;
    if (n.rfind(runs_[0] + ": oversubscribed: ", 0) == 0) continue;
    EXPECT_NE(n.rfind(runs_[0] + ":", 0), 0u) << n;
  }
}

}  // namespace
}  // namespace tasklens::testing
