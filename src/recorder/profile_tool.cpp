// Profile mode's OMPT callbacks (docs/PROFILE-MODE.md): each hands its arguments to the
// profiler (profiler.h) instead of storing an event. Task and region records live in the
// runtime's ompt_data_t slots (`ptr`).
#include "recorder/profile_tool.h"

#include <omp-tools.h>

#include "format/kinds.h"
#include "format/profile_file.h"
#include "format/runtime_made_task.h"
#include "recorder/clock.h"
#include "recorder/profiler.h"
#include "recorder/runtime_call_site.h"

namespace tasklens::recorder::prof {
namespace {

using NK = format::ProfileNodeKind;

inline Thread* me() {
  return g_enabled ? this_thread_profile() : nullptr;
}
inline Task* task_of(const ompt_data_t* d) {
  return d ? static_cast<Task*>(d->ptr) : nullptr;
}
inline uint64_t code(const void* p) {
  return reinterpret_cast<uintptr_t>(p);
}
// A callback the profile does not use ends a pending creation; the clock is read only then.
inline void other(Thread* th) {
  if (th->pending_since) on_other(th, now_ticks());
}

void p_thread_begin(ompt_thread_t type, ompt_data_t*) {
  if (Thread* th = me()) on_thread_begin(th, type == ompt_thread_initial, now_ticks());
}

void p_thread_end(ompt_data_t*) {
  if (Thread* th = me()) on_thread_end(th, now_ticks());
}

void p_parallel_begin(ompt_data_t* encountering, const ompt_frame_t*, ompt_data_t* parallel,
                      unsigned int, int, const void* codeptr) {
  Thread* th = me();
  parallel->ptr = th ? on_parallel_begin(th, task_of(encountering), code(codeptr)) : nullptr;
}

void p_parallel_end(ompt_data_t* parallel, ompt_data_t*, int, const void*) {
  if (Thread* th = me()) on_parallel_end(th, static_cast<Region*>(parallel->ptr), now_ticks());
  parallel->ptr = nullptr;
}

void p_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
                     unsigned int, unsigned int, int flags) {
  Thread* th = me();
  if (!th) return;
  uint64_t now = now_ticks();
  if (endpoint == ompt_scope_begin) {
    Region* r = parallel ? static_cast<Region*>(parallel->ptr) : nullptr;
    Task* t = on_implicit_begin(th, r, (flags & ompt_task_initial) != 0, now);
    if (task) task->ptr = t;
    return;
  }
  on_implicit_end(th, task_of(task), now);
  if (task) task->ptr = nullptr;
}

// The construct of a task whose creation libomp reports at an address of its own (one test of
// that address on every creation, the rest only then): a taskloop's task gets the taskloop's call
// site (runtime_call_site.h); a task libomp makes while splitting a large taskloop in one of its
// tasks, the construct of the task running here (format/runtime_made_task.h).
uint64_t runtime_task_code(const Thread* th, uint64_t codeptr) {
  uint64_t c = th->taskloops.code(codeptr);
  if (!in_runtime(c)) return c;
  const Task* running = th->current;
  return format::runtime_made_task_code(c, running && !running->implicit,
                                        running ? running->code : 0);
}

// The callbacks of every task (its creation, its switches, its taskwait) are flattened: the
// profiler's work inlined into them, across files with the library's link-time optimization (a
// call, its register saves and its argument moves less per step; docs/PROFILE-MODE-COST.md).
__attribute__((flatten)) void p_task_create(ompt_data_t*, const ompt_frame_t*,
                                            ompt_data_t* new_task, int flags, int,
                                            const void* codeptr) {
  Thread* th = me();
  if (!th) return;
  uint64_t c = th->barrier.creation(code(codeptr));
  if (__builtin_expect(format::is_taskwait_depend(uint32_t(flags)), 0)) {
    // `taskwait depend(...)`: a task that never runs, ended by taskwait_complete (below) once
    // the tasks it names are done. It is its creator's taskwait, as the trace's profile has it.
    on_region(th, true, uint8_t(NK::kTaskwait), 0, c, true, now_ticks());
    new_task->ptr = nullptr;
    return;
  }
  if (__builtin_expect(in_runtime(c), 0)) c = runtime_task_code(th, c);
  new_task->ptr = on_create(th, c, uint32_t(flags), now_ticks());
}

__attribute__((flatten)) void p_task_schedule(ompt_data_t* prior, ompt_task_status_t status,
                                              ompt_data_t* next) {
  Thread* th = me();
  if (!th) return;
  if (__builtin_expect(status == ompt_taskwait_complete, 0)) {
    // Only the task of a `taskwait depend` ends so (p_task_create): its creator's taskwait.
    on_region(th, false, uint8_t(NK::kTaskwait), 0, 0, true, now_ticks());
    return;
  }
  Task* p = task_of(prior);
  bool ends = status == ompt_task_complete || status == ompt_task_cancel ||
              status == ompt_task_detach || status == ompt_taskwait_complete;
  bool explicit_ends = ends && p && !p->implicit;  // read before on_schedule frees it
  on_schedule(th, p, int(status), task_of(next), now_ticks());
  if (explicit_ends) prior->ptr = nullptr;
}

__attribute__((flatten)) void p_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                            ompt_data_t*, ompt_data_t*, const void* codeptr) {
  Thread* th = me();
  if (!th) return;
  bool begin = endpoint == ompt_scope_begin;
  if (kind == ompt_sync_region_taskwait) {  // first: fine-grained tasks wait for their children
    on_region(th, begin, uint8_t(NK::kTaskwait), 0, code(codeptr), true, now_ticks());
  } else if (format::is_barrier(uint16_t(kind))) {
    th->barrier.on_barrier(begin, code(codeptr));
    on_region(th, begin, uint8_t(NK::kBarrier), uint16_t(kind), code(codeptr), true, now_ticks());
  } else if (kind == ompt_sync_region_taskgroup) {
    // (A taskloop's implicit one carries the program's address: record_sync in ompt_tool.cpp.)
    on_region(th, begin, uint8_t(NK::kTaskgroup), 0, code(codeptr), false, now_ticks());
  } else if (kind == ompt_sync_region_reduction) {
    on_region(th, begin, uint8_t(NK::kReduction), uint16_t(kind), code(codeptr), false,
              now_ticks());
  } else {
    other(th);
  }
}

void p_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*,
                        ompt_data_t*, const void*) {
  Thread* th = me();
  if (!th) return;
  if (kind == ompt_sync_region_taskgroup) {
    on_wait(th, endpoint == ompt_scope_begin, now_ticks());
  } else {
    other(th);  // the taskwait's and the barriers' waits: their regions say all
  }
}

void p_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, uint64_t,
            const void* codeptr) {
  if (Thread* th = me()) {
    bool begin = endpoint == ompt_scope_begin;
    uint64_t c = code(codeptr);
    // libomp names every taskloop by an address of its own: the program's call site instead.
    if (type == ompt_work_taskloop) c = th->taskloops.work(begin, c);
    on_region(th, begin, uint8_t(NK::kWork), uint16_t(type), c, false, now_ticks());
  }
}

void p_masked(ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, const void* codeptr) {
  if (Thread* th = me()) {
    on_region(th, endpoint == ompt_scope_begin, uint8_t(NK::kMasked), 0, code(codeptr), false,
              now_ticks());
  }
}

void p_mutex_acquire(ompt_mutex_t kind, unsigned int, unsigned int, ompt_wait_id_t wait_id,
                     const void* codeptr) {
  if (Thread* th = me()) on_mutex(th, true, uint16_t(kind), wait_id, code(codeptr), now_ticks());
}

void p_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  if (Thread* th = me()) on_mutex(th, false, uint16_t(kind), wait_id, code(codeptr), now_ticks());
}

// A nest lock its owner takes again: reported as nest_lock begin instead of mutex_acquired.
void p_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void* codeptr) {
  Thread* th = me();
  if (!th) return;
  if (endpoint == ompt_scope_begin) {
    on_mutex(th, false, uint16_t(ompt_mutex_nest_lock), wait_id, code(codeptr), now_ticks());
  } else {
    other(th);
  }
}

}  // namespace

void register_profile_callbacks(const RegisterFn& reg) {
#define TL_PROFILE(event, fn) \
  reg(ompt_callback_##event, reinterpret_cast<ompt_callback_t>(fn), #event)
  TL_PROFILE(thread_begin, p_thread_begin);
  TL_PROFILE(thread_end, p_thread_end);
  TL_PROFILE(parallel_begin, p_parallel_begin);
  TL_PROFILE(parallel_end, p_parallel_end);
  TL_PROFILE(implicit_task, p_implicit_task);
  TL_PROFILE(task_create, p_task_create);
  TL_PROFILE(task_schedule, p_task_schedule);
  TL_PROFILE(sync_region, p_sync_region);
  TL_PROFILE(sync_region_wait, p_sync_region_wait);
  TL_PROFILE(work, p_work);
  TL_PROFILE(masked, p_masked);
  TL_PROFILE(mutex_acquire, p_mutex_acquire);
  TL_PROFILE(mutex_acquired, p_mutex_acquired);
  TL_PROFILE(nest_lock, p_nest_lock);
#undef TL_PROFILE
}

}  // namespace tasklens::recorder::prof
