// Which task a task_schedule event switches out, for every reader of the raw events (the task
// model, `tasklens check`, the profile).
//
// libomp runs an untied task in parts. When a part ends unfinished it reports
// task_schedule(T, switch, R), R being the task the thread ran before (T's continuation is
// queued); when the continuation cannot be queued (the thread's deque holds 256 tasks: a task that
// creates more children than that), the thread runs it at once, on top of R, and reports
// task_schedule(T, switch, T): "T resumes" while the thread's current task is R. The event
// switches R out (R stays on the thread's stack, under T) and T in. Its events until it ends
// (complete(T -> R)) are T's, not R's. docs/REPLAY.md shows the whole sequence.
//
// task_schedule(T, switch, T) with T already the thread's current task is no switch (a suspended
// part picked up again at once).
//
// Rarely (a 32 k-task untied tree with taskyield on 2 threads: 2 events in 227 k, one run in
// six), a part of an untied task U runs with no event at its start or end: thread 1 reports
// switch(R -> U), then R's own events (U's part ended silently, U's continuation is elsewhere);
// later thread 0, running V, reports complete(U -> V) (U's last part ran on top of V with no
// start). `tasklens check` counts these as silent parts, not inconsistencies; the task model
// keeps U running on thread 1 until it completes, which no analysis counts as the thread's work.
#pragma once

#include <cstdint>

#include "format/event.h"
#include "format/event_views.h"

namespace tasklens::replay {

// The task that task_schedule event `e` switches out on a thread whose current task was
// `current` before it: its prior task, or `current` when the prior task resumes itself on top of another task (0: none).
inline uint64_t switched_out(const format::Event& e, uint64_t current) {
  const auto s = format::ev::TaskSchedule::of(e);
  auto status = format::TaskStatus(s.status);
  bool switches = status == format::TaskStatus::kSwitch || status == format::TaskStatus::kYield;
  if (switches && s.prior && s.prior == s.next && current && current != s.prior) return current;
  return s.prior;
}

// True when `e` switches the untied (prior) task in on top of `current` (see above).
inline bool resumes_on_top(const format::Event& e, uint64_t current) {
  return switched_out(e, current) != format::ev::TaskSchedule::of(e).prior;
}

}  // namespace tasklens::replay
