// `tasklens report --profile` on a hand-made trace: the text (golden, with --depth) and the JSON
// keys docs/REPORT.md promises.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using format::Endpoint;

// One thread: two tasks of one construct run in the implicit task's taskwait, each setting depth.
//   1 us, 2 us   create A, create B (1 us each: until the next event)
//   3 us         taskwait begin
//   4 .. 10 us   A runs (6 us), depth=1        11 .. 21 us  B runs (10 us), depth=2
//   22 us        taskwait end (3 .. 22 = 19 us)
//   30 us        the implicit task ends: parallel 30 us, exclusive 30 - 19 - 2 = 9 us
//   40 us        the initial task ends: program 40 us, exclusive 10 us
// Creation to start: A 3 us, B 9 us: mean 6 us.
std::string write_trace() {
  TraceBuilder t;
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 0, 100, 1, 1, 0x1000);
  t.implicit_begin(0, 0, 2, 100, 1, 0);
  t.create(0, 1000, 5, 2, 0x2000);
  t.create(0, 2000, 6, 2, 0x2000);
  t.sync(0, 3000, SyncKind::kTaskwait, Endpoint::kBegin, 100, 2, 0x3100);
  t.schedule(0, 4000, 2, Status::kSwitch, 5);
  t.user_param(0, 4000, "depth", 1);
  t.schedule(0, 10000, 5, Status::kComplete, 2);
  t.schedule(0, 11000, 2, Status::kSwitch, 6);
  t.user_param(0, 11000, "depth", 2);
  t.schedule(0, 21000, 6, Status::kComplete, 2);
  t.sync(0, 22000, SyncKind::kTaskwait, Endpoint::kEnd, 100, 2, 0x3100);
  t.implicit_end(0, 30000, 2);
  t.parallel_end(0, 30000, 100, 1, 0x1000);
  t.implicit_end(0, 40000, 1);
  return t.write();
}

TEST(ProfileReport, TextWithDepthLimit) {
  std::string dir = write_trace();
  CommandResult r =
      run_command({tasklens_bin(), "report", dir, "--profile", "--depth", "1", "--no-symbols"});
  ASSERT_EQ(r.status, 0) << r.err;
  size_t at = r.out.find("Call-path profile");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(
      r.out.substr(at),
      "Call-path profile (Score-P, Lorenz et al.): time summed over threads, % of all threads' time "
      "(40.000 us),\n"
      "hottest paths first; [stub] = tasks of that construct ran at this point of the implicit "
      "task\n"
      "     inclusive      %    exclusive     visits    frags    mean incl     max incl  node\n"
      "     40.000 us 100.0%    10.000 us          1        1    40.000 us    40.000 us  "
      "program golden\n"
      "     30.000 us  75.0%     9.000 us          1        1    30.000 us    30.000 us    "
      "parallel 0x1000  (+2 below)\n"
      "\n"
      "Task trees (one per task construct; an instance's time stops while it is suspended)\n"
      "     inclusive      %    exclusive     visits    frags    mean incl     max incl  node\n"
      "     16.000 us  40.0%         0 ns          2        2     8.000 us    10.000 us  "
      "task 0x2000\n"
      "     10.000 us  25.0%    10.000 us          1        1    10.000 us    10.000 us    "
      "depth=2\n"
      "      6.000 us  15.0%     6.000 us          1        1     6.000 us     6.000 us    "
      "depth=1\n"
      "\n"
      "Task constructs (Score-P, Lorenz et al., Table I; creation = task_create to the creator's next event)\n"
      "  construct                     instances   mean time    min time    max time        "
      "total    creation    to start max/th\n"
      "  0x2000                                2    8.000 us    6.000 us   10.000 us    16.000 "
      "us    1.000 us    6.000 us      1\n"
      "\n"
      "Task 0x2000 by depth (Score-P, Lorenz et al., Table IV)\n"
      "           depth    mean time          sum    instances\n"
      "               1     6.000 us     6.000 us            1\n"
      "               2    10.000 us    10.000 us            1\n"
      "\n"
      "Most task instances active at once on one thread (Score-P, Lorenz et al., Table II): T0 1\n");
}

TEST(ProfileReport, JsonKeys) {
  std::string dir = write_trace();
  JsonReport r = report_json(dir, {"--profile"});
  ASSERT_EQ(r.command.status, 0) << r.command.err;
  ASSERT_FALSE(r.doc.is_discarded()) << r.command.out;
  const nlohmann::json& j = r.doc;
  for (const char* key : {"tasklens_report_version", "run", "breakdown", "profile", "tasks"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  const nlohmann::json& p = j["profile"];
  for (const char* key :
       {"threads", "total_time_ns", "thread_time_ns", "max_active_tasks_per_thread",
        "unmatched_ends", "bad_counter_samples", "trees", "task_trees"}) {
    EXPECT_TRUE(p.contains(key)) << key;
  }
  const nlohmann::json& program = p["trees"][0];
  EXPECT_EQ(program["kind"], "program");
  EXPECT_EQ(program["metrics"]["inclusive_ns"]["sum"], 40000);
  const nlohmann::json& parallel = program["children"][0];
  EXPECT_EQ(parallel["codeptr"], "0x1000");
  const nlohmann::json& taskwait = parallel["children"][0];
  EXPECT_EQ(taskwait["kind"], "taskwait");
  EXPECT_EQ(taskwait["metrics"]["exclusive_ns"]["sum"], 19000 - 16000);
  EXPECT_EQ(taskwait["children"][0]["kind"], "stub");
  EXPECT_EQ(taskwait["children"][0]["metrics"]["visits"], 2);
  EXPECT_EQ(taskwait["threads"][0]["thread"], 0);
  ASSERT_EQ(j["tasks"].size(), 1u);
  const nlohmann::json& task = j["tasks"][0];
  for (const char* key : {"codeptr", "location", "function", "created", "instances", "unfinished",
                          "discarded", "fragments", "migrations", "time_ns", "creation_ns",
                          "start_delay_ns", "max_active_per_thread", "parameters"}) {
    EXPECT_TRUE(task.contains(key)) << key;
  }
  EXPECT_EQ(task["time_ns"]["sum"], 16000);
  EXPECT_EQ(task["time_ns"]["mean"], 8000.0);
  EXPECT_EQ(task["creation_ns"]["mean"], 1000.0);
  EXPECT_EQ(task["start_delay_ns"]["mean"], 6000.0);
  EXPECT_EQ(task["parameters"][0]["name"], "depth");
  EXPECT_EQ(task["parameters"][0]["values"][1]["value"], 2);
  EXPECT_EQ(task["parameters"][0]["values"][1]["instances"], 1);
  EXPECT_EQ(task["parameters"][0]["values"][1]["time_ns"]["sum"], 10000);
}

}  // namespace
}  // namespace tasklens::testing
