// Profile mode's per-thread breakdown, online (docs/PROFILE-MODE.md, Limits: approximate): each
// thread's time split into work, serial, overhead and idleness as its current task changes state.
#include "recorder/profile_breakdown.h"

namespace tasklens::recorder::prof {

namespace {

// Explicit tasks created and not yet started, "some task is ready" for the breakdown: the sum of
// the threads' own counts (each written by its thread alone, without a locked instruction; read
// by all, as a thread's wait begins only).
bool some_task_ready() {
  int64_t ready = 0;
  uint32_t n = thread_count();
  for (uint32_t i = 0; i < n; ++i) {
    if (const Thread* th = thread_at(i)) ready += th->ready.count.load(std::memory_order_relaxed);
  }
  return ready > 0;
}

}  // namespace

void close_interval(Thread* th, uint64_t now, State next) {
  uint64_t d = now > th->state_since ? now - th->state_since : 0;
  switch (th->state) {
    case State::kWork:
      th->work += d;
      break;
    case State::kSerial:
      th->serial += d;
      break;
    case State::kRuntime:
      // Overhead when a task was ready as the interval began, else idleness.
      (th->ready_at_since ? th->overhead : th->idle) += d;
      break;
  }
  th->state_since = now;
  // One sample per interval in the runtime, as it begins: the sum reads the other threads'
  // counts, which they keep changing (a cache miss each on a multi-core run).
  if (next == State::kRuntime && th->state != State::kRuntime)
    th->ready_at_since = some_task_ready();
}

}  // namespace tasklens::recorder::prof
