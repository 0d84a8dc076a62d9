// Golden tests of each format on the hand-made traces: the OTF2 archive read back by otf2-print
// (exact records), the Paraver files through the syntax check (and the relations expected), the
// Perfetto JSON through its check, the Perfetto protobuf through the test's decoder (equal to the
// JSON). The DOT graph's: dot_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "analysis/two_thread_team.h"
#include "export/export.h"
#include "export/export_checks.h"
#include "export/export_to.h"
#include "export/golden_traces.h"
#include "export/proto_writer.h"
#include "support/recording.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

// How both golden traces begin in OTF2: the initial task, the fork, the implicit task.
std::vector<std::string> after_opening(std::initializer_list<std::string> rest) {
  std::vector<std::string> all = {
      "THREAD_TASK_SWITCH 0 10 T0#1",    "ENTER 0 10 initial task (golden)",
      "ENTER 0 20 parallel 0x1000",      "THREAD_FORK 0 20",
      "THREAD_TEAM_BEGIN 0 30",          "THREAD_TASK_SWITCH 0 30 T0#2",
      "ENTER 0 30 implicit task 0x1000",
  };
  all.insert(all.end(), rest);
  return all;
}

// ---- OTF2 ---------------------------------------------------------------------------------------

TEST(Otf2Golden, ChildInsideTaskwaitKeepsTheParentsRegionsOpen) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  export_to(dir, *exports::find_export_format("otf2"), dir + "/out.otf2");
  Otf2Print p = expect_valid_otf2(dir + "/out.otf2");
  std::vector<std::string> expected = after_opening({
      "THREAD_TASK_CREATE 0 40 T0#3",
      "THREAD_TASK_SWITCH 0 50 T0#3",
      "ENTER 0 50 task 0x2000",
      "ENTER 0 55 work",
      "THREAD_TASK_CREATE 0 60 T0#4",
      "ENTER 0 70 taskwait 0x3000",
      "THREAD_TASK_SWITCH 0 80 T0#4",
      "ENTER 0 80 task 0x2100",
      "LEAVE 0 90 task 0x2100",
      "THREAD_TASK_COMPLETE 0 90 T0#4",
      "THREAD_TASK_SWITCH 0 90 T0#3",
      "LEAVE 0 100 taskwait 0x3000",
      "LEAVE 0 105 work",
      "LEAVE 0 110 task 0x2000",
      "THREAD_TASK_COMPLETE 0 110 T0#3",
      "THREAD_TASK_SWITCH 0 110 T0#2",
      "LEAVE 0 120 implicit task 0x1000",
      "THREAD_TEAM_END 0 120",
      "THREAD_TASK_SWITCH 0 120 T0#1",
      "LEAVE 0 130 parallel 0x1000",
      "THREAD_JOIN 0 130",
      "LEAVE 0 140 initial task (golden)",
  });
  EXPECT_EQ(otf2_lines(p), expected);
}

TEST(Otf2Golden, UntiedTaskResumedOnAnotherThreadReentersItsRegionsThere) {
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  export_to(dir, *exports::find_export_format("otf2"), dir + "/archive");
  Otf2Print p = expect_valid_otf2(dir + "/archive/traces.otf2");
  std::vector<std::string> expected = after_opening({
      "THREAD_TEAM_BEGIN 1 35",
      "THREAD_TASK_SWITCH 1 35 T1#1",
      "ENTER 1 35 implicit task 0x1000",
      "THREAD_TASK_CREATE 0 40 T0#3",
      "THREAD_TASK_SWITCH 0 50 T0#3",
      "ENTER 0 50 untied task 0x2000",
      "ENTER 0 55 phase",
      "LEAVE 0 60 phase",
      "LEAVE 0 60 untied task 0x2000",
      "THREAD_TASK_SWITCH 0 60 T0#2",
      "THREAD_TASK_SWITCH 1 70 T0#3",
      "ENTER 1 70 untied task 0x2000",
      "ENTER 1 70 phase",
      "LEAVE 1 80 phase",
      "LEAVE 1 90 untied task 0x2000",
      "THREAD_TASK_COMPLETE 1 90 T0#3",
      "THREAD_TASK_SWITCH 1 90 T1#1",
      "LEAVE 0 100 implicit task 0x1000",
      "THREAD_TEAM_END 0 100",
      "THREAD_TASK_SWITCH 0 100 T0#1",
      "LEAVE 1 105 implicit task 0x1000",
      "THREAD_TEAM_END 1 105",
      "LEAVE 0 110 parallel 0x1000",
      "THREAD_JOIN 0 110",
      "LEAVE 0 120 initial task (golden)",
  });
  EXPECT_EQ(otf2_lines(p), expected);
}

// Counters per task: a metric class per counter, a metric event (the running total) at each
// sample on the thread's location; the damaged sample (index 9) is not written.
TEST(Otf2Golden, CountersAreMetricsAtTheSwitches) {
  TraceBuilder t;
  std::string dir = taskwait_with_counters_trace(t);
  export_to(dir, *exports::find_export_format("otf2"), dir + "/out.otf2");
  Otf2Print p = expect_valid_otf2(dir + "/out.otf2");
  CommandResult defs = run_command({otf2_print_bin(), "-G", dir + "/out.otf2"});
  ASSERT_EQ(defs.status, 0) << defs.err;
  EXPECT_NE(defs.out.find("\"page-faults\""), std::string::npos) << defs.out;
  EXPECT_NE(defs.out.find("\"task-clock\""), std::string::npos) << defs.out;
  CommandResult events = run_command({otf2_print_bin(), dir + "/out.otf2"});
  ASSERT_EQ(events.status, 0) << events.err;
  std::vector<std::string> metrics;
  std::istringstream in(events.out);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("METRIC", 0) == 0 && line.find("ready tasks") == std::string::npos) {
      metrics.push_back(line);
    }
  }
  // Two counters at 50, 80, 90 and 110.
  ASSERT_EQ(metrics.size(), 8u) << events.out;
  EXPECT_NE(metrics[0].find("UINT64; 10)"), std::string::npos) << metrics[0];
  EXPECT_NE(metrics[1].find("UINT64; 1000)"), std::string::npos) << metrics[1];
  EXPECT_NE(metrics[7].find("UINT64; 1600)"), std::string::npos) << metrics[7];
}

TEST(Otf2Golden, WindowAndThreadFilter) {
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  exports::ExportOptions o;
  o.from_ns = 65;
  o.to_ns = 85;
  o.threads = {1};
  export_to(dir, *exports::find_export_format("otf2"), dir + "/w.otf2", o);
  Otf2Print p = expect_valid_otf2(dir + "/w.otf2");
  EXPECT_EQ(otf2_lines(p), (std::vector<std::string>{
                               "THREAD_TASK_SWITCH 1 65 T1#1",
                               "ENTER 1 65 implicit task 0x1000",
                               "THREAD_TASK_SWITCH 1 70 T0#3",
                               "ENTER 1 70 untied task 0x2000",
                               "ENTER 1 70 phase",
                               "LEAVE 1 80 phase",
                               "LEAVE 1 85 untied task 0x2000",
                               "LEAVE 1 85 implicit task 0x1000",
                           }));
}

TEST(Otf2Golden, ExportingAgainReplacesTheArchiveButNotAForeignDirectory) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  export_to(dir, *exports::find_export_format("otf2"), dir + "/again.otf2");
  export_to(dir, *exports::find_export_format("otf2"), dir + "/again.otf2");
  expect_valid_otf2(dir + "/again.otf2");
  std::filesystem::create_directories(dir + "/mine");
  std::ofstream(dir + "/mine/notes.txt") << "keep me";
  auto x = format::open_experiment(dir);
  auto s =
      exports::export_experiment(*x, *exports::find_export_format("otf2"), dir + "/mine.otf2", {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("is not an OTF2 event directory"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir + "/mine/notes.txt"));
}

// ---- Paraver ------------------------------------------------------------------------------------

TEST(ParaverGolden, MigrationCreationAndBothViews) {
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  export_to(dir, *exports::find_export_format("paraver"), dir + "/trace.prv");
  ParaverFacts f = expect_valid_paraver(dir + "/trace");
  // Two thread rows; task rows: T0#1, T0#2, T1#1, T0#3.
  EXPECT_EQ(f.threads_per_appl, (std::vector<uint32_t>{2, 4}));
  EXPECT_EQ(f.end_ns, 150u);
  // Created on thread 0 at 40, first run on thread 0 at 50; parent T0#2 (task row 2) to U (row 4).
  EXPECT_TRUE(has_line(f.lines, "3:1:1:1:1:40:40:1:1:1:1:50:50:0:1"));
  EXPECT_TRUE(has_line(f.lines, "3:0:2:1:2:40:40:0:2:1:4:50:50:0:1"));
  // Left thread 0 at 60, resumed on thread 1 at 70.
  EXPECT_TRUE(has_line(f.lines, "3:1:1:1:1:60:60:2:1:1:2:70:70:0:3"));
  // The task view of U: created (40-40 is empty), ready, running, ready (switched out), running.
  EXPECT_TRUE(has_line(f.lines, "1:0:2:1:4:40:50:4"));
  EXPECT_TRUE(has_line(f.lines, "1:0:2:1:4:50:60:1"));
  EXPECT_TRUE(has_line(f.lines, "1:0:2:1:4:60:70:4"));
  EXPECT_TRUE(has_line(f.lines, "1:0:2:1:4:70:90:1"));
  // Executing thread on U's row: thread 0 (1) at 50, none at 60, thread 1 (2) at 70.
  EXPECT_TRUE(has_line(f.lines, "2:0:2:1:4:50:60000005:1"));
  EXPECT_TRUE(has_line(f.lines, "2:0:2:1:4:60:60000005:0"));
  EXPECT_TRUE(has_line(f.lines, "2:0:2:1:4:70:60000005:2"));
  EXPECT_EQ(f.comm_tags[3], 1u);
}

// The events of one row at one time share a line, though the replay makes them interleaved with
// another row's: at 50, thread 0 switches to U (construct, instance, region), U's task row gets
// its executing thread, then thread 0's row the ready tasks.
TEST(ParaverGolden, EventsOfOneRowAndTimeShareALine) {
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  export_to(dir, *exports::find_export_format("paraver"), dir + "/trace.prv");
  ParaverFacts f = expect_valid_paraver(dir + "/trace");
  std::string joined;
  for (const std::string& l : f.lines) joined += l + "\n";
  EXPECT_EQ(f.split_event_lines, 0u) << joined;
  EXPECT_TRUE(has_line(f.lines, "2:1:1:1:1:50:60000002:4:60000003:4:60000001:4:60000004:0"))
      << joined;
  EXPECT_TRUE(has_line(f.lines, "2:0:2:1:4:50:60000005:1")) << joined;
}

// Counters per task (`--counters`): one event type per counter, the count since the thread's
// previous switch (the first sample only sets the base; the damaged one at 95 is ignored).
TEST(ParaverGolden, CountersAreEventsOfTheirOwnTypes) {
  TraceBuilder t;
  std::string dir = taskwait_with_counters_trace(t);
  export_to(dir, *exports::find_export_format("paraver"), dir + "/trace.prv");
  ParaverFacts f = expect_valid_paraver(dir + "/trace");
  EXPECT_EQ(f.event_types[60000050], 3u);
  EXPECT_EQ(f.event_types[60000051], 3u);
  std::string joined;
  for (const std::string& l : f.lines) joined += l + "\n";
  EXPECT_NE(joined.find(":80:60000050:5:60000051:300"), std::string::npos) << joined;
  EXPECT_NE(joined.find(":90:60000050:20:60000051:200"), std::string::npos) << joined;
  EXPECT_NE(joined.find(":110:60000050:1:60000051:100"), std::string::npos) << joined;
  std::ifstream pcf(dir + "/trace.pcf");
  std::string text((std::istreambuf_iterator<char>(pcf)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("60000050    page-faults (perf_event"), std::string::npos) << text;
  EXPECT_NE(text.find("60000051    task-clock (perf_event"), std::string::npos) << text;
}

TEST(ParaverGolden, DependenceIsARelationInBothViews) {
  TraceBuilder t;
  std::string dir = dependence_trace(t);
  export_to(dir, *exports::find_export_format("paraver"), dir + "/dep");
  ParaverFacts f = expect_valid_paraver(dir + "/dep");
  EXPECT_TRUE(has_line(f.lines, "3:1:1:1:1:50:50:2:1:1:2:60:60:0:2"));  // thread 0 -> thread 1
  EXPECT_TRUE(has_line(f.lines, "3:0:2:1:2:50:50:0:2:1:3:60:60:0:2"));  // task row 2 -> row 3
  // The successor waited for its dependence: created-not-ready from 30 to 50.
  EXPECT_TRUE(has_line(f.lines, "1:0:2:1:3:30:50:3"));
}

TEST(ParaverGolden, SharedTaskRowsAboveTheLimitAndSpilledSort) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  exports::ExportOptions o;
  o.max_task_rows = 1;      // rows shared by tasks that do not overlap
  o.sort_run_records = 16;  // several sorted runs merged from disk
  export_to(dir, *exports::find_export_format("paraver"), dir + "/shared.prv", o);
  ParaverFacts f = expect_valid_paraver(dir + "/shared");
  // All four tasks are alive together at 80 (initial, implicit, A, C): four rows, no fewer.
  EXPECT_EQ(f.threads_per_appl, (std::vector<uint32_t>{1, 4}));
  EXPECT_FALSE(std::filesystem::exists(dir + "/shared.prv-tmp"));
}

// A cancelled task ends twice in the task model (cancelled, then completed): its shared row was
// freed twice, and the next two tasks, alive together, were both given it.
TEST(ParaverGolden, ACancelledTasksSharedRowIsFreedOnce) {
  TraceBuilder t;
  one_thread_opening(t);
  t.create(0, 40, id(0, 3), id(0, 2), 0x2000);
  t.schedule(0, 50, id(0, 2), Status::kSwitch, id(0, 3));
  t.schedule(0, 60, id(0, 3), Status::kCancel, id(0, 2));
  t.create(0, 70, id(0, 4), id(0, 2), 0x2000);
  t.create(0, 80, id(0, 5), id(0, 2), 0x2000);
  t.schedule(0, 90, id(0, 2), Status::kSwitch, id(0, 4));
  t.schedule(0, 100, id(0, 4), Status::kComplete, id(0, 2));
  t.schedule(0, 110, id(0, 2), Status::kSwitch, id(0, 5));
  t.schedule(0, 120, id(0, 5), Status::kComplete, id(0, 2));
  t.implicit_end(0, 130, id(0, 2), id(0, 100), 1, 0);
  t.parallel_end(0, 140, id(0, 100), id(0, 1), 0x1000);
  t.implicit_end(0, 150, id(0, 1));
  t.thread_end(0, 160);
  std::string dir = t.write();
  exports::ExportOptions o;
  o.max_task_rows = 1;  // rows shared by tasks that do not overlap
  export_to(dir, *exports::find_export_format("paraver"), dir + "/cancel.prv", o);
  ParaverFacts f = expect_valid_paraver(dir + "/cancel");
  // Rows: initial task, implicit task, T0#3 (cancelled at 60, its row then taken by T0#4), T0#5:
  // T0#4 and T0#5 are alive together from 80 to 100.
  EXPECT_EQ(f.threads_per_appl, (std::vector<uint32_t>{1, 4}));
}

// ---- Perfetto ----------------------------------------------------------------------------------

TEST(PerfettoGolden, SlicesNestAndFlowsPair) {
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  auto s = export_to(dir, *exports::find_export_format("perfetto-json"), dir + "/trace.json");
  PerfettoFacts f = expect_valid_perfetto(dir + "/trace.json");
  EXPECT_EQ(f.flows["create"], 1u);
  EXPECT_EQ(f.flows["migration"], 1u);
  // Thread tracks: the untied task's frame on each thread, "phase" on each.
  EXPECT_EQ(f.slice_names["phase"], 2u);
  // Thread-track slices 3 + 3 (initial, parallel, implicit) ... plus the task view's.
  EXPECT_EQ(f.slice_names["untied task 0x2000"], 2u + 1u);  // two frames, one instance
  EXPECT_EQ(f.slice_names["ready (switched out)"], 1u);
  EXPECT_EQ(s.records_out, f.events);
}

TEST(PerfettoGolden, WarnsWhenTooBigForABrowser) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  exports::ExportOptions o;
  o.browser_events = 10;
  for (const char* format : {"perfetto", "perfetto-json"}) {
    auto s = export_to(dir, *exports::find_export_format(format), dir + "/big." + format, o);
    ASSERT_FALSE(s.notes.empty()) << format;
    EXPECT_NE(s.notes[0].find("warning: "), std::string::npos) << s.notes[0];
    EXPECT_NE(s.notes[0].find("too much for a browser"), std::string::npos) << s.notes[0];
  }
}

// The protobuf trace, decoded by the test's own reader, says what the JSON says: the same tracks,
// slices (name, begin, end, task arguments), arrows and counter values.
void expect_protobuf_equals_json(const std::string& dir) {
  auto sj = export_to(dir, *exports::find_export_format("perfetto-json"), dir + "/same.json");
  auto sp = export_to(dir, *exports::find_export_format("perfetto"), dir + "/same.pftrace");
  PerfettoFacts j = expect_valid_perfetto(dir + "/same.json");
  PerfettoFacts p = expect_valid_perfetto_proto(dir + "/same.pftrace");
  ASSERT_FALSE(j.slice_list.empty());
  EXPECT_EQ(p.slice_list, j.slice_list);
  EXPECT_EQ(p.flow_list, j.flow_list);
  EXPECT_EQ(p.flows, j.flows);
  EXPECT_EQ(p.unended_creations, j.unended_creations);
  EXPECT_EQ(p.counters, j.counters);
  EXPECT_EQ(p.tracks, j.tracks);
  EXPECT_EQ(sp.records_out, p.events);
  EXPECT_LT(p.bytes * 2, j.bytes);
}

TEST(PerfettoProtoGolden, TaskwaitTraceDecodesToTheJsonSlices) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  expect_protobuf_equals_json(dir);
  PerfettoFacts p = expect_valid_perfetto_proto(dir + "/same.pftrace");
  // The child C runs inside the taskwait of A, inside "work": exact slices on the thread track.
  auto on_thread = [&](const std::string& name, uint64_t b, uint64_t e, const std::string& args) {
    PerfettoSlice s{"golden threads / thread 0", name, b, e, args};
    return std::find(p.slice_list.begin(), p.slice_list.end(), s) != p.slice_list.end();
  };
  EXPECT_TRUE(on_thread("task 0x2000", 50, 110, "task=T0#3 parent=T0#2"));
  EXPECT_TRUE(on_thread("work", 55, 105, ""));
  EXPECT_TRUE(on_thread("taskwait 0x3000", 70, 100, ""));
  EXPECT_TRUE(on_thread("task 0x2100", 80, 90, "task=T0#4 parent=T0#3"));
  EXPECT_EQ(p.flows["create"], 2u);
  EXPECT_EQ(p.unended_creations, 0u);
  // The task ids are interned strings, each once: T0#1 ... T0#4 (the initial task's parent, no
  // task, is written as it is).
  EXPECT_EQ(p.interned_values, 4u);
}

// A creation arrow starts at the creation: C (T0#4) is created at 60 and starts at 80, after a
// window ending at 70, so its arrow has a start and no end, in both formats; A's (created at 40,
// started at 50) is whole. The ready-tasks count that changes at 60 rides on the arrow's start.
TEST(PerfettoProtoGolden, CreationArrowOfATaskNotStartedInTheWindow) {
  TraceBuilder t;
  std::string dir = taskwait_with_child_trace(t);
  exports::ExportOptions o;
  o.to_ns = 70;
  export_to(dir, *exports::find_export_format("perfetto-json"), dir + "/w.json", o);
  export_to(dir, *exports::find_export_format("perfetto"), dir + "/w.pftrace", o);
  PerfettoFacts j = expect_valid_perfetto(dir + "/w.json");
  PerfettoFacts p = expect_valid_perfetto_proto(dir + "/w.pftrace");
  EXPECT_EQ(p.flows["create"], 1u);
  EXPECT_EQ(p.unended_creations, 1u);
  EXPECT_EQ(j.unended_creations, 1u);
  EXPECT_EQ(p.flow_list, j.flow_list);
  EXPECT_EQ(p.slice_list, j.slice_list);
  EXPECT_EQ(p.counters, j.counters);
  // Counts at 0 (the window's start, before any event), 40, 50 and 60: all but the first ride on
  // an event packet at their instant (the arrows' starts at 40 and 60, A's frame at 50).
  EXPECT_EQ(p.counters, 4u);
  EXPECT_EQ(p.counter_packets, 1u);
}

TEST(PerfettoProtoGolden, UntiedMigrationDecodesToTheJsonSlices) {
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  expect_protobuf_equals_json(dir);
  PerfettoFacts p = expect_valid_perfetto_proto(dir + "/same.pftrace");
  EXPECT_EQ(p.flows["migration"], 1u);
  EXPECT_EQ(p.slice_names["ready (switched out)"], 1u);
}

TEST(PerfettoProtoGolden, DependenceDecodesToTheJsonSlices) {
  TraceBuilder t;
  std::string dir = dependence_trace(t);
  expect_protobuf_equals_json(dir);
  PerfettoFacts p = expect_valid_perfetto_proto(dir + "/same.pftrace");
  ASSERT_EQ(p.flows["dependence"], 1u);
  // From just before the predecessor's end on thread 0 to the successor's start on thread 1.
  bool found = false;
  for (const PerfettoFlow& fl : p.flow_list) {
    if (fl.kind == "dependence") {
      found = true;
      EXPECT_EQ(fl.from_ns, 49u);
      EXPECT_EQ(fl.to_ns, 60u);
      EXPECT_NE(fl.to_track.find("thread 1"), std::string::npos) << fl.to_track;
    }
  }
  EXPECT_TRUE(found);
}

// A task id reused while the first task's instance slice is open (its completion was lost): the
// old instance ends when the new task is created, in both formats, and its lane is free again.
TEST(PerfettoProtoGolden, ReusedIdEndsTheOldInstanceSlice) {
  TraceBuilder t;
  one_thread_opening(t);
  t.create(0, 40, id(0, 3), id(0, 2), 0x2000);
  t.schedule(0, 50, id(0, 2), Status::kSwitch, id(0, 3));
  t.schedule(0, 60, id(0, 3), Status::kYield, id(0, 2));  // ready again, never completed
  t.create(0, 70, id(0, 3), id(0, 2), 0x2000);            // the same id: a new task
  t.schedule(0, 80, id(0, 2), Status::kSwitch, id(0, 3));
  t.schedule(0, 90, id(0, 3), Status::kComplete, id(0, 2));
  std::string dir = close_one_thread(t);
  expect_protobuf_equals_json(dir);  // both valid: every slice ends
  PerfettoFacts p = expect_valid_perfetto_proto(dir + "/same.pftrace");
  std::vector<std::string> lanes;
  for (const PerfettoSlice& s : p.slice_list) {
    // The task construct's lanes (a tied task switched out by a yield shows as suspended).
    if (s.track.find("task 0x2000 / lane") == std::string::npos) continue;
    lanes.push_back(fmt::format("{} {} {}-{} {}", s.track.substr(s.track.rfind('/') + 2), s.name,
                                s.begin_ns, s.end_ns, s.args));
  }
  std::sort(lanes.begin(), lanes.end());
  EXPECT_EQ(lanes, (std::vector<std::string>{
                       "lane 0 suspended 60-70 ",
                       "lane 0 task 0x2000 50-70 task=T0#3 parent=T0#2",
                       "lane 0 task 0x2000 80-90 task=T0#3 parent=T0#2",
                   }));
}

// protoc, which knows nothing of Perfetto, parses the file as protobuf: every length and key is
// sound, and the strings are where the protos put them.
TEST(PerfettoProtoGolden, ProtocDecodesTheRawTrace) {
  if (protoc_bin().empty()) GTEST_SKIP() << "no protoc (scripts/setup.sh installs it)";
  TraceBuilder t;
  std::string dir = untied_migration_trace(t);
  export_to(dir, *exports::find_export_format("perfetto"), dir + "/raw.pftrace");
  CommandResult r =
      run_command({"/bin/sh", "-c", protoc_bin() + " --decode_raw < '" + dir + "/raw.pftrace'"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("5: \"thread 1\""), std::string::npos) << r.out;   // thread_name = 5
  EXPECT_NE(r.out.find("2: \"untied task 0x2000\""), std::string::npos);  // EventName.name = 2
  EXPECT_NE(r.out.find("13: 1\n"), std::string::npos);  // SEQ_INCREMENTAL_STATE_CLEARED
}

// The writer's encoding, byte by byte (protobuf.dev's encoding guide).
TEST(ProtoWriter, VarintsFixedAndNestedLengths) {
  exports::ProtoWriter w;
  w.uint_field(1, 150);  // the guide's example: 08 96 01
  EXPECT_EQ(w.data(), std::string("\x08\x96\x01", 3));
  w.clear();
  w.varint(0);
  w.varint(127);
  w.varint(128);
  w.varint(~uint64_t(0));
  EXPECT_EQ(w.data(), std::string("\x00\x7f\x80\x01", 4) + std::string(9, '\xff') + "\x01");
  w.clear();
  w.fixed64_field(47, 0x0102030405060708);  // key 47 << 3 | 1 = 377: f9 02
  EXPECT_EQ(w.data(), std::string("\xf9\x02\x08\x07\x06\x05\x04\x03\x02\x01", 10));
  w.clear();
  w.int_field(4, -1);  // ten bytes
  EXPECT_EQ(w.size(), 1u + 10u);
  w.clear();
  // A nested message: one length byte up to 127 bytes, moved when longer.
  size_t outer = w.open(1);
  size_t inner = w.open(2);
  w.bytes_field(3, std::string(200, 'x'));
  w.close(inner);
  w.close(outer);
  std::string d(w.data());
  ASSERT_EQ(d.size(), 1u + 2u + 1u + 2u + 1u + 2u + 200u);
  EXPECT_EQ(d.substr(0, 9), std::string("\x0a\xce\x01\x12\xcb\x01\x1a\xc8\x01", 9));
  EXPECT_EQ(d.back(), 'x');
}

TEST(ExportRegistry, NamesAliasesAndExtensionsAreUniqueAndFound) {
  std::set<std::string_view> names, extensions;
  ASSERT_GE(exports::export_formats().size(), 4u);
  for (const exports::ExportFormat* f : exports::export_formats()) {
    EXPECT_TRUE(names.insert(f->name).second) << f->name;
    EXPECT_EQ(exports::find_export_format(f->name), f);
    for (std::string_view a : f->aliases) {
      if (a.empty()) continue;
      EXPECT_TRUE(names.insert(a).second) << a;
      EXPECT_EQ(exports::find_export_format(a), f);
    }
    for (std::string_view e : f->extensions) {
      if (e.empty()) continue;
      EXPECT_TRUE(extensions.insert(e).second) << e;
      EXPECT_EQ(exports::export_format_for_path("dir/trace" + std::string(e)), f);
    }
    EXPECT_NE(f->make, nullptr);
    EXPECT_FALSE(f->help.empty());
  }
  EXPECT_EQ(exports::find_export_format("pdf"), nullptr);
  EXPECT_EQ(exports::export_format_for_path("trace.txt"), nullptr);
  EXPECT_EQ(exports::export_format_for_path(".json"), nullptr);  // a bare extension names no file
  EXPECT_EQ(exports::find_export_format("prv")->name, "paraver");
  EXPECT_EQ(exports::export_format_names(), "otf2, paraver, perfetto, perfetto-json, dot");
  EXPECT_EQ(exports::export_format_for_path("t.json")->name, "perfetto-json");
  EXPECT_EQ(exports::export_format_for_path("t.pftrace")->name, "perfetto");
}

}  // namespace
}  // namespace tasklens::testing
