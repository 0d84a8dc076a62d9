// Profile mode's per-thread breakdown, online (docs/PROFILE-MODE.md, Limits: approximate): each
// thread's time split into work, serial, overhead and idleness as its current task changes state.
#include "recorder/profile_breakdown.h"

namespace tasklens::recorder::prof {

namespace {

// The other threads' counts are read again only after this many ticks (about 5 us at a few GHz;
// 16 us where the clock is in ns): each read of a count its thread keeps changing is a cache miss,
// which cost as much as the rest of the profile on fib without a cut-off on 2 threads, and their
// sum a few microseconds old decides the sample alike but for the intervals that begin just then.
constexpr uint64_t kReadOthersEvery = 1u << 14;

// Explicit tasks created and not yet started, "some task is ready" for the breakdown: the sum of
// the threads' own counts (each written by its thread alone, without a locked instruction), th's
// own as it is now, the others' as th read them last.
bool some_task_ready(Thread* th, uint64_t now) {
  if (now - th->others_read_at >= kReadOthersEvery) {
    int64_t others = 0;
    uint32_t n = thread_count();
    for (uint32_t i = 0; i < n; ++i) {
      const Thread* o = thread_at(i);
      if (o && o != th) others += o->ready.count.load(std::memory_order_relaxed);
    }
    th->others_ready = others;
    th->others_read_at = now;
  }
  return th->others_ready + th->ready.count.load(std::memory_order_relaxed) > 0;
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
    th->ready_at_since = some_task_ready(th, now);
}

}  // namespace tasklens::recorder::prof
