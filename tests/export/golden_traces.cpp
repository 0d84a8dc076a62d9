// The hand-made traces of the timeline exports' tricky cases.
#include "export/golden_traces.h"

#include "format/event_views.h"

namespace tasklens::testing {

using format::Endpoint;
using format::task_flag::kExplicit;
using format::task_flag::kUntied;

void two_thread_opening(TraceBuilder& t) {
  t.thread_begin(0, 5, 1);
  t.initial_task(0, 10, id(0, 1));
  t.parallel_begin(0, 20, id(0, 100), id(0, 1), 2, 0x1000);
  t.implicit_begin(0, 30, id(0, 2), id(0, 100), 2, 0);
  t.thread_begin(1, 32, 2);
  t.implicit_begin(1, 35, id(1, 1), id(0, 100), 2, 1);
}

void two_thread_closing(TraceBuilder& t) {
  t.implicit_end(0, 100, id(0, 2), id(0, 100), 2, 0);
  t.implicit_end(1, 105, id(1, 1), id(0, 100), 2, 1);
  t.thread_end(1, 107);
  t.parallel_end(0, 110, id(0, 100), id(0, 1), 0x1000);
  t.implicit_end(0, 120, id(0, 1));
  t.thread_end(0, 150);
}

std::string close_one_thread(TraceBuilder& t) {
  t.implicit_end(0, 120, id(0, 2), id(0, 100), 1, 0);
  t.parallel_end(0, 130, id(0, 100), id(0, 1), 0x1000);
  t.implicit_end(0, 140, id(0, 1));
  t.thread_end(0, 150);
  return t.write();
}

void one_thread_opening(TraceBuilder& t) {
  t.thread_begin(0, 5, 1);
  t.initial_task(0, 10, id(0, 1));
  t.parallel_begin(0, 20, id(0, 100), id(0, 1), 1, 0x1000);
  t.implicit_begin(0, 30, id(0, 2), id(0, 100), 1, 0);
}

std::string taskwait_with_child_trace(TraceBuilder& t) {
  one_thread_opening(t);
  t.create(0, 40, id(0, 3), id(0, 2), 0x2000);
  t.schedule(0, 50, id(0, 2), Status::kSwitch, id(0, 3));
  t.user_region(0, 55, Endpoint::kBegin, "work");
  t.create(0, 60, id(0, 4), id(0, 3), 0x2100);
  t.sync(0, 70, SyncKind::kTaskwait, Endpoint::kBegin, id(0, 100), id(0, 3), 0x3000);
  t.sync_wait(0, 70, SyncKind::kTaskwait, Endpoint::kBegin, id(0, 100), id(0, 3), 0x3000);
  t.schedule(0, 80, id(0, 3), Status::kSwitch, id(0, 4));
  t.schedule(0, 90, id(0, 4), Status::kComplete, id(0, 3));
  t.sync_wait(0, 100, SyncKind::kTaskwait, Endpoint::kEnd, id(0, 100), id(0, 3), 0x3000);
  t.sync(0, 100, SyncKind::kTaskwait, Endpoint::kEnd, id(0, 100), id(0, 3), 0x3000);
  t.user_region(0, 105, Endpoint::kEnd, "work");
  t.schedule(0, 110, id(0, 3), Status::kComplete, id(0, 2));
  return close_one_thread(t);
}

std::string taskwait_with_counters_trace(TraceBuilder& t) {
  t.writer().metadata().counters = {"page-faults", "task-clock"};
  auto sample = [&](uint64_t at, uint16_t first, uint64_t v0, uint64_t v1) {
    t.event(0, format::ev::Counters{{}, first, 2, v0, v1, 0}.event(at));
  };
  one_thread_opening(t);
  t.create(0, 40, id(0, 3), id(0, 2), 0x2000);
  sample(50, 0, 10, 1000);
  t.schedule(0, 50, id(0, 2), Status::kSwitch, id(0, 3));
  t.create(0, 60, id(0, 4), id(0, 3), 0x2100);
  t.sync(0, 70, SyncKind::kTaskwait, Endpoint::kBegin, id(0, 100), id(0, 3), 0x3000);
  sample(80, 0, 15, 1300);
  t.schedule(0, 80, id(0, 3), Status::kSwitch, id(0, 4));
  sample(90, 0, 35, 1500);
  t.schedule(0, 90, id(0, 4), Status::kComplete, id(0, 3));
  sample(95, 9, 1, 2);
  t.sync(0, 100, SyncKind::kTaskwait, Endpoint::kEnd, id(0, 100), id(0, 3), 0x3000);
  sample(110, 0, 36, 1600);
  t.schedule(0, 110, id(0, 3), Status::kComplete, id(0, 2));
  return close_one_thread(t);
}

std::string untied_migration_trace(TraceBuilder& t) {
  two_thread_opening(t);
  t.create(0, 40, id(0, 3), id(0, 2), 0x2000, kExplicit | kUntied);
  t.schedule(0, 50, id(0, 2), Status::kSwitch, id(0, 3));
  t.user_region(0, 55, Endpoint::kBegin, "phase");
  t.schedule(0, 60, id(0, 3), Status::kYield, id(0, 2));
  t.schedule(1, 70, id(1, 1), Status::kSwitch, id(0, 3));
  t.user_region(1, 80, Endpoint::kEnd, "phase");
  t.schedule(1, 90, id(0, 3), Status::kComplete, id(1, 1));
  two_thread_closing(t);
  return t.write();
}

std::string dependence_trace(TraceBuilder& t) {
  t.initial_task(0, 10, id(0, 1));
  t.create(0, 20, id(0, 2), id(0, 1), 0x2000, kExplicit, true);
  t.deps(0, 20, id(0, 2), {{0xa0, DependenceType::kOut}});
  t.create(0, 30, id(0, 3), id(0, 1), 0x2100, kExplicit, true);
  t.deps(0, 30, id(0, 3), {{0xa0, DependenceType::kIn}});
  t.schedule(0, 40, id(0, 1), Status::kSwitch, id(0, 2));
  t.schedule(0, 50, id(0, 2), Status::kComplete, id(0, 1));
  t.schedule(1, 60, 0, Status::kSwitch, id(0, 3));
  t.schedule(1, 70, id(0, 3), Status::kComplete, 0);
  t.implicit_end(0, 80, id(0, 1));
  return t.write();
}

}  // namespace tasklens::testing
