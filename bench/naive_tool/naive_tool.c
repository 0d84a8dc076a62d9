/* naive_tool.c -- the naive floor of a tracing tool (issue 19): an OMPT tool that registers the
 * callbacks libtasklens.so registers and, in each, appends one 16-byte record (the time stamp
 * counter and the event's kind with one identifier) to an in-memory buffer of its thread, which
 * wraps around: no encoding, no writer thread, no file, no analysis. A task gets an identifier
 * at its creation. What it costs over bench/empty_tool is what a clock read and a store per
 * event cost; tasklens does the real job (every field the analyses need, written to disk) and is
 * compared with both (bench/overhead/overhead.py). Load it like tasklens:
 * OMP_TOOL_LIBRARIES=.../libtasklens_naive_tool.so. The callbacks: tool_callbacks.h.
 */
#include <omp-tools.h>
#include <stdint.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "tool_callbacks.h" /* bench/empty_tool */

#define RECORDS (1u << 20) /* per thread: 16 MiB, reused from the start when full */

typedef struct {
  uint64_t time;
  uint64_t what; /* kind << 56 | identifier */
} record_t;

static __thread record_t* buf;
static __thread uint32_t at;
static __thread uint64_t next_id;

static void put(uint64_t kind, uint64_t id) {
  if (__builtin_expect(!buf, 0)) {
    buf = malloc(sizeof(record_t) * RECORDS);
    if (!buf) return;
  }
  record_t* r = &buf[at++ & (RECORDS - 1)];
  r->time = __rdtsc();
  r->what = kind << 56 | (id & ((1ull << 56) - 1));
}

static void on_thread_begin(ompt_thread_t t, ompt_data_t* d) {
  put(1, (uint64_t)t), (void)d;
}
static void on_thread_end(ompt_data_t* d) {
  put(2, 0), (void)d;
}
static void on_parallel_begin(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* p, unsigned int r,
                              int fl, const void* c) {
  p->value = ++next_id;
  put(3, p->value);
  (void)e, (void)f, (void)r, (void)fl, (void)c;
}
static void on_parallel_end(ompt_data_t* p, ompt_data_t* e, int fl, const void* c) {
  put(4, p->value);
  (void)e, (void)fl, (void)c;
}
static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t,
                             unsigned int a, unsigned int i, int fl) {
  if (ep == ompt_scope_begin) t->value = ++next_id;
  put(5, t->value);
  (void)p, (void)a, (void)i, (void)fl;
}
static void on_task_create(ompt_data_t* e, const ompt_frame_t* f, ompt_data_t* t, int fl, int h,
                           const void* c) {
  t->value = ++next_id;
  put(6, t->value);
  (void)e, (void)f, (void)fl, (void)h, (void)c;
}
static void on_task_schedule(ompt_data_t* p, ompt_task_status_t s, ompt_data_t* n) {
  put(7, n->value);
  (void)p, (void)s;
}
static void on_dependences(ompt_data_t* t, const ompt_dependence_t* d, int n) {
  put(8, t->value);
  (void)d, (void)n;
}
static void on_task_dependence(ompt_data_t* s, ompt_data_t* k) {
  put(9, k->value), (void)s;
}
static void on_sync(ompt_sync_region_t k, ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t,
                    const void* c) {
  put(10, t ? t->value : 0);
  (void)k, (void)ep, (void)p, (void)c;
}
static void on_work(ompt_work_t w, ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t,
                    uint64_t n, const void* c) {
  put(13, t ? t->value : 0);
  (void)w, (void)ep, (void)p, (void)n, (void)c;
}
static void on_dispatch(ompt_data_t* p, ompt_data_t* t, ompt_dispatch_t k, ompt_data_t i) {
  put(14, t ? t->value : 0);
  (void)p, (void)k, (void)i;
}
static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t* p, ompt_data_t* t, const void* c) {
  put(15, t ? t->value : 0);
  (void)ep, (void)p, (void)c;
}
static void on_mutex_acquire(ompt_mutex_t k, unsigned int h, unsigned int i, ompt_wait_id_t w,
                             const void* c) {
  put(16, w);
  (void)k, (void)h, (void)i, (void)c;
}
static void on_mutex(ompt_mutex_t k, ompt_wait_id_t w, const void* c) {
  put(17, w), (void)k, (void)c;
}
static void on_nest_lock(ompt_scope_endpoint_t ep, ompt_wait_id_t w, const void* c) {
  put(21, w);
  (void)ep, (void)c;
}
static void on_flush(ompt_data_t* t, const void* c) {
  put(22, t ? t->value : 0), (void)c;
}
static void on_cancel(ompt_data_t* t, int f, const void* c) {
  put(23, t ? t->value : 0), (void)f, (void)c;
}
static void on_error(ompt_severity_t s, const char* m, size_t l, const void* c) {
  put(24, 0);
  (void)s, (void)m, (void)l, (void)c;
}

TASKLENS_TOOL_ENTRY_POINTS
