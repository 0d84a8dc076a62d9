/* empty_tool.c -- an OMPT tool that registers every callback libtasklens.so registers, each doing
 * nothing: the baseline that separates what OMPT itself costs (the runtime calling a tool) from
 * what recording costs. Load it like tasklens: OMP_TOOL_LIBRARIES=.../libtasklens_empty_tool.so.
 * The callbacks: tool_callbacks.h.
 */
#include <omp-tools.h>
#include <stddef.h>

#include "tool_callbacks.h"

static void on_thread_begin(ompt_thread_t t, ompt_data_t* d) {
  (void)t, (void)d;
}
static void on_thread_end(ompt_data_t* d) {
  (void)d;
}
static void on_parallel_begin(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* p, unsigned int r,
                              int fl, const void* c) {
  (void)e, (void)f, (void)p, (void)r, (void)fl, (void)c;
}
static void on_parallel_end(ompt_data_t* p, ompt_data_t* e, int fl, const void* c) {
  (void)p, (void)e, (void)fl, (void)c;
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t,
                             unsigned int a, unsigned int i, int fl) {
  (void)ep, (void)p, (void)t, (void)a, (void)i, (void)fl;
}
static void on_task_create(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* t, int fl, int h,
                           const void* c) {
  (void)e, (void)f, (void)t, (void)fl, (void)h, (void)c;
}
static void on_task_schedule(ompt_data_t* p, ompt_task_status_t s, ompt_data_t* n) {
  (void)p, (void)s, (void)n;
}
static void on_dependences(ompt_data_t* t, const ompt_dependence_t* d, int n) {
  (void)t, (void)d, (void)n;
}
static void on_task_dependence(ompt_data_t* s, ompt_data_t* k) {
  (void)s, (void)k;
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t,
                    const void* c) {
  (void)k, (void)ep, (void)p, (void)t, (void)c;
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t,
                    uint64_t n, const void* c) {
  (void)w, (void)ep, (void)p, (void)t, (void)n, (void)c;
}
static void on_dispatch(ompt_data_t* p, ompt_data_t* t, ompt_dispatch_t k, ompt_data_t i) {
  (void)p, (void)t, (void)k, (void)i;
}
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t, const void* c) {
  (void)ep, (void)p, (void)t, (void)c;
}
static void on_mutex_acquire(ompt_mutex_t k, unsigned int h, unsigned int i, ompt_wait_id_t w,
                             const void* c) {
  (void)k, (void)h, (void)i, (void)w, (void)c;
}
static void on_mutex(ompt_mutex_t k, ompt_wait_id_t w, const void* c) {
  (void)k, (void)w, (void)c;
}
static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void* c) {
  (void)ep, (void)w, (void)c;
}
static void on_flush(ompt_data_t* t, const void* c) {
  (void)t, (void)c;
}
static void on_cancel(ompt_data_t* t, int f, const void* c) {
  (void)t, (void)f, (void)c;
}
static void on_error(ompt_severity_t s, const char* m, size_t l, const void* c) {
  (void)s, (void)m, (void)l, (void)c;
}

TASKLENS_TOOL_ENTRY_POINTS
