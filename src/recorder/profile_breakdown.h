// Profile mode's per-thread breakdown, online: work, serial time, overhead and idleness
// (approximate: docs/PROFILE-MODE.md, Limits), kept in the thread's record (profiler.h).
#pragma once

#include <atomic>
#include <cstdint>

#include "recorder/profiler.h"

namespace tasklens::recorder::prof {

// The tasks th created minus those it started or discarded: +1 or -1. Only th writes its count.
inline void add_ready(Thread* th, int64_t d) {
  auto& c = th->ready.count;
  c.store(c.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
}

// Closes th's current interval at `now`; `next`: the state that begins.
void close_interval(Thread* th, uint64_t now, State next);

// The state th is in now: in the runtime (no current task, or it waits), serial or working.
inline State state_of(const Thread* th) {
  const Task* t = th->current;
  if (!t || t->waits) return State::kRuntime;
  if (t->initial && th->implicit_depth == 1) return State::kSerial;
  return State::kWork;
}

// Closes th's interval when its state changed (its current task, its waits). Inline: most calls
// find the state unchanged.
inline void refresh(Thread* th, uint64_t now) {
  State s = state_of(th);
  if (__builtin_expect(s == th->state, 1)) return;
  close_interval(th, now, s);
  th->state = s;
}

}  // namespace tasklens::recorder::prof
