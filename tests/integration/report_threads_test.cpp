// `tasklens report` on two threads says exactly what it says on one (issue 19): the sections'
// passes split over two replays fed by one decoding, and `check` beside them
// (replay/parallel_replay.h), give the same bytes as one replay of every pass and a check after
// it (TASKLENS_REPORT_THREADS=1), as text and as JSON.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

std::string construct_program(const std::string& name) {
  return std::string(TASKLENS_CONSTRUCT_PROGRAMS_DIR) + "/" + name;
}

// The report of `dir` with `options` on one thread and on two: both succeed, byte for byte the
// same; returns the output.
std::string same_on_one_and_two_threads(const std::string& dir,
                                        const std::vector<std::string>& options) {
  std::vector<std::string> argv = {tasklens_bin(), "report", dir};
  argv.insert(argv.end(), options.begin(), options.end());
  CommandResult one = run_command(argv, {"TASKLENS_REPORT_THREADS=1"});
  CommandResult two = run_command(argv, {"TASKLENS_REPORT_THREADS=2"});
  EXPECT_EQ(one.status, two.status) << two.err;
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.err, two.err);
  return two.out;
}

TEST(ReportThreads, FibIsTheSameOnTwoThreads) {
  // Few enough tasks that --all runs the what-if too (its pass in the first replay).
  Recording rec = record_run({example("fib"), "20"}, 2);
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  std::string json = same_on_one_and_two_threads(rec.dir, {"--all", "--json"});
  EXPECT_NE(json.find("\"what_if\""), std::string::npos);
  EXPECT_NE(json.find("\"profile\""), std::string::npos);
  EXPECT_NE(json.find("\"overheads\""), std::string::npos);
  same_on_one_and_two_threads(rec.dir, {"--all"});
  same_on_one_and_two_threads(rec.dir, {"--profile", "--json", "--no-symbols"});
}

TEST(ReportThreads, UntiedTasksAreTheSameOnTwoThreads) {
  Recording rec = record_run({example("untied")}, 2);
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  same_on_one_and_two_threads(rec.dir, {"--all", "--json"});
}

// Copies of one task construct are one construct in both replays: the replays share the
// symbolizer's answers (SharedConstructMap).
TEST(ReportThreads, CopiesOfAConstructAreOneInBothReplays) {
  Recording rec = record_run({construct_program("copies"), "-r", "2", "-c", "-f", "-x"}, 2);
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  same_on_one_and_two_threads(rec.dir, {"--all", "--json"});
  same_on_one_and_two_threads(rec.dir, {"--all"});
}

// The check reads the records the replays read: an inconsistent trace gives the same verdict.
TEST(ReportThreads, AnUnsoundTraceGivesTheSameVerdict) {
  TraceBuilder t;
  t.solo_begin();
  t.create(0, 1000, 5, 2, 0x2000);
  t.schedule(0, 2000, 2, Status::kSwitch, 5);
  t.schedule(0, 5000, 5, Status::kComplete, 2);
  t.schedule(0, 6000, 2, Status::kSwitch, 9);  // task 9 was never created
  t.schedule(0, 7000, 9, Status::kComplete, 2);
  t.solo_end(10000, 12000);
  std::string dir = t.write();
  std::string json = same_on_one_and_two_threads(dir, {"--all", "--json"});
  EXPECT_NE(json.find("\"sound\": false"), std::string::npos) << json.substr(0, 2000);
  same_on_one_and_two_threads(dir, {"--all"});
}

}  // namespace
}  // namespace tasklens::testing
