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

// Closes th's interval when its state changed (its current task, its waits).
void refresh(Thread* th, uint64_t now);

}  // namespace tasklens::recorder::prof
