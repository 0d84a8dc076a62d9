// The report's header tells the truth (issue 14 §10): counts in the singular when they are 1,
// what `tasklens check` says of the trace, and a verdict drawn from a trace that is not sound
// says so; `tasklens run`'s trace size counts the trace, not the link to libomp a GCC program
// runs on.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using format::Endpoint;
using nlohmann::json;

// One thread, one region, one task; `unsound` adds a switch to a task never created.
std::string one_task_trace(bool unsound) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 1000, 5, 2, 0x2000);
  t.schedule(0, 2000, 2, Status::kSwitch, 5);
  t.schedule(0, 5000, 5, Status::kComplete, 2);
  if (unsound) {
    t.schedule(0, 6000, 2, Status::kSwitch, 9);
    t.schedule(0, 7000, 9, Status::kComplete, 2);
  }
  t.solo_end(10000, 12000);
  return t.write();
}

TEST(ReportHeader, ASoundTraceSaysSoInTheSingularWhereItIsOne) {
  std::string dir = one_task_trace(false);
  CommandResult text = run_command({tasklens_bin(), "report", dir, "--all"});
  ASSERT_EQ(text.status, 0) << text.err;
  std::string header = text.out.substr(0, text.out.find('\n'));
  EXPECT_NE(header.find("(1 thread, "), std::string::npos) << header;
  EXPECT_NE(header.find("tasklens check: sound)"), std::string::npos) << header;
  EXPECT_EQ(text.out.find("not sound"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find(" 1 threads"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find(" 1 instances"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("seed 00"), std::string::npos) << text.out;
  JsonReport j = report_json(dir, {"--all"});
  ASSERT_EQ(j.command.status, 0);
  EXPECT_EQ(j.doc["run"]["check"]["sound"], true);
  EXPECT_EQ(j.doc["run"]["check"]["inconsistencies"], 0);
  EXPECT_FALSE(j.doc["breakdown"].contains("verdict_note"));
}

// --all leaves the what-if out of a run with more than 200,000 tasks (its simulations cost about
// 10 us per task) and says so; asked for by name, it runs. fib 25: 242,784 tasks.
TEST(ReportHeader, AllLeavesTheWhatIfOutOfABigRunAndSaysSo) {
  Recording rec = record_run({example("fib"), "25"}, 2);
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  JsonReport all = report_json(rec.dir, {"--all"});
  ASSERT_EQ(all.command.status, 0) << all.command.err;
  EXPECT_FALSE(all.doc.contains("what_if"));
  EXPECT_TRUE(all.doc.contains("graph"));
  bool said = false;
  for (const auto& w : all.doc["run"]["warnings"]) {
    said |= w.get<std::string>().rfind("the what_if section is left out of --all", 0) == 0;
  }
  EXPECT_TRUE(said) << all.doc["run"]["warnings"].dump();
  JsonReport asked = report_json(rec.dir, {"--all", "--what-if"});
  ASSERT_EQ(asked.command.status, 0) << asked.command.err;
  EXPECT_TRUE(asked.doc.contains("what_if"));
}

TEST(ReportHeader, AVerdictFromAnUnsoundTraceSaysSo) {
  std::string dir = one_task_trace(true);
  CommandResult check = run_command({tasklens_bin(), "check", dir});
  EXPECT_EQ(check.status, 1);
  // check says one inconsistency (the task never created; its completion counts too, so the
  // number comes from check itself).
  size_t at = check.out.find("not sound: ");
  ASSERT_NE(at, std::string::npos) << check.out;
  std::string reason = check.out.substr(at + 11, check.out.find('\n', at) - at - 11);

  CommandResult text = run_command({tasklens_bin(), "report", dir});
  ASSERT_EQ(text.status, 0) << text.err;
  std::string header = text.out.substr(0, text.out.find('\n'));
  EXPECT_NE(header.find("tasklens check: not sound: " + reason + ")"), std::string::npos)
      << header << "\n" << check.out;
  EXPECT_NE(text.out.find("warning: the trace is not sound (" + reason), std::string::npos)
      << text.out;
  JsonReport j = report_json(dir, {});
  ASSERT_EQ(j.command.status, 0);
  EXPECT_EQ(j.doc["run"]["check"]["sound"], false);
  EXPECT_EQ(j.doc["run"]["check"]["reason"], reason);
  EXPECT_GT(j.doc["run"]["check"]["inconsistencies"].get<uint64_t>(), 0u);
  ASSERT_TRUE(j.doc["breakdown"].contains("verdict_note"));
  EXPECT_NE(j.doc["breakdown"]["verdict_note"].get<std::string>().find(reason),
            std::string::npos);
}

// A GCC program runs on libomp through a link in the experiment directory: the summary's trace
// size is the size of the files the recorder wrote, without the library behind the link.
TEST(RunSummary, TraceSizeCountsTheTraceOnly) {
  std::string program = example("gcc/fib");
  if (access(program.c_str(), X_OK) != 0) GTEST_SKIP() << "no GCC build of fib";
  std::string dir = scratch_dir("gcc") + "/exp";
  CommandResult r =
      run_command({tasklens_bin(), "run", "-n", "2", "-o", dir, "--", program, "15"});
  ASSERT_EQ(r.status, 0) << r.err;
  namespace fs = std::filesystem;
  uint64_t written = 0;
  bool has_link = false;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_symlink()) has_link = true;
    if (!e.is_symlink() && e.is_regular_file()) written += e.file_size();
  }
  EXPECT_TRUE(has_link) << "the GCC run no longer links libomp into the experiment";
  size_t at = r.err.find("trace size");
  ASSERT_NE(at, std::string::npos) << r.err;
  double mib = std::strtod(r.err.c_str() + r.err.find_first_of("0123456789", at), nullptr);
  EXPECT_NEAR(mib * 1024 * 1024, double(written), 0.006 * 1024 * 1024) << r.err;
}

}  // namespace
}  // namespace tasklens::testing
