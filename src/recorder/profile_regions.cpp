// Profile mode's constructs that are no task (profiler.h): worksharing, barriers, taskwaits,
// taskgroups, user regions and mutex waits, each a frame on the encountering task's stack.
#include <omp-tools.h>

#include "format/kinds.h"
#include "format/profile_file.h"
#include "recorder/profile_breakdown.h"
#include "recorder/profile_frames.h"
#include "recorder/profiler.h"
#include "recorder/runtime_call_site.h"

namespace tasklens::recorder::prof {

using NK = format::ProfileNodeKind;

namespace {

// A GCC single's frame (single_executor): what on_region closes where libgomp reports no end.
constexpr uint64_t kSingle =
    (uint64_t(uint8_t(NK::kWork)) << 56) | (uint64_t(format::WorkType::kSingleExecutor) << 40);

// Closes the innermost region frame matching `match`, and what is open above it, at `at`; its
// node's code into `closed`. False when none is open.
bool close_region(Thread* th, Task& r, uint64_t at, uint64_t match, uint64_t& closed) {
  return close_to(th, r, at, [match, &closed](const Frame& f) {
    if (f.type != FrameType::kRegion || f.match != match) return false;
    closed = f.n ? f.n->code : 0;
    return true;
  });
}

}  // namespace

void on_region(Thread* th, bool begin, uint8_t kind, uint16_t sub, uint64_t code, bool wait,
               uint64_t now) {
  on_other(th, now);
  Task* r = th->current;
  if (!r) return;
  if (begin && r->single_open &&
      (kind == uint8_t(NK::kBarrier) ||
       (kind == uint8_t(NK::kWork) && format::is_worksharing(sub)))) {
    // A GCC single reports no end (libgomp has no call there): it ends at the latest where its
    // task begins a barrier or another worksharing construct, as the replay's implied ends have
    // it (replay/implied_ends.h). A clang single has ended by then (single_open is false): the
    // frames are searched only when one may be open.
    r->single_open = false;
    uint64_t closed = 0;
    if (close_region(th, *r, now, kSingle, closed))
      th->work_code = closed;  // the barrier that follows is named after it
  }
  if (kind == uint8_t(NK::kBarrier) && format::is_workshare_barrier(sub) && in_runtime(code) &&
      th->work_code) {
    code = th->work_code;
  }
  uint64_t match = (uint64_t(kind) << 56) | (uint64_t(sub) << 40);
  if (kind == uint8_t(NK::kUser)) match |= code;  // a user region ends by its name
  if (begin) {
    if (kind == uint8_t(NK::kBarrier) && format::is_implicit_barrier(sub) && r->implicit &&
        code == r->parallel_code) {
      code = 0;
    }
    push_child(th, *r, kind, sub, code, FrameType::kRegion, now, match);
    if (match == kSingle) r->single_open = true;
    if (wait) ++r->waits;
  } else {
    if (match == kSingle) r->single_open = false;
    uint64_t closed = 0;
    uint64_t at = r->implicit ? frames_time(*r, now) : now;
    bool found = close_region(th, *r, at, match, closed);
    if (!found) ++th->unmatched_ends;
    // The constructs a barrier may end (a taskloop ends in none).
    if (kind == uint8_t(NK::kWork) && found && format::is_worksharing(sub)) th->work_code = closed;
    if (wait && r->waits) --r->waits;
  }
  refresh(th, now);
}

void on_wait(Thread* th, bool begin, uint64_t now) {
  on_other(th, now);
  Task* r = th->current;
  if (!r) return;
  if (begin) {
    ++r->waits;
  } else if (r->waits) {
    --r->waits;
  }
  refresh(th, now);
}

void on_mutex(Thread* th, bool acquire, uint16_t kind, uint64_t wait_id, uint64_t code,
              uint64_t now) {
  on_other(th, now);
  Task* r = th->current;
  if (!r) return;
  if (acquire) {
    // A test lock may fail, with no `acquired` to end the wait: not followed (as the trace's).
    if (kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock) return;
    push_child(th, *r, uint8_t(NK::kMutexWait), kind, code, FrameType::kMutex, now, wait_id);
  } else if (r->depth && r->frames[r->depth - 1].type == FrameType::kMutex &&
             r->frames[r->depth - 1].match == wait_id) {
    close_top(th, *r, now);
  }
}

}  // namespace tasklens::recorder::prof
