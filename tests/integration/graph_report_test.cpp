// `tasklens report --graph` on a hand-made trace: the critical path as runs (a dependence chain
// as such, the fork gap as runtime) and the JSON keys docs/REPORT.md promises for them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

using format::Endpoint;

// One thread: 10 us of serial code, a fork whose implicit task begins 50 us later, then the
// implicit task creates 4 tasks (depend(inout: A), 1 us apart) and runs them in its closing
// barrier, 10 us each; the initial task ends 5 us after the region.
//   0 .. 10 us  serial; 10 .. 60 us fork; 60 .. 64 us creating; 64 .. 104 us the chain
std::string write_trace() {
  TraceBuilder t;
  t.thread_begin(0, 0, 1).initial_task(0, 0, 1);
  t.parallel_begin(0, 10000, 100, 1, 1, 0x1000);
  t.implicit_begin(0, 60000, 2, 100, 1, 0);
  for (uint64_t k = 0; k < 4; ++k) {
    t.create(0, 61000 + 1000 * k, 10 + k, 2, 0x2000, format::task_flag::kExplicit, true);
    t.deps(0, 61000 + 1000 * k, 10 + k, {{0xA0, DependenceType::kInout}});
  }
  t.sync(0, 64000, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 2);
  t.sync_wait(0, 64000, SyncKind::kBarrierImplicit, Endpoint::kBegin, 100, 2);
  for (uint64_t k = 0; k < 4; ++k) {
    t.schedule(0, 64000 + 10000 * k, 2, Status::kSwitch, 10 + k);
    t.schedule(0, 74000 + 10000 * k, 10 + k, Status::kComplete, 2);
  }
  t.sync_wait(0, 104000, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 2);
  t.sync(0, 104000, SyncKind::kBarrierImplicit, Endpoint::kEnd, 100, 2);
  t.implicit_end(0, 104000, 2);
  t.parallel_end(0, 104000, 100, 1, 0x1000);
  t.implicit_end(0, 109000, 1);
  t.thread_end(0, 109000);
  return t.write();
}

TEST(GraphReport, ThePathInOrderWithTheForkAndTheChain) {
  std::string dir = write_trace();
  CommandResult r = run_command({tasklens_bin(), "report", dir, "--graph", "--no-symbols"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("runtime: fork of the parallel region at 0x1000"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("4 x task at 0x2000, chained by depend(inout)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("serial code (the initial task)"), std::string::npos) << r.out;

  r = run_command({tasklens_bin(), "report", dir, "--graph", "--json", "--no-symbols"});
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json g = nlohmann::json::parse(r.out)["graph"];
  // Path: serial 10 + fork 50 + creating 4 (to the last task's creation at 64) ... the chain
  // starts at the first task's creation (61): 10 + 50 + 1 + 40, then 5 after the join.
  EXPECT_EQ(g["span_ns"], 106000u);
  EXPECT_EQ(g["runtime_ns"], 50000u);
  EXPECT_EQ(g["path_runtime_ns"], 50000u);
  EXPECT_EQ(g["path_serial_ns"], 15000u);
  EXPECT_EQ(g["dependence_edges"], 3u);
  EXPECT_EQ(g["dependence_edges_satisfied_at_creation"], 0u);
  EXPECT_TRUE(g["creation_bound"].is_null());
  const nlohmann::json& runs = g["critical_path_runs"];
  ASSERT_EQ(runs.size(), 5u) << runs.dump(1);
  EXPECT_EQ(runs[0]["serial"], true);
  EXPECT_EQ(runs[1]["kind"], "fork");
  EXPECT_EQ(runs[1]["codeptr"], "0x1000");
  EXPECT_EQ(runs[1]["ns"], 50000u);
  EXPECT_EQ(runs[2]["creates"], 1u);
  EXPECT_EQ(runs[3]["tasks"], 4u);
  EXPECT_EQ(runs[3]["chained"], 3u);
  EXPECT_EQ(runs[3]["dependence_type"], "inout");
  EXPECT_EQ(runs[3]["via"], "created");
  EXPECT_EQ(runs[4]["via"], "join");
  bool runtime_share = false;
  for (const nlohmann::json& share : g["critical_path"]) {
    runtime_share |= share.value("runtime", false) && share["ns"] == 50000u;
  }
  EXPECT_TRUE(runtime_share);
  ASSERT_EQ(g["grains"].size(), 1u);
  EXPECT_EQ(g["grains"][0]["depths"].size(), 1u);  // all created by the implicit task
}

}  // namespace
}  // namespace tasklens::testing
