// LateEnds: a worker's closing-barrier and implicit-task ends, which libomp reports only when the
// next region or the exit releases the worker, are moved to the region's parallel_end, and the
// late reports are left out. Hand-made traces go through the whole replay (run_replay), and a pass
// logs what every pass sees.
#include "replay/late_ends.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "format/event_views.h"
#include "replay/pass.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::replay {
namespace {

using format::Endpoint;
using format::Kind;
using testing::TraceBuilder;
namespace ev = format::ev;

constexpr uint64_t kRegion = 100, kInitial = 9, kI0 = 1, kI1 = 2;
using format::SyncKind;
constexpr SyncKind kJoin = SyncKind::kBarrierImplicit;

// What the passes see: the records, and the worker's current task after each.
struct Log final : Pass {
  std::vector<Record> seen;
  std::vector<uint64_t> worker_task;
  bool uses_before() const override { return false; }
  void after(const Record& r, const TaskModel& m) override {
    seen.push_back(r);
    worker_task.push_back(m.thread(1).exists ? m.thread(1).current : 0);
  }
  // "time thread what [task]" for each record seen from `from` on.
  std::vector<std::string> lines(uint64_t from) const {
    std::vector<std::string> out;
    for (const Record& r : seen) {
      if (r.ev.time < from) continue;
      std::string what;
      switch (r.ev.kind) {
        case Kind::kSyncRegion:
          what = "sync";
          break;
        case Kind::kSyncRegionWait:
          what = "wait";
          break;
        case Kind::kImplicitTask:
          what = "implicit";
          break;
        case Kind::kParallelBegin:
          what = "parallel_begin";
          break;
        case Kind::kParallelEnd:
          what = "parallel_end";
          break;
        case Kind::kThreadEnd:
          what = "thread_end";
          break;
        case Kind::kTaskSchedule:
          what = "schedule";
          break;
        default:
          what = "other";
          break;
      }
      if (ev::SyncAny::is(r.ev.kind)) {
        what += (r.ev.op == uint8_t(Endpoint::kEnd) ? " end " : " begin ") +
                std::to_string(ev::SyncAny::of(r.ev).task);
      } else if (r.ev.kind == Kind::kImplicitTask) {
        what += (r.ev.op == uint8_t(Endpoint::kEnd) ? " end " : " begin ") +
                std::to_string(ev::ImplicitTask::of(r.ev).task);
      }
      out.push_back(std::to_string(r.ev.time) + " T" + std::to_string(r.thread) + " " + what);
    }
    return out;
  }
};

Log replayed(TraceBuilder& t) {
  Log log;
  EXPECT_TRUE(testing::replay_experiment(t.write(), {&log}));
  return log;
}

// Region kRegion of two threads (implicit tasks kI0 on thread 0, kI1 on thread 1, `flags`).
void team(TraceBuilder& t, uint32_t flags = format::task_flag::kImplicit) {
  t.thread_begin(0, 0, 1).initial_task(0, 1, kInitial);
  t.parallel_begin(0, 20, kRegion, kInitial);
  t.implicit_begin(0, 30, kI0, kRegion, 2, 0, flags);
  t.thread_begin(1, 32).implicit_begin(1, 35, kI1, kRegion, 2, 1, flags);
}

// As libomp reports it up to the initial thread's parallel_end at 110: the worker waits in the
// closing barrier from 60 (its sync_region and, if `wait`, its sync_region_wait).
void region_to_its_end(TraceBuilder& t, bool wait = true,
                       uint32_t flags = format::task_flag::kImplicit) {
  team(t, flags);
  t.sync(1, 60, kJoin, Endpoint::kBegin, kRegion, kI1, 0);
  if (wait) t.sync_wait(1, 61, kJoin, Endpoint::kBegin, kRegion, kI1, 0);
  t.sync_wait(0, 70, kJoin, Endpoint::kBegin, kRegion, kI0, 0x1000);
  t.sync(0, 70, kJoin, Endpoint::kBegin, kRegion, kI0, 0x1000);
  t.sync_wait(0, 80, kJoin, Endpoint::kEnd, 0, kI0, 0x1000);
  t.sync(0, 80, kJoin, Endpoint::kEnd, 0, kI0, 0x1000);
  t.implicit_end(0, 90, kI0, 0, 2, 0);
  t.parallel_end(0, 110, kRegion, kInitial);
}

// libomp's late report of the worker's ends at `t` (no region named, team size 0).
void late_report(TraceBuilder& t, uint64_t time, bool wait = true) {
  if (wait) t.sync_wait(1, time, kJoin, Endpoint::kEnd, 0, kI1, 0);
  t.sync(1, time, kJoin, Endpoint::kEnd, 0, kI1, 0);
  t.implicit_end(1, time, kI1, 0, 0, 1);
}

TEST(LateEnds, AWorkersEndsMoveToTheRegionsEndAndTheLateReportIsLeftOut) {
  TraceBuilder t;
  region_to_its_end(t);
  late_report(t, 900);  // the exit released the worker
  t.thread_end(1, 910).implicit_end(0, 920, kInitial).thread_end(0, 930);
  Log log = replayed(t);
  EXPECT_EQ(log.lines(100), (std::vector<std::string>{
                                "110 T1 wait end 2", "110 T1 sync end 2", "110 T1 implicit end 2",
                                "110 T0 parallel_end", "910 T1 thread_end", "920 T0 implicit end 9",
                                "930 T0 thread_end"}));
  // The moved ends are what libomp reports: the barrier's kind and code address, no region; the
  // implicit task's index, flags and team size from its begin.
  const Record& wait_end = log.seen[log.seen.size() - 7];
  EXPECT_EQ(ev::SyncAny::of(wait_end.ev).sync_kind, uint16_t(kJoin));
  EXPECT_EQ(ev::SyncAny::of(wait_end.ev).region, 0u);
  const auto end = ev::ImplicitTask::of(log.seen[log.seen.size() - 5].ev);
  EXPECT_EQ(end.index, 1u);
  EXPECT_EQ(end.flags, format::task_flag::kImplicit);
  EXPECT_EQ(end.team_size, 2u);
  // The model's worker has no task from the region's end on.
  EXPECT_EQ(log.worker_task[log.seen.size() - 4], 0u);
}

// A barrier reported by its sync_region alone; the next region releases the worker: its late
// report comes after that region's parallel_begin and before its new implicit task.
TEST(LateEnds, TheNextRegionsReleaseIsLeftOutAndItsTeamGoesOn) {
  TraceBuilder t;
  region_to_its_end(t, false);
  t.parallel_begin(0, 500, kRegion + 1, kInitial).implicit_begin(0, 510, 11, kRegion + 1, 2, 0);
  late_report(t, 520, false);
  t.implicit_begin(1, 530, 12, kRegion + 1, 2, 1);
  Log log = replayed(t);
  EXPECT_EQ(log.lines(100),
            (std::vector<std::string>{"110 T1 sync end 2", "110 T1 implicit end 2",
                                      "110 T0 parallel_end", "500 T0 parallel_begin",
                                      "510 T0 implicit begin 11", "530 T1 implicit begin 12"}));
  EXPECT_EQ(log.worker_task.back(), 12u);
}

// A host teams league: the second team's initial task ends late as a worker's implicit task.
TEST(LateEnds, ATeamsInitialTaskKeepsItsFlags) {
  TraceBuilder t;
  region_to_its_end(t, true, format::task_flag::kInitial);
  Log log = replayed(t);
  const auto end = ev::ImplicitTask::of(log.seen[log.seen.size() - 2].ev);
  EXPECT_EQ(log.seen[log.seen.size() - 2].thread, 1u);
  EXPECT_EQ(end.task, kI1);
  EXPECT_EQ(end.flags, format::task_flag::kInitial);
}

// A worker whose barrier ended before the region's end but whose implicit task's end comes just
// after it (145 ns in a GCC-built KaStORS jacobi run): its task ends with the region.
TEST(LateEnds, AWorkerPastItsBarrierEndsWithTheRegionToo) {
  TraceBuilder t;
  team(t);
  t.sync(1, 60, kJoin, Endpoint::kBegin, kRegion, kI1, 0);
  t.implicit_end(0, 90, kI0);
  t.sync(1, 100, kJoin, Endpoint::kEnd, 0, kI1, 0);
  t.parallel_end(0, 110, kRegion, kInitial);
  t.implicit_end(1, 255, kI1);
  t.implicit_begin(1, 300, 12, kRegion + 1, 2, 1);
  EXPECT_EQ(replayed(t).lines(100),
            (std::vector<std::string>{"100 T1 sync end 2", "110 T1 implicit end 2",
                                      "110 T0 parallel_end", "300 T1 implicit begin 12"}));
}

// libomp may pass no task data to an implicit task's end or a barrier's (the recorder stores 0):
// such late reports are left out too, and such ends in time close what they end.
TEST(LateEnds, EndsThatNameNoTaskAreTheInnermosts) {
  TraceBuilder late;
  region_to_its_end(late);
  late.sync_wait(1, 900, kJoin, Endpoint::kEnd, 0, 0, 0)
      .sync(1, 900, kJoin, Endpoint::kEnd, 0, 0, 0);
  late.implicit_end(1, 900, 0).thread_end(1, 910);
  EXPECT_EQ(
      replayed(late).lines(100),
      (std::vector<std::string>{"110 T1 wait end 2", "110 T1 sync end 2", "110 T1 implicit end 2",
                                "110 T0 parallel_end", "910 T1 thread_end"}));
  TraceBuilder in_time;
  team(in_time);
  in_time.sync(1, 60, kJoin, Endpoint::kBegin, kRegion, kI1, 0);
  in_time.sync(1, 100, kJoin, Endpoint::kEnd, 0, 0, 0).implicit_end(1, 100, 0);
  in_time.implicit_end(0, 105, kI0).parallel_end(0, 110, kRegion, kInitial);
  EXPECT_EQ(replayed(in_time).lines(100),
            (std::vector<std::string>{"100 T1 sync end 0", "100 T1 implicit end 0",
                                      "105 T0 implicit end 1", "110 T0 parallel_end"}));
}

// Another region's end, or a worker that runs an explicit task from its barrier (a damaged
// trace: the region cannot have ended then), moves nothing.
TEST(LateEnds, OnlyTheEndingRegionsWorkersMove) {
  TraceBuilder t;
  team(t);
  t.sync(1, 60, kJoin, Endpoint::kBegin, kRegion, kI1, 0);
  t.parallel_end(0, 100, kRegion + 7, kInitial);
  t.create(0, 101, 50, kI0);
  t.schedule(1, 105, kI1, testing::Status::kSwitch, 50);
  t.parallel_end(0, 110, kRegion, kInitial);
  EXPECT_EQ(replayed(t).lines(100),
            (std::vector<std::string>{"100 T0 parallel_end", "101 T0 other", "105 T1 schedule",
                                      "110 T0 parallel_end"}));
}

// A parallel_end that names no region (a damaged trace) ends no team: the initial tasks, which
// name no region either, go on. Thread 1 is an initial thread of its own (a program's pthread
// that uses OpenMP), in its serial code.
TEST(LateEnds, AnEndOfNoRegionEndsNoInitialTask) {
  TraceBuilder t;
  t.thread_begin(0, 0, 1).initial_task(0, 1, kInitial);
  t.thread_begin(1, 2, 1).initial_task(1, 3, 20);
  t.parallel_end(0, 110, 0, kInitial);
  t.implicit_end(1, 900, 20).thread_end(1, 910);
  Log log = replayed(t);
  EXPECT_EQ(log.lines(100),
            (std::vector<std::string>{"110 T0 parallel_end", "900 T1 implicit end 20",
                                      "910 T1 thread_end"}));
  EXPECT_EQ(log.worker_task[log.seen.size() - 3], 20u);  // running it after the parallel_end
}

TEST(LateEnds, ThreadsOutsideTheStreamsCountAreNotInvolved) {
  LateEnds late(1);
  ev::SyncAny s;
  s.endpoint = uint8_t(Endpoint::kBegin);
  s.sync_kind = uint16_t(kJoin);
  s.task = 3;
  Record r{s.event(10, Kind::kSyncRegion), 5};
  EXPECT_FALSE(late.involved(r));
  r.thread = 0;
  EXPECT_TRUE(late.involved(r));
  // A taskwait is never looked at.
  r.ev.sub = uint16_t(SyncKind::kTaskwait);
  EXPECT_FALSE(late.involved(r));
}

}  // namespace
}  // namespace tasklens::replay
