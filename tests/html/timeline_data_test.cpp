// The HTML report's timeline data (src/html/timeline_data.h) on a hand-made trace whose answer is
// known from its construction: which task is on top of the thread when, its construct, parent,
// creator and creation time, the dependence chain, the thread's states.
#include "html/timeline_data.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/two_thread_team.h"
#include "format/experiment.h"
#include "replay/replay.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

// Two threads. Thread 0's implicit task creates tasks A1, A2 (construct 0x2000, depend(inout: X):
// a chain) at 3 and 4 us and B (construct 0x2100) at 5 us; in the closing barrier thread 1 runs
// A1 from 6 to 16 us and A2 from 16 to 26 us, thread 0 runs B from 7 to 9 us. The region ends at
// 30 us, the program at 31 us.
std::string write_trace() {
  TraceBuilder t;
  t.thread_begin(1, 500).thread_begin(0, 0, 1);
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 1000, 100, 1, 2, 0x1000);
  t.implicit_begin(0, 2000, 2, 100, 2, 0);
  t.implicit_begin(1, 2000, 3, 100, 2, 1);
  t.sync(1, 2500, SyncKind::kBarrierImplicit, format::Endpoint::kBegin, 100, 3);
  t.sync_wait(1, 2500, SyncKind::kBarrierImplicit, format::Endpoint::kBegin, 100, 3);
  for (uint64_t k = 0; k < 2; ++k) {
    t.create(0, 3000 + 1000 * k, 10 + k, 2, 0x2000, format::task_flag::kExplicit, true);
    t.deps(0, 3000 + 1000 * k, 10 + k, {{0xA0, DependenceType::kInout}});
  }
  t.create(0, 5000, 12, 2, 0x2100);
  t.sync(0, 5500, SyncKind::kBarrierImplicit, format::Endpoint::kBegin, 100, 2);
  t.sync_wait(0, 5500, SyncKind::kBarrierImplicit, format::Endpoint::kBegin, 100, 2);
  t.schedule(1, 6000, 3, Status::kSwitch, 10);
  t.schedule(0, 7000, 2, Status::kSwitch, 12);
  t.schedule(0, 9000, 12, Status::kComplete, 2);
  t.schedule(1, 16000, 10, Status::kComplete, 3);
  t.schedule(1, 16000, 3, Status::kSwitch, 11);
  t.schedule(1, 26000, 11, Status::kComplete, 3);
  for (uint32_t th = 0; th < 2; ++th) {
    t.sync_wait(th, 30000, SyncKind::kBarrierImplicit, format::Endpoint::kEnd, 100, 2 + th);
    t.sync(th, 30000, SyncKind::kBarrierImplicit, format::Endpoint::kEnd, 100, 2 + th);
    t.implicit_end(th, 30000, 2 + th);
  }
  t.parallel_end(0, 30000, 100, 1, 0x1000);
  t.implicit_end(0, 31000, 1);
  t.thread_end(1, 31000);
  t.thread_end(0, 31000);
  return t.write();
}

struct Interval {
  int64_t begin, end, value;
};

// A change list [dt, value, ...] as intervals, the last one ending at `end`.
std::vector<Interval> intervals(const nlohmann::json& flat, int64_t end) {
  std::vector<Interval> out;
  int64_t t = 0;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) {
    t += flat[i].get<int64_t>();
    if (!out.empty()) out.back().end = t;
    out.push_back({t, end, flat[i + 1].get<int64_t>()});
  }
  return out;
}

nlohmann::json timeline_of(const std::string& dir) {
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(x.ok()) << (x.ok() ? "" : x.error().message);
  if (!x.ok()) return {};
  html::TimelineData data(*x, nullptr);
  std::vector<replay::Pass*> passes = {&data.pass()};
  auto stats = replay::run_replay(*x, passes);
  EXPECT_TRUE(stats.ok()) << (stats.ok() ? "" : stats.error().message);
  return data.json();
}

// The task numbers whose construct is at `codeptr`, in number order.
std::vector<int64_t> tasks_of(const nlohmann::json& tl, const std::string& codeptr) {
  std::vector<int64_t> out;
  const nlohmann::json& tasks = tl["tasks"];
  for (size_t i = 0; i < tasks["region"].size(); ++i) {
    const nlohmann::json& region = tl["regions"][tasks["region"][i].get<size_t>() - 1];
    if (region.value("codeptr", "") == codeptr && region["kind"] == "task") {
      out.push_back(int64_t(i + 1));
    }
  }
  return out;
}

// The intervals of thread `th` with task `number` on top.
std::vector<Interval> on_top(const nlohmann::json& tl, uint32_t th, int64_t number) {
  std::vector<Interval> out;
  for (const Interval& iv : intervals(tl["switches"][th], tl["run_ns"].get<int64_t>())) {
    if (iv.value == number) out.push_back(iv);
  }
  return out;
}

TEST(HtmlTimelineData, TasksOnTopWhereAndWhenTheyRanWithConstructCreatorAndChain) {
  nlohmann::json tl = timeline_of(write_trace());
  ASSERT_TRUE(tl.is_object());
  EXPECT_EQ(tl["run_ns"], 31000);
  ASSERT_EQ(tl["threads"], 2);
  std::vector<int64_t> a = tasks_of(tl, "0x2000"), b = tasks_of(tl, "0x2100");
  ASSERT_EQ(a.size(), 2u) << tl.dump();
  ASSERT_EQ(b.size(), 1u) << tl.dump();
  for (const auto& region : tl["regions"]) {
    if (region.value("codeptr", "") == "0x2000" && region["kind"] == "task") {
      EXPECT_EQ(region["name"], "task 0x2000");
    }
  }

  // Created on thread 0 by its implicit task at 3, 4 and 5 us.
  const nlohmann::json& tasks = tl["tasks"];
  std::vector<int64_t> created, parent;
  int64_t c = 0;
  for (size_t i = 0; i < tasks["created"].size(); ++i) {
    c += tasks["created"][i].get<int64_t>();
    created.push_back(c);
    int64_t back = tasks["parent"][i].get<int64_t>();
    parent.push_back(back ? int64_t(i + 1) - back : 0);
  }
  std::vector<int64_t> all = {a[0], a[1], b[0]};
  for (size_t k = 0; k < 3; ++k) {
    size_t i = size_t(all[k] - 1);
    EXPECT_EQ(created[i], int64_t(3000 + 1000 * k)) << "task " << k;
    EXPECT_EQ(tasks["creator"][i], 0) << "task " << k;
    ASSERT_GT(parent[i], 0) << "task " << k;
    const auto& parent_region =
        tl["regions"][tasks["region"][size_t(parent[i] - 1)].get<size_t>() - 1];
    EXPECT_EQ(parent_region["kind"], "implicit task") << "task " << k;
  }
  EXPECT_EQ(parent[size_t(a[0] - 1)], parent[size_t(b[0] - 1)]);

  // On top: A1 and A2 on thread 1 one after the other, B on thread 0, nowhere else.
  auto one = [](const std::vector<Interval>& ivs, int64_t begin, int64_t end) {
    return ivs.size() == 1 && ivs[0].begin == begin && ivs[0].end == end;
  };
  EXPECT_TRUE(one(on_top(tl, 1, a[0]), 6000, 16000)) << tl["switches"].dump();
  EXPECT_TRUE(one(on_top(tl, 1, a[1]), 16000, 26000)) << tl["switches"].dump();
  EXPECT_TRUE(one(on_top(tl, 0, b[0]), 7000, 9000)) << tl["switches"].dump();
  EXPECT_TRUE(on_top(tl, 0, a[0]).empty() && on_top(tl, 0, a[1]).empty());
  EXPECT_TRUE(on_top(tl, 1, b[0]).empty());

  // depend(inout) on one address: A1 -> A2, nothing else.
  EXPECT_EQ(tl["dependences"].get<std::vector<int64_t>>(), (std::vector<int64_t>{a[0], a[1]}));

  // Thread 1 runs task bodies exactly while A1 and A2 are on top: 20 us in 2.5 .. 30 us.
  std::vector<std::string> names = tl["state_names"].get<std::vector<std::string>>();
  int64_t running = 0;
  for (const Interval& iv : intervals(tl["states"][1], 31000)) {
    if (names.at(size_t(iv.value)) != "running") continue;
    running +=
        std::max<int64_t>(0, std::min<int64_t>(iv.end, 30000) - std::max<int64_t>(iv.begin, 2500));
  }
  EXPECT_EQ(running, 20000) << tl["states"].dump();
}

// `taskwait depend(...)` (libomp: a task flagged taskwait that never runs) is no task on the page:
// the timeline data are those of its plain taskwait twin (analysis/two_thread_team.h), one
// explicit task and no dependence, its construct no task construct.
TEST(HtmlTimelineData, TaskwaitDependIsNoTask) {
  TraceBuilder plain, depend;
  analysis::plain_twin_of_taskwait_depend(plain);
  analysis::taskwait_depend_on_other_thread(depend);
  nlohmann::json a = timeline_of(plain.write()), b = timeline_of(depend.write());
  EXPECT_EQ(b, a);
  EXPECT_EQ(b["tasks"]["count"], 3);  // the two implicit tasks and task 10
  EXPECT_TRUE(tasks_of(b, "0x5000").empty());
  EXPECT_TRUE(b["dependences"].empty());
}

}  // namespace
}  // namespace tasklens::testing
