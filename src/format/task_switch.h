// Which task a task_schedule event switches out, for every reader of the raw events (the task
// model, `tasklens check`, the trace's profile) and for profile mode, which reads the callbacks.
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

namespace tasklens::format {

// The task that a task_schedule(prior, status, next) switches out on a thread whose current task
// was `current` before it: `prior`, or `current` when `prior` resumes itself on top of it. `T`:
// task ids, or profile mode's task records (a null one: none).
// prior == next is tested first: profile mode calls this on every task switch, where it is rare.
template <class T>
T switched_out(uint8_t status, T prior, T next, T current) {
  if (__builtin_expect(prior != next, 1) || !prior || !current || current == prior) return prior;
  bool switches = status == uint8_t(TaskStatus::kSwitch) || status == uint8_t(TaskStatus::kYield);
  return switches ? current : prior;
}

// The same for a task_schedule event `e`.
inline uint64_t switched_out(const Event& e, uint64_t current) {
  const auto s = ev::TaskSchedule::of(e);
  return switched_out<uint64_t>(s.status, s.prior, s.next, current);
}

}  // namespace tasklens::format
