/* tool_callbacks.h -- the OMPT callbacks libtasklens.so registers, as one list for the benchmark
 * tools that stand beside it (empty_tool.c, ../naive_tool/naive_tool.c): each defines the handlers
 * named here and registers them with TASKLENS_TOOL_CALLBACKS(REG). Keep the list in step with
 * src/recorder/ompt_tool.cpp's initialize().
 */
#pragma once

#define TASKLENS_TOOL_CALLBACKS(X)         \
  X(thread_begin, on_thread_begin)         \
  X(thread_end, on_thread_end)             \
  X(parallel_begin, on_parallel_begin)     \
  X(parallel_end, on_parallel_end)         \
  X(implicit_task, on_implicit_task)       \
  X(task_create, on_task_create)           \
  X(task_schedule, on_task_schedule)       \
  X(dependences, on_dependences)           \
  X(task_dependence, on_task_dependence)   \
  X(sync_region, on_sync)                  \
  X(sync_region_wait, on_sync)             \
  X(reduction, on_sync)                    \
  X(work, on_work)                         \
  X(dispatch, on_dispatch)                 \
  X(masked, on_masked)                     \
  X(mutex_acquire, on_mutex_acquire)       \
  X(mutex_acquired, on_mutex)              \
  X(mutex_released, on_mutex)              \
  X(lock_init, on_mutex_acquire)           \
  X(lock_destroy, on_mutex)                \
  X(nest_lock, on_nest_lock)               \
  X(flush, on_flush)                       \
  X(cancel, on_cancel)                     \
  X(error, on_error)

/* The tool's entry points around the list: initialize() registers every callback. */
#define TASKLENS_TOOL_ENTRY_POINTS                                                              \
  static int initialize(ompt_function_lookup_t lookup, int num, ompt_data_t* data) {            \
    (void)num, (void)data;                                                                      \
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");                 \
    if (!set) return 0;                                                                         \
    TASKLENS_TOOL_CALLBACKS(TASKLENS_TOOL_REG)                                                  \
    return 1;                                                                                   \
  }                                                                                             \
  static void finalize(ompt_data_t* data) { (void)data; }                                       \
  __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(             \
      unsigned int omp_version, const char* runtime_version) {                                  \
    (void)omp_version, (void)runtime_version;                                                   \
    static ompt_start_tool_result_t result = {&initialize, &finalize, {0}};                     \
    return &result;                                                                             \
  }
#define TASKLENS_TOOL_REG(event, fn) set(ompt_callback_##event, (ompt_callback_t)(fn));
