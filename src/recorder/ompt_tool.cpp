// The OMPT glue: ompt_start_tool, the registration of every host callback, and one small function
// per callback that turns its arguments into an Event (field meanings: format/kinds.cpp).
// Callbacks only store; ids live in the runtime's ompt_data_t slots.
#include <omp-tools.h>

#include <algorithm>
#include <cstdio>

#include "format/event.h"
#include "format/kinds.h"
#include "recorder/off_cpu.h"
#include "recorder/profile_tool.h"
#include "recorder/runtime_call_site.h"
#include "recorder/session.h"
#include "recorder/task_counters.h"
#include "recorder/thread_buffer.h"

#define TASKLENS_EXPORT extern "C" __attribute__((visibility("default")))

namespace tasklens::recorder {
namespace {

using format::Kind;

inline uint64_t value(const ompt_data_t* d) {
  return d ? d->value : 0;
}
inline uint64_t code(const void* p) {
  return reinterpret_cast<uintptr_t>(p);
}
inline uint32_t clamp32(uint64_t v) {
  return v > 0xffffffffu ? 0xffffffffu : uint32_t(v);
}

// A task creation's `codeptr`, or the program's call site of the enclosing taskloop when libomp
// gave an address of its own, or the call site on the stack when libomp gave the address of the
// barrier the thread is in (runtime_call_site.h).
inline uint64_t program_code(const ThreadBuffer* tb, const void* codeptr) {
  return tb->barrier.creation(tb->taskloops.code(code(codeptr)));
}

void on_thread_begin(ompt_thread_t type, ompt_data_t* thread_data) {
  record(Kind::kThreadBegin, 0, uint16_t(type), 0, 0, 0, 0);
}

void on_thread_end(ompt_data_t*) {
  ThreadBuffer* tb = t_buffer;
  if (!tb) return;
  record(tb, Kind::kThreadEnd, 0, 0, 0, 0, 0, 0);
  sample_thread_times(tb);
  // The thread may never run again: hand its chunk to the writer now.
  hand_over(tb);
}

void on_parallel_begin(ompt_data_t* encountering_task, const ompt_frame_t*, ompt_data_t* parallel,
                       unsigned int requested, int flags, const void* codeptr) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  parallel->value = new_id(tb);
  record(tb, Kind::kParallelBegin, 0, uint16_t(requested > 0xffff ? 0xffff : requested),
         uint32_t(flags), parallel->value, value(encountering_task), code(codeptr));
}

void on_parallel_end(ompt_data_t* parallel, ompt_data_t* encountering_task, int flags,
                     const void* codeptr) {
  record(Kind::kParallelEnd, 0, 0, uint32_t(flags), value(parallel), value(encountering_task),
         code(codeptr));
}

void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
                      unsigned int actual_parallelism, unsigned int index, int flags) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  if (endpoint == ompt_scope_begin && task) task->value = new_id(tb);
  record(tb, Kind::kImplicitTask, uint8_t(endpoint), uint16_t(index > 0xffff ? 0xffff : index),
         uint32_t(flags), value(task), value(parallel), actual_parallelism);
}

void on_task_create(ompt_data_t* encountering_task, const ompt_frame_t*, ompt_data_t* new_task,
                    int flags, int has_dependences, const void* codeptr) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  new_task->value = new_id(tb);
  record(tb, Kind::kTaskCreate, uint8_t(has_dependences != 0), 0, uint32_t(flags), new_task->value,
         value(encountering_task), program_code(tb, codeptr));
}

void on_task_schedule(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  record(Kind::kTaskSchedule, uint8_t(status), 0, 0, value(prior), value(next), 0);
}

// With `--counters` (and only then: the plain callback above costs nothing more), the thread's
// counters are read (a read(2) or two) before the switch and recorded as `counters` events
// (format/event_views.h), so that the replay gives the delta since the previous switch to the
// task that ran in between.
void on_task_schedule_counted(ompt_data_t* prior, ompt_task_status_t status, ompt_data_t* next) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  if (__builtin_expect(!tb->counters_opened, 0)) {
    tb->counters = prof::open_thread_counters();
    tb->counters_opened = true;
  }
  uint64_t v[format::kMaxCounters];
  int n = tb->counters.open() ? prof::read_counters(tb->counters, v) : 0;
  for (int first = 0; first < n; first += int(format::kCountersPerEvent)) {
    int count = std::min(n - first, int(format::kCountersPerEvent));
    record(tb, Kind::kCounters, 0, uint16_t(first), uint32_t(count), v[first],
           count > 1 ? v[first + 1] : 0, count > 2 ? v[first + 2] : 0);
  }
  record(tb, Kind::kTaskSchedule, uint8_t(status), 0, 0, value(prior), value(next), 0);
}

void on_dependences(ompt_data_t* task, const ompt_dependence_t* deps, int ndeps) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  for (int i = 0; i < ndeps; ++i) {
    record(tb, Kind::kDependence, uint8_t(deps[i].dependence_type), 0, uint32_t(i), value(task),
           deps[i].variable.value, uint64_t(ndeps));
  }
}

void on_task_dependence(ompt_data_t* src, ompt_data_t* sink) {
  record(Kind::kTaskDependence, 0, 0, 0, value(src), value(sink), 0);
}

// Every kind as it comes: a taskloop's implicit taskgroup carries the program's address (libomp
// reports its begin before the taskloop's `work` begin and its end after the `work` end).
void record_sync(Kind k, ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                 ompt_data_t* parallel, ompt_data_t* task, const void* codeptr) {
  record(k, uint8_t(endpoint), uint16_t(kind), 0, value(parallel), value(task), code(codeptr));
}

void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                    ompt_data_t* task, const void* codeptr) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  if (format::is_barrier(uint16_t(kind))) {
    tb->barrier.on_barrier(endpoint == ompt_scope_begin, code(codeptr));
  }
  record(tb, Kind::kSyncRegion, uint8_t(endpoint), uint16_t(kind), 0, value(parallel), value(task),
         code(codeptr));
}

void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t* parallel, ompt_data_t* task, const void* codeptr) {
  record_sync(Kind::kSyncRegionWait, kind, endpoint, parallel, task, codeptr);
}

void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                  ompt_data_t* task, const void* codeptr) {
  record(Kind::kReduction, uint8_t(endpoint), uint16_t(kind), 0, value(parallel), value(task),
         code(codeptr));
}

void on_work(ompt_work_t type, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
             ompt_data_t* task, uint64_t count, const void* codeptr) {
  ThreadBuffer* tb = this_thread();
  if (!tb) return;
  uint64_t c = code(codeptr);
  // Its tasks carry the same runtime address: the program's call site instead.
  if (type == ompt_work_taskloop) c = tb->taskloops.work(endpoint == ompt_scope_begin, c);
  record(tb, Kind::kWork, uint8_t(endpoint), uint16_t(type), clamp32(count), value(parallel),
         value(task), c);
}

void on_dispatch(ompt_data_t* parallel, ompt_data_t* task, ompt_dispatch_t kind,
                 ompt_data_t instance) {
  record(Kind::kDispatch, uint8_t(kind), 0, 0, value(parallel), value(task), instance.value);
}

void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t* task,
               const void* codeptr) {
  record(Kind::kMasked, uint8_t(endpoint), 0, 0, value(parallel), value(task), code(codeptr));
}

void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                      ompt_wait_id_t wait_id, const void* codeptr) {
  record(Kind::kMutexAcquire, uint8_t(impl), uint16_t(kind), hint, wait_id, 0, code(codeptr));
}

void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  record(Kind::kMutexAcquired, 0, uint16_t(kind), 0, wait_id, 0, code(codeptr));
}

void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  record(Kind::kMutexReleased, 0, uint16_t(kind), 0, wait_id, 0, code(codeptr));
}

void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
                  const void* codeptr) {
  record(Kind::kLockInit, uint8_t(impl), uint16_t(kind), hint, wait_id, 0, code(codeptr));
}

void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void* codeptr) {
  record(Kind::kLockDestroy, 0, uint16_t(kind), 0, wait_id, 0, code(codeptr));
}

void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void* codeptr) {
  record(Kind::kNestLock, uint8_t(endpoint), 0, 0, wait_id, 0, code(codeptr));
}

void on_flush(ompt_data_t*, const void* codeptr) {
  record(Kind::kFlush, 0, 0, 0, 0, 0, code(codeptr));
}

void on_cancel(ompt_data_t* task, int flags, const void* codeptr) {
  record(Kind::kCancel, 0, 0, uint32_t(flags), value(task), 0, code(codeptr));
}

void on_error(ompt_severity_t severity, const char*, size_t, const void* codeptr) {
  record(Kind::kError, uint8_t(severity), 0, 0, 0, 0, code(codeptr));
}

int initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!set_callback) return 0;
  // Recording starts before the callbacks are set so that no event finds the session closed.
  if (!g_session.start()) return 0;
  note_runtime_object(reinterpret_cast<const void*>(lookup));
  auto reg = [&](ompt_callbacks_t which, ompt_callback_t fn, const char* name) {
    g_session.note_callback(name, set_callback(which, fn));
  };
  if (g_session.config.profile) {
    prof::register_profile_callbacks(reg);
    return g_session.begin() ? 1 : 0;
  }
#define TL_REGISTER(event, fn) \
  reg(ompt_callback_##event, reinterpret_cast<ompt_callback_t>(fn), #event)
  TL_REGISTER(thread_begin, on_thread_begin);
  TL_REGISTER(thread_end, on_thread_end);
  TL_REGISTER(parallel_begin, on_parallel_begin);
  TL_REGISTER(parallel_end, on_parallel_end);
  TL_REGISTER(implicit_task, on_implicit_task);
  TL_REGISTER(task_create, on_task_create);
  if (prof::counter_count() > 0) {
    TL_REGISTER(task_schedule, on_task_schedule_counted);
  } else {
    TL_REGISTER(task_schedule, on_task_schedule);
  }
  TL_REGISTER(dependences, on_dependences);
  TL_REGISTER(task_dependence, on_task_dependence);
  TL_REGISTER(sync_region, on_sync_region);
  TL_REGISTER(sync_region_wait, on_sync_region_wait);
  TL_REGISTER(reduction, on_reduction);
  TL_REGISTER(work, on_work);
  TL_REGISTER(dispatch, on_dispatch);
  TL_REGISTER(masked, on_masked);
  TL_REGISTER(mutex_acquire, on_mutex_acquire);
  TL_REGISTER(mutex_acquired, on_mutex_acquired);
  TL_REGISTER(mutex_released, on_mutex_released);
  TL_REGISTER(lock_init, on_lock_init);
  TL_REGISTER(lock_destroy, on_lock_destroy);
  TL_REGISTER(nest_lock, on_nest_lock);
  TL_REGISTER(flush, on_flush);
  TL_REGISTER(cancel, on_cancel);
  TL_REGISTER(error, on_error);
#undef TL_REGISTER
  // The first metadata, now with the granted callbacks; the writer starts.
  return g_session.begin() ? 1 : 0;
}

void finalize(ompt_data_t*) {
  g_session.finish();
}

// The runtime calls finalize at exit; this covers runtimes that do not (and is a no-op after it).
__attribute__((destructor)) void finish_at_unload() {
  g_session.finish();
}

}  // namespace
}  // namespace tasklens::recorder

TASKLENS_EXPORT ompt_start_tool_result_t* ompt_start_tool(unsigned int omp_version,
                                                          const char* runtime_version) {
  using namespace tasklens::recorder;
  std::snprintf(g_session.runtime_version, sizeof g_session.runtime_version, "%s",
                runtime_version ? runtime_version : "");
  static ompt_start_tool_result_t result = {&initialize, &finalize, {0}};
  return &result;
}
