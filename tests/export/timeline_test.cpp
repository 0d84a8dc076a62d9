// Golden tests of the timeline every timeline export is written from: the exact calls a sink
// receives for the tricky cases (a child run inside a taskwait, an untied task resumed on another
// thread), the time window and the thread filter.
#include "export/timeline.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/two_thread_team.h"
#include "export/golden_traces.h"
#include "export/output.h"
#include "replay/replay.h"

namespace tasklens::testing {
namespace {

using exports::Filter;
using exports::SwitchInfo;
using exports::ThreadState;
using exports::TimelineTask;
using format::Endpoint;

// Writes every call as one line: "<time> T<thread> <what>".
class RecordingSink : public exports::TimelineSink {
 public:
  std::vector<std::string> log;

  void begin(const exports::TimelineInfo& info) override { regions_ = info.regions; }
  void enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask&) override {
    add(t, th, "enter " + regions_->at(region).name);
  }
  void leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask&) override {
    add(t, th, "leave " + regions_->at(region).name);
  }
  void task_create(uint32_t th, uint64_t t, TimelineTask& task, const TimelineTask*) override {
    add(t, th, "create " + exports::id_text(task.id));
  }
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override {
    std::string s = "switch " + (task ? exports::id_text(task->id) : std::string("none"));
    if (how.first) s += " first";
    if (how.resumed_here) s += " uncovered";
    if (how.from_thread != exports::kNoThread && how.from_thread != th) {
      s += fmt::format(" from T{} at {}", how.from_thread, how.out_ns);
    }
    if (task) {
      for (const auto& d : task->deps_in) {
        s += fmt::format(" after {} (T{} at {})", exports::id_text(d.pred), d.thread, d.end_ns);
      }
    }
    add(t, th, s);
  }
  void task_end(uint32_t th, uint64_t t, TimelineTask& task) override {
    add(t, th, "end " + exports::id_text(task.id));
  }
  void wait_dependences(uint32_t th, uint64_t t, TimelineTask& task,
                        const std::vector<exports::DepIn>& deps) override {
    std::string s = "waited " + exports::id_text(task.id);
    for (const auto& d : deps) {
      s += fmt::format(" after {} (T{} at {})", exports::id_text(d.pred), d.thread, d.end_ns);
    }
    add(t, th, s);
  }
  void task_state(uint64_t t, TimelineTask& task, replay::TaskState s) override {
    log.push_back(
        fmt::format("{} task {} {}", t, exports::id_text(task.id), replay::task_state_name(s)));
  }
  void thread_state(uint32_t th, uint64_t t, ThreadState s) override {
    add(t, th, std::string("thread ") + exports::thread_state_name(s));
  }
  void ready_tasks(uint64_t t, uint64_t n) override {
    log.push_back(fmt::format("{} ready {}", t, n));
  }
  void task_alive_at_end(uint64_t t, TimelineTask& task) override {
    log.push_back(fmt::format("{} alive {}", t, exports::id_text(task.id)));
  }
  void end(uint64_t t) override { log.push_back(fmt::format("{} end", t)); }

 private:
  void add(uint64_t t, uint32_t th, const std::string& what) {
    log.push_back(fmt::format("{} T{} {}", t, th, what));
  }
  const exports::RegionTable* regions_ = nullptr;
};

// The lines of `log` whose verb (the word after the time and the thread) is one of `verbs`.
std::vector<std::string> only(const std::vector<std::string>& log,
                              std::initializer_list<const char*> verbs) {
  std::vector<std::string> out;
  for (const auto& line : log) {
    size_t at = line.find(' ') + 1;
    if (line[at] == 'T' && line[at + 1] >= '0' && line[at + 1] <= '9') at = line.find(' ', at) + 1;
    std::string verb = line.substr(at, line.find(' ', at) - at);
    for (const char* v : verbs) {
      if (verb == v) {
        out.push_back(line);
        break;
      }
    }
  }
  return out;
}

// The thread a line is about ("T1" in "70 T1 switch ..."), or "" for task lines.
std::string thread_of(const std::string& line) {
  size_t at = line.find(' ') + 1;
  if (line[at] != 'T') return "";
  return line.substr(at, line.find(' ', at) - at);
}

// How both golden traces begin on thread 0: the initial task, the parallel, the implicit task.
const std::vector<std::string> kOpening = {
    "10 T0 switch T0#1 first", "10 T0 enter initial task (golden)", "20 T0 enter parallel 0x1000",
    "30 T0 switch T0#2 first", "30 T0 enter implicit task 0x1000",
};

std::vector<std::string> after_opening(std::initializer_list<std::string> rest) {
  std::vector<std::string> all = kOpening;
  all.insert(all.end(), rest);
  return all;
}

struct Replayed {
  std::vector<std::string> log;
  exports::TimelineStats stats;
};

Replayed replay_timeline(const std::string& dir, const Filter& filter = Filter{}) {
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(x.ok());
  RecordingSink sink;
  exports::RegionTable regions(*x, nullptr);
  exports::TimelinePass pass(sink, regions, filter);
  auto stats = replay::run_replay(*x, {&pass});
  EXPECT_TRUE(stats.ok());
  return Replayed{sink.log, pass.stats()};
}

TEST(Timeline, ChildRunsInsideTheTaskwaitOfItsSuspendedParent) {
  TraceBuilder t;
  Replayed r = replay_timeline(taskwait_with_child_trace(t));
  // A's regions stay open below C (the thread's call stack); nothing is left and re-entered.
  std::vector<std::string> expected = after_opening({
      "40 T0 create T0#3",
      "50 T0 switch T0#3 first",
      "50 T0 enter task 0x2000",
      "55 T0 enter work",
      "60 T0 create T0#4",
      "70 T0 enter taskwait 0x3000",
      "80 T0 switch T0#4 first",
      "80 T0 enter task 0x2100",
      "90 T0 leave task 0x2100",
      "90 T0 end T0#4",
      "90 T0 switch T0#3 uncovered",
      "100 T0 leave taskwait 0x3000",
      "105 T0 leave work",
      "110 T0 leave task 0x2000",
      "110 T0 end T0#3",
      "110 T0 switch T0#2 uncovered",
      "120 T0 leave implicit task 0x1000",
      "120 T0 end T0#2",
      "120 T0 switch T0#1 uncovered",
      "130 T0 leave parallel 0x1000",
      "140 T0 leave initial task (golden)",
      "140 T0 end T0#1",
      "140 T0 switch none uncovered",
      "150 end",
  });
  EXPECT_EQ(only(r.log, {"enter", "leave", "switch", "create", "end"}), expected);
  EXPECT_EQ(r.stats.unmatched_leaves, 0u);
  EXPECT_EQ(r.stats.implicit_leaves, 0u);
  EXPECT_EQ(r.stats.stray_frames, 0u);
}

// libomp's order at a region's end: the worker's closing barrier and its implicit task end only
// when the exit releases it (here at 900, after the initial thread's serial code). Both end with
// the region instead, its task too, and the late ends are left out.
// `flags`: the two implicit tasks' (kInitial: the teams of a host `teams` league).
std::string late_barrier_end_trace(TraceBuilder& t, uint32_t flags = format::task_flag::kImplicit) {
  const uint64_t region = id(0, 100);
  t.thread_begin(0, 5, 1);
  t.initial_task(0, 10, id(0, 1));
  t.parallel_begin(0, 20, region, id(0, 1), 2, 0x1000);
  t.implicit_begin(0, 30, id(0, 2), region, 2, 0, flags);
  t.thread_begin(1, 32, 2);
  t.implicit_begin(1, 35, id(1, 1), region, 2, 1, flags);
  t.sync(1, 60, SyncKind::kBarrierImplicit, Endpoint::kBegin, region, id(1, 1), 0);
  t.sync(0, 70, SyncKind::kBarrierImplicit, Endpoint::kBegin, region, id(0, 2), 0x1000);
  t.sync(0, 80, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, id(0, 2), 0x1000);
  t.implicit_end(0, 90, id(0, 2), 0, 2, 0);
  t.parallel_end(0, 110, region, id(0, 1), 0x1000);
  t.sync(1, 900, SyncKind::kBarrierImplicit, Endpoint::kEnd, 0, id(1, 1), 0);
  t.implicit_end(1, 900, id(1, 1), 0, 0, 1);
  t.thread_end(1, 910);
  t.implicit_end(0, 920, id(0, 1));
  t.thread_end(0, 950);
  return t.write();
}

TEST(Timeline, AWorkersLateBarrierEndEndsWithTheRegion) {
  TraceBuilder t;
  Replayed r = replay_timeline(late_barrier_end_trace(t));
  std::vector<std::string> worker;
  for (const auto& line : only(r.log, {"enter", "leave", "end"})) {
    if (thread_of(line) == "T1") worker.push_back(line);
  }
  EXPECT_EQ(worker, (std::vector<std::string>{
                        "35 T1 enter implicit task 0x1000", "60 T1 enter implicit barrier 0x1000",
                        "110 T1 leave implicit barrier 0x1000", "110 T1 leave implicit task 0x1000",
                        "110 T1 end T1#1"}));
  std::vector<std::string> states;
  for (const auto& line : only(r.log, {"task"})) {
    if (line.find("T1#1") != std::string::npos) states.push_back(line);
  }
  ASSERT_FALSE(states.empty());
  EXPECT_EQ(states.back(), "110 task T1#1 completed");
  // The worker is idle from the region's end, not in synchronization until 900.
  std::vector<std::string> thread1;
  for (const auto& line : only(r.log, {"thread"})) {
    if (thread_of(line) == "T1") thread1.push_back(line);
  }
  ASSERT_GE(thread1.size(), 2u);
  EXPECT_EQ(thread1[thread1.size() - 2], "110 T1 thread idle");
  EXPECT_EQ(thread1.back(), "910 T1 thread not created");
  EXPECT_EQ(r.stats.unmatched_leaves, 0u);
  EXPECT_EQ(r.stats.implicit_leaves, 0u);
}

// A host `teams` construct: libomp reports the league's region with the teams' initial tasks
// (initial, not implicit), and the second team's initial task ends late as a worker's does.
TEST(Timeline, ATeamsInitialTaskEndsWithTheLeague) {
  TraceBuilder t;
  Replayed r = replay_timeline(late_barrier_end_trace(t, format::task_flag::kInitial));
  std::vector<std::string> worker;
  for (const auto& line : only(r.log, {"leave", "end"})) {
    if (thread_of(line) == "T1") worker.push_back(line.substr(0, line.find(' ')));
  }
  EXPECT_EQ(worker, (std::vector<std::string>{"110", "110", "110"}));
  EXPECT_EQ(r.stats.unmatched_leaves, 0u);
}

// A window that opens after the region's end, before libomp's late report (or closes between
// them): the worker's implicit task ended at 110 (the replay moves its late ends there), so it is
// neither announced at the window's start (its row would then stay open) nor alive at the
// window's end. A window over the region's end sees it leave its barrier and end, as the
// initial thread's does.
TEST(Timeline, AWindowAfterTheRegionShowsNoWorkerTaskEndedWithIt) {
  for (auto [from, to] : {std::pair<uint64_t, uint64_t>{200, 950}, {100, 500}}) {
    SCOPED_TRACE(fmt::format("window {}..{}", from, to));
    TraceBuilder t;
    Filter window;
    window.from_ns = from;
    window.to_ns = to;
    Replayed r = replay_timeline(late_barrier_end_trace(t), window);
    std::vector<std::string> worker_task;
    for (const auto& line : only(r.log, {"task", "alive"})) {
      if (line.find("T1#1") != std::string::npos) worker_task.push_back(line);
    }
    if (from < 110) {
      EXPECT_EQ(worker_task,
                (std::vector<std::string>{"100 task T1#1 ready", "110 task T1#1 running",
                                          "110 task T1#1 executed", "110 task T1#1 completed"}));
    } else {
      EXPECT_EQ(worker_task, std::vector<std::string>{});
    }
  }
}

TEST(Timeline, ThreadAndTaskStatesFollowTheModel) {
  TraceBuilder t;
  Replayed r = replay_timeline(taskwait_with_child_trace(t));
  // Waiting while a task is ready is overhead (POT): C at 70-80, A itself at 90-100 (its
  // taskwait could end but the thread has not noticed yet).
  EXPECT_EQ(
      only(r.log, {"thread"}),
      (std::vector<std::string>{
          "0 T0 thread not created", "5 T0 thread idle", "10 T0 thread running",
          "70 T0 thread runtime overhead", "80 T0 thread running", "90 T0 thread runtime overhead",
          "100 T0 thread running", "140 T0 thread idle", "150 T0 thread not created"}));
  std::vector<std::string> tasks = {
      "10 task T0#1 running",     "30 task T0#1 suspended",   "30 task T0#2 running",
      "40 task T0#3 initialized", "40 task T0#3 ready",       "50 task T0#2 suspended",
      "50 task T0#3 running",     "60 task T0#4 initialized", "60 task T0#4 ready",
      "70 task T0#3 suspended",   "80 task T0#4 running",     "90 task T0#4 executed",
      "90 task T0#4 completed",   "90 task T0#3 ready",       "100 task T0#3 running",
      "110 task T0#3 executed",   "110 task T0#3 completed",  "110 task T0#2 running",
      "120 task T0#2 executed",   "120 task T0#2 completed",  "120 task T0#1 running",
      "140 task T0#1 executed",   "140 task T0#1 completed"};
  EXPECT_EQ(only(r.log, {"task"}), tasks);
}

TEST(Timeline, UntiedTaskLeavesItsContextAndReentersItOnTheOtherThread) {
  TraceBuilder t;
  Replayed r = replay_timeline(untied_migration_trace(t));
  std::vector<std::string> expected = after_opening({
      "35 T1 switch T1#1 first",
      "35 T1 enter implicit task 0x1000",
      "40 T0 create T0#3",
      "50 T0 switch T0#3 first",
      "50 T0 enter untied task 0x2000",
      "55 T0 enter phase",
      // Switched out at a scheduling point: the frame leaves, innermost first.
      "60 T0 leave phase",
      "60 T0 leave untied task 0x2000",
      "60 T0 switch T0#2 uncovered",
      // Resumed on thread 1: the frame is entered again there, outermost first.
      "70 T1 switch T0#3 from T0 at 60",
      "70 T1 enter untied task 0x2000",
      "70 T1 enter phase",
      "80 T1 leave phase",
      "90 T1 leave untied task 0x2000",
      "90 T1 end T0#3",
      "90 T1 switch T1#1 uncovered",
      "100 T0 leave implicit task 0x1000",
      "100 T0 end T0#2",
      "100 T0 switch T0#1 uncovered",
      "105 T1 leave implicit task 0x1000",
      "105 T1 end T1#1",
      "105 T1 switch none uncovered",
      "110 T0 leave parallel 0x1000",
      "120 T0 leave initial task (golden)",
      "120 T0 end T0#1",
      "120 T0 switch none uncovered",
      "150 end",
  });
  EXPECT_EQ(only(r.log, {"enter", "leave", "switch", "create", "end"}), expected);
  EXPECT_EQ(r.stats.stray_frames, 0u);
}

TEST(Timeline, WindowEntersOpenRegionsAtItsStartAndLeavesThemAtItsEnd) {
  TraceBuilder t;
  Filter window;
  window.from_ns = 75;
  window.to_ns = 102;
  Replayed r = replay_timeline(taskwait_with_child_trace(t), window);
  std::vector<std::string> expected = {
      "75 T0 enter initial task (golden)",
      "75 T0 enter parallel 0x1000",
      "75 T0 enter implicit task 0x1000",
      "75 T0 switch T0#3 uncovered",
      "75 T0 enter task 0x2000",
      "75 T0 enter work",
      "75 T0 enter taskwait 0x3000",
      "80 T0 switch T0#4 first",
      "80 T0 enter task 0x2100",
      "90 T0 leave task 0x2100",
      "90 T0 end T0#4",
      "90 T0 switch T0#3 uncovered",
      "100 T0 leave taskwait 0x3000",
      "102 T0 leave work",
      "102 T0 leave task 0x2000",
      "102 T0 leave implicit task 0x1000",
      "102 T0 leave parallel 0x1000",
      "102 T0 leave initial task (golden)",
      "102 end",
  };
  EXPECT_EQ(only(r.log, {"enter", "leave", "switch", "create", "end"}), expected);
}

TEST(Timeline, ThreadFilterShowsOnlyTheSelectedThreads) {
  TraceBuilder t;
  Filter f;
  f.threads = {false, true};
  Replayed r = replay_timeline(untied_migration_trace(t), f);
  for (const auto& line : r.log) EXPECT_NE(thread_of(line), "T0") << line;
  std::vector<std::string> expected = {
      "35 T1 switch T1#1 first",
      "35 T1 enter implicit task 0x1000",
      "70 T1 switch T0#3 from T0 at 60",
      "70 T1 enter untied task 0x2000",
      "70 T1 enter phase",
      "80 T1 leave phase",
      "90 T1 leave untied task 0x2000",
      "90 T1 end T0#3",
      "90 T1 switch T1#1 uncovered",
      "105 T1 leave implicit task 0x1000",
      "105 T1 end T1#1",
      "105 T1 switch none uncovered",
      "150 end",
  };
  EXPECT_EQ(only(r.log, {"enter", "leave", "switch", "create", "end"}), expected);
  // Tasks created on thread 0 are not in the task view of thread 1 alone.
  for (const auto& line : only(r.log, {"task"})) {
    EXPECT_EQ(line.find("task T0#"), std::string::npos) << line;
  }
}

TEST(Timeline, DependenceReachesTheSuccessorWhenItStarts) {
  TraceBuilder t;
  Replayed r = replay_timeline(dependence_trace(t));
  auto about = [&](const std::string& what) {
    std::vector<std::string> out;
    for (const auto& line : r.log) {
      if (line.find(what) != std::string::npos) out.push_back(line);
    }
    return out;
  };
  EXPECT_EQ(about("switch T0#3"),
            (std::vector<std::string>{"60 T1 switch T0#3 first after T0#2 (T0 at 50)"}));
  EXPECT_EQ(about("task T0#3"),
            (std::vector<std::string>{"30 task T0#3 initialized", "50 task T0#3 ready",
                                      "60 task T0#3 running", "70 task T0#3 executed",
                                      "70 task T0#3 completed"}));
}

TEST(Timeline, EndWithoutBeginIsIgnoredAndUnclosedRegionsCloseWithTheirTask) {
  TraceBuilder t;
  t.initial_task(0, 10, id(0, 1));
  t.sync(0, 20, SyncKind::kTaskwait, format::Endpoint::kEnd, 0, id(0, 1));  // never began
  t.create(0, 30, id(0, 2), id(0, 1));
  t.schedule(0, 40, id(0, 1), Status::kSwitch, id(0, 2));
  t.user_region(0, 50, format::Endpoint::kBegin, "left open");
  t.schedule(0, 60, id(0, 2), Status::kComplete, id(0, 1));
  t.implicit_end(0, 70, id(0, 1));
  Replayed r = replay_timeline(t.write());
  EXPECT_EQ(r.stats.unmatched_leaves, 1u);
  EXPECT_EQ(r.stats.implicit_leaves, 1u);
  EXPECT_EQ(
      only(r.log, {"enter", "leave"}),
      (std::vector<std::string>{"10 T0 enter initial task (golden)", "40 T0 enter task 0x2000",
                                "50 T0 enter left open", "60 T0 leave left open",
                                "60 T0 leave task 0x2000", "70 T0 leave initial task (golden)"}));
}

// A task id created again while its first task still runs (a damaged or id-reusing trace): the
// first task's frame leaves its stack at once, so no frame is left without a task once the second
// completes (found by the fuzzer: a region entered in that task dereferenced a null task).
TEST(Timeline, IdCreatedAgainWhileItRunsLeavesNoFrameBehind) {
  TraceBuilder t;
  two_thread_opening(t);
  t.create(0, 40, id(0, 3), id(0, 2));
  t.schedule(0, 50, id(0, 2), Status::kSwitch, id(0, 3));
  t.create(0, 55, id(0, 3), id(0, 3));                       // the running task's id, created again
  t.schedule(1, 60, id(0, 3), Status::kComplete, id(1, 1));  // ... and completed elsewhere
  t.sync(0, 70, SyncKind::kTaskwait, format::Endpoint::kBegin, 0, id(0, 3));
  t.sync(0, 80, SyncKind::kTaskwait, format::Endpoint::kEnd, 0, id(0, 3));
  t.schedule(0, 90, id(0, 3), Status::kComplete, id(0, 2));
  two_thread_closing(t);
  Replayed r = replay_timeline(t.write());
  EXPECT_EQ(r.stats.stray_frames, 1u);
  // The first T0#3 leaves when its id is created again; the second completes on T1 without
  // running; the taskwait's T0#3 is then a task the trace did not create (construct unknown).
  EXPECT_EQ(only(r.log, {"enter", "leave"}),
            (std::vector<std::string>{
                "10 T0 enter initial task (golden)", "20 T0 enter parallel 0x1000",
                "30 T0 enter implicit task 0x1000", "35 T1 enter implicit task 0x1000",
                "50 T0 enter task 0x2000", "55 T0 leave task 0x2000", "70 T0 enter task",
                "70 T0 enter taskwait 0x3000", "80 T0 leave taskwait 0x3000", "90 T0 leave task",
                "100 T0 leave implicit task 0x1000", "105 T1 leave implicit task 0x1000",
                "110 T0 leave parallel 0x1000", "120 T0 leave initial task (golden)"}));
}

// `taskwait depend(in: A)`, as libomp reports it (task 11, flagged taskwait, never runs, ends with
// taskwait_complete): the sink sees its creator's taskwait 20..140 exactly as in the plain twin,
// and nothing of task 11 (no creation, state or frame). The clause's dependence (task 10, done on
// thread 1 at 130) reaches the wait's end; a later task naming A depends on the wait's end.
TEST(Timeline, TaskwaitDependIsItsCreatorsTaskwait) {
  TraceBuilder plain, depend;
  analysis::plain_twin_of_taskwait_depend(plain);
  analysis::taskwait_depend_on_other_thread(depend);
  Replayed a = replay_timeline(plain.write()), b = replay_timeline(depend.write());
  EXPECT_EQ(only(b.log, {"waited"}),
            (std::vector<std::string>{"140 T0 waited 1 after 10 (T1 at 130)"}));
  std::vector<std::string> rest;
  for (const auto& line : b.log) {
    if (line.find(" waited ") == std::string::npos) rest.push_back(line);
  }
  EXPECT_EQ(rest, a.log);
  EXPECT_EQ(only(b.log, {"enter", "leave"}),
            (std::vector<std::string>{
                "0 T0 enter implicit task", "0 T1 enter implicit task",
                "5 T1 enter implicit barrier 0x3000", "20 T0 enter taskwait 0x5000",
                "30 T1 enter task 0x2000", "130 T1 leave task 0x2000",
                "140 T0 leave taskwait 0x5000", "150 T0 enter implicit barrier 0x3000",
                "160 T0 leave implicit barrier 0x3000", "160 T1 leave implicit barrier 0x3000",
                "170 T0 leave implicit task", "170 T1 leave implicit task"}));
  EXPECT_EQ(b.stats.unmatched_leaves + b.stats.implicit_leaves + b.stats.stray_frames, 0u);

  TraceBuilder t;
  analysis::team(t, 5);
  t.create(0, 10, 10, analysis::kI0, 0x2000, format::task_flag::kExplicit, true);
  t.deps(0, 10, 10, {{0xA0, DependenceType::kOut}});
  t.create(0, 20, 11, analysis::kI0, 0x5000, analysis::kTaskwaitDependFlags, true);
  t.deps(0, 20, 11, {{0xA0, DependenceType::kIn}});
  t.schedule(1, 30, analysis::kI1, Status::kSwitch, 10);
  t.schedule(1, 130, 10, Status::kComplete, analysis::kI1);
  t.schedule(0, 140, 11, Status::kTaskwaitComplete, 0);
  t.create(0, 142, 12, analysis::kI0, 0x2100, format::task_flag::kExplicit, true);
  t.deps(0, 142, 12, {{0xA0, DependenceType::kInout}});
  analysis::arrive(t, 0, 145);
  t.schedule(0, 146, analysis::kI0, Status::kSwitch, 12);
  t.schedule(0, 150, 12, Status::kComplete, analysis::kI0);
  analysis::team_end(t, 160, 200);
  Replayed c = replay_timeline(t.write());
  std::vector<std::string> starts;
  for (const auto& line : only(c.log, {"switch"})) {
    if (line.find(" first") != std::string::npos) starts.push_back(line);
  }
  EXPECT_EQ(starts.back(), "146 T0 switch 12 first after 11 (T0 at 140)");
}

}  // namespace
}  // namespace tasklens::testing
