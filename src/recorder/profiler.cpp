// Profile mode: the call-path profile, the task constructs and the breakdown, online. The logic
// mirrors analysis/profile.cpp and profile_tasks.cpp (ProfilePass) event for event, so that the
// two modes give the same trees and counts (tests/integration/profile_mode_test.cpp).
#include "recorder/profiler.h"

#include <omp-tools.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

#include "format/kinds.h"
#include "format/profile_file.h"
#include "format/task_switch.h"
#include "recorder/clock.h"
#include "recorder/process_info.h"
#include "recorder/profile_breakdown.h"
#include "recorder/profile_frames.h"
#include "recorder/runtime_call_site.h"
#include "recorder/task_counters.h"

namespace tasklens::recorder::prof {

bool g_enabled = false;
std::atomic<Thread*> g_threads[kMaxThreadsProfiled];
std::atomic<uint32_t> g_thread_count{0};

namespace {

using format::ProfileNodeKind;
using NK = ProfileNodeKind;

uint8_t k(NK kind) {
  return uint8_t(kind);
}

// --- task records --------------------------------------------------------------------------

Task* alloc_task(Thread* th) {
  Task* t = th->free_list;
  if (t) {
    th->free_list = t->next_free;
    --th->free_count;
    // Up to counter_sum (and that with counters): a fragment's start writes counter_start before
    // its end reads it, the frames keep their memory, the parameters count from nparams.
    std::memset(static_cast<void*>(t), 0, offsetof(Task, counter_sum));
    if (g_node_counters) std::memset(t->counter_sum, 0, sizeof t->counter_sum);
    return t;
  }
  t = static_cast<Task*>(std::aligned_alloc(alignof(Task), sizeof(Task)));
  if (t) new (t) Task{};
  return t;
}

void release_region(Region* r) {
  if (r->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    r->~Region();
    std::free(r);
  }
}

void free_task(Thread* th, Task* t) {
  if (th->free_count >= Thread::kMaxFree) {
    std::free(t->frames);
    std::free(t->frame_counters);
    std::free(t);
    return;
  }
  t->next_free = th->free_list;
  th->free_list = t;
  ++th->free_count;
}

}  // namespace

namespace {

// `p` (`old_bytes` of it kept) grown to `bytes` on whole cache lines (Task); nullptr when out of
// memory, p then unchanged.
void* grow_lines(void* p, size_t old_bytes, size_t bytes) {
  void* q = std::aligned_alloc(64, (bytes + 63) & ~size_t(63));
  if (!q) return nullptr;
  if (p) std::memcpy(q, p, old_bytes);
  std::free(p);
  return q;
}

}  // namespace

bool grow_frames(Task& r) {
  uint32_t ncap = r.cap ? r.cap * 2 : 8;
  auto* f = static_cast<Frame*>(grow_lines(r.frames, r.cap * sizeof(Frame), ncap * sizeof(Frame)));
  if (!f) return false;
  r.frames = f;
  if (g_node_counters) {
    size_t row = kMaxCounters * sizeof(uint64_t);
    auto* c = static_cast<uint64_t*>(grow_lines(r.frame_counters, r.cap * row, ncap * row));
    if (!c) return false;
    r.frame_counters = c;
  }
  r.cap = ncap;
  return true;
}

Node* foreign_node(Thread* th, const Frame& f) {
  return f.n ? th->nodes.get(*f.n) : nullptr;
}

void add_counter_deltas(Node* n, const uint64_t* delta) {
  if (!n->counters) {
    n->counters = static_cast<Stat*>(std::calloc(size_t(g_node_counters), sizeof(Stat)));
    if (!n->counters) return;
  }
  for (int i = 0; i < g_node_counters; ++i) n->counters[i].add(delta[i]);
}

void add_node_counters(Node* n, const Task& r, uint32_t depth) {
  const uint64_t* at_enter = &r.frame_counters[size_t(depth) * kMaxCounters];
  uint64_t delta[kMaxCounters];
  for (int i = 0; i < g_node_counters; ++i) {
    delta[i] = r.counter_sum[i] >= at_enter[i] ? r.counter_sum[i] - at_enter[i] : 0;
  }
  add_counter_deltas(n, delta);
}

namespace {

// The construct `code` in th's tables: from the thread's small cache, else by its hash.
Construct* construct_of(Thread* th, uint64_t code) {
  auto& e = th->construct_cache[(code ^ (code >> 6)) % Thread::kConstructCache];
  if (e.code == code && e.c) return e.c;
  Construct* c = th->constructs.get(code);
  if (c) e.code = code, e.c = c;
  return c;
}

// x's construct in th's tables, looked up once per thread that runs it.
Construct* construct(Thread* th, Task& x) {
  if (x.construct_owner == th->owner) return x.construct;
  x.construct = construct_of(th, x.code);
  x.construct_owner = x.construct ? th->owner : 0;
  return x.construct;
}

// One instance of construct c (th's) more or less active on th.
void set_active(Thread* th, Construct* c, int delta) {
  if (delta > 0) {
    ++th->active;
    if (th->active > th->max_active) th->max_active = th->active;
    if (c && ++c->active > c->max_active) c->max_active = c->active;
  } else {
    if (th->active) --th->active;
    if (c && c->active) --c->active;
  }
}

// The fragment of `task` that begins runs at a stub node under the current implicit task's top
// node (no frame: see Task::stub_owner).
// `c`: task's construct in th's tables, which keeps the stub node it had last and its parent.
void enter_stub(Thread* th, Task& task, Construct* c) {
  if (th->implicit_depth == 0) return;
  Task* imp = th->implicit[th->implicit_depth - 1].task;
  if (!imp) return;
  const Frame* top = imp->depth ? &imp->frames[imp->depth - 1] : nullptr;
  const Node* pn = top ? top->n : nullptr;  // (an implicit task's frames are all th's)
  if (c && pn && c->stub_parent == pn) {
    task.stub_node = c->stub;
  } else {
    task.stub_node = child_node(th, top, top ? top->key : 0, k(NK::kStub), 0, task.code);
    if (c && pn) c->stub_parent = pn, c->stub = task.stub_node;
  }
  task.stub_depth = imp->depth;
  task.stub_owner = imp;
}

// The fragment that began at task.since ends: its stub's visit (an implicit task's clock runs
// with the thread's, so the visit lasts as long as the fragment; the counters' advance is the
// fragment's, th->frag_delta, which stop_counters set just before).
inline __attribute__((always_inline)) void exit_stub(Thread* th, Task& task, uint64_t now) {
  Task* imp = task.stub_owner;
  task.stub_owner = nullptr;
  if (!imp || imp->depth != task.stub_depth) return;
  uint64_t d = now > task.since ? now - task.since : 0;
  if (Node* n = task.stub_node) {
    n->metrics.add(1, d, 0);
    if (g_node_counters) add_counter_deltas(n, th->frag_delta);
  }
  if (imp->depth) imp->frames[imp->depth - 1].child += d;
}

// The counters' deltas of the fragment that ends now go to the task, and to the implicit task
// whose stub it ran in (before the stub closes: its node gets them).
void stop_counters(Thread* th, Task& x) {
  if (__builtin_expect(!th->counting, 1)) return;
  if (g_node_counters) std::memset(th->frag_delta, 0, sizeof th->frag_delta);
  if (!th->counters.open()) return;
  uint64_t v[kMaxCounters];
  int n = read_counters(th->counters, v);
  if (n == 0) ++th->bad_counter_samples;
  if (!x.counters_started) return;
  x.counters_started = false;
  Task* imp = x.stub_owner;
  for (int i = 0; i < n; ++i) {
    uint64_t d = v[i] - x.counter_start[i];
    x.counter_sum[i] += d;
    if (imp) imp->counter_sum[i] += d;
    th->frag_delta[i] = d;
  }
}

void start_counters(Thread* th, Task& x) {
  if (__builtin_expect(!th->counting, 1) || !th->counters.open()) return;
  x.counters_started = read_counters(th->counters, x.counter_start) > 0;
  if (!x.counters_started) ++th->bad_counter_samples;
}

// `c`: x's construct in th's tables when the caller has it (else looked up here).
inline __attribute__((always_inline)) void resume(Thread* th, Task& x, uint64_t now,
                                                  Construct* c = nullptr) {
  th->current = &x;
  if (x.running && !x.implicit) {
    stop_counters(th, x);
    exit_stub(th, x, now);
    x.clock = clock(x, now);
    x.running = false;
  }
  while (x.depth && x.frames[x.depth - 1].type == FrameType::kSched) close_top(th, x, now);
  if (x.implicit) return;
  if (!c) c = construct(th, x);
  if (x.thread != th->index) {
    // An untied task resumed on another thread: its count of active instances moves here (the
    // other thread's tables are its own; its count stays until the run's end).
    if (c) ++c->migrations;
    x.thread = th->index;
    set_active(th, c, +1);
  }
  x.running = true;
  x.since = now;
  ++x.fragments;
  if (c) ++c->fragments;
  start_counters(th, x);
  enter_stub(th, x, c);
}

void suspend(Thread* th, Task& x, uint64_t now, bool yield) {
  if (yield) push_child(th, x, k(NK::kTaskyield), 0, 0, FrameType::kSched, now);
  if (x.implicit || !x.running) return;
  stop_counters(th, x);
  exit_stub(th, x, now);
  x.clock = clock(x, now);
  x.running = false;
}

void task_begin(Thread* th, Task& x, uint64_t now) {
  x.started = true;
  x.thread = th->index;
  add_ready(th, -1);
  Construct* c = construct(th, x);
  if (c) {
    ++c->instances;
    c->start_delay.add(now > x.created ? now - x.created : 0);
  }
  set_active(th, c, +1);
  resume(th, x, now, c);
  Node* root = c ? c->root : nullptr;
  if (!root) {
    root = child_node(th, nullptr, 0, k(NK::kTask), 0, x.code);
    if (c) c->root = root;
  }
  push_node(th, x, root, root ? root->key : node_key(0, k(NK::kTask), 0, x.code), FrameType::kRoot,
            now, 0);
}

void task_end(Thread* th, Task& x, uint64_t now, bool finished) {
  if (x.running) stop_counters(th, x);
  uint64_t total = clock(x, now);
  while (x.depth) close_top_at(th, x, total);
  if (x.running) exit_stub(th, x, now);
  x.running = false;
  Construct* c = construct(th, x);
  if (c) {
    c->time.add(total);
    if (!finished) ++c->unfinished;
    if (th->counting && th->counters.open()) {
      for (int i = 0; i < kMaxCounters; ++i) c->counters[i].add(x.counter_sum[i]);
    }
  }
  if (x.nparams) add_param_splits(th, x, total);
  set_active(th, c, -1);
  free_task(th, &x);
}

void resolve_pending(Thread* th, uint64_t now, bool switched_out) {
  Task* creator = th->pending_creator;
  th->pending_creator = nullptr;
  if (Construct* c = th->pending_construct) {
    c->creation.add(now > th->pending_since ? now - th->pending_since : 0);
  }
  if (!creator || !creator->depth ||
      creator->frames[creator->depth - 1].type != FrameType::kCreate) {
    return;
  }
  if (switched_out) {
    creator->frames[creator->depth - 1].type = FrameType::kSched;  // the task runs in the creation
  } else {
    close_top(th, *creator, now);
  }
}

void end_implicit(Thread* th, Task* r, uint64_t now) {
  uint64_t incl = 0;
  if (r && r->region) {
    now = frames_time(*r, now);
    release_region(r->region);
    r->region = nullptr;
  }
  if (r) {
    incl = r->depth ? clock(*r, now) - r->frames[0].enter : 0;
    while (r->depth) close_top(th, *r, now);
    if (Task* enc = r->encountering; enc && enc->depth) enc->frames[enc->depth - 1].child += incl;
  }
  for (uint32_t i = th->implicit_depth; i > 0; --i) {
    if (th->implicit[i - 1].task != r) continue;
    th->current = th->implicit[i - 1].resume;
    for (uint32_t j = i - 1; j + 1 < th->implicit_depth; ++j) th->implicit[j] = th->implicit[j + 1];
    --th->implicit_depth;
    if (th->implicit_depth == 0) th->thread_time += incl;
    break;
  }
  if (r) free_task(th, r);
}

}  // namespace

__thread Thread* t_thread __attribute__((tls_model("initial-exec"))) = nullptr;

Thread* new_thread_profile() {
  Thread* th = nullptr;
  uint32_t index = g_thread_count.fetch_add(1, std::memory_order_relaxed);
  if (index >= kMaxThreadsProfiled) return nullptr;
  th = static_cast<Thread*>(std::aligned_alloc(alignof(Thread), sizeof(Thread)));
  if (!th) return nullptr;
  new (th) Thread{};
  th->index = index;
  th->owner = uint16_t(index + 1);
  th->os_tid = int(gettid());
  th->begin = th->state_since = now_ticks();
  th->counters = open_thread_counters();
  th->counting = th->counters.open() || g_node_counters != 0;
  t_thread = th;
  g_threads[index].store(th, std::memory_order_release);
  return th;
}

void end_pending(Thread* th, uint64_t now) {
  resolve_pending(th, now, false);
  th->pending_since = 0;
}

void close_thread(Thread* th, uint64_t now, bool own) {
  if (own) {
    on_other(th, now);
    while (th->implicit_depth) end_implicit(th, th->implicit[th->implicit_depth - 1].task, now);
  }
  if (th->ended) return;
  close_interval(th, now, th->state);
  th->end = now;
  th->ended = true;
}

Thread* current_thread_profile() {
  return t_thread;
}

void on_thread_begin(Thread* th, bool initial, uint64_t now) {
  on_other(th, now);
  th->initial = initial;
}

void on_thread_end(Thread* th, uint64_t now) {
  on_other(th, now);
  close_interval(th, now, th->state);
  th->end = now;
  th->run_delay.own = thread_run_delay(0);
  th->ended = true;
}

Region* on_parallel_begin(Thread* th, Task* encountering, uint64_t code) {
  on_other(th, now_ticks());
  void* mem = std::malloc(sizeof(Region));
  if (!mem) return nullptr;
  return new (mem)
      Region{code, encountering ? top_node(*encountering) : 0, encountering, th->index};
}

void on_parallel_end(Thread* th, Region* r, uint64_t now) {
  on_other(th, now);
  if (r) {
    r->ended.store(now, std::memory_order_release);
    release_region(r);
  }
  refresh(th, now);
}

Task* on_implicit_begin(Thread* th, Region* region, bool initial, uint64_t now) {
  on_other(th, now);
  Task* r = alloc_task(th);
  if (!r) return nullptr;
  r->implicit = r->started = r->running = true;
  r->thread = th->index;
  r->since = r->created = now;
  // A team's initial task in a host `teams` league has the league's region (the program's has
  // none): its end is reported late as a worker's implicit task's is.
  if (region) {
    region->refs.fetch_add(1, std::memory_order_relaxed);
    r->region = region;
  }
  // The program's initial task is the program's root; a league team's runs the `teams` body,
  // a region under the node that met the construct, as a parallel's implicit task does.
  if (initial && !region) {
    r->initial = true;
    push_root(th, *r, k(NK::kProgram), 0, FrameType::kRoot, now);
  } else {
    uint64_t parent = 0;
    if (region) {
      parent = region->parent_node;
      r->parallel_code = region->code;
      if (region->thread == th->index) r->encountering = region->encountering;
    }
    push_root(th, *r, k(NK::kParallel), r->parallel_code, FrameType::kRoot, now, parent);
  }
  if (th->implicit_depth < Thread::kMaxNesting) {
    th->implicit[th->implicit_depth++] = {r, th->current};
  }
  th->current = r;
  refresh(th, now);
  return r;
}

void on_implicit_end(Thread* th, Task* t, uint64_t now) {
  on_other(th, now);
  end_implicit(th, t ? t : th->current, now);
  refresh(th, now);
}

Task* on_create(Thread* th, uint64_t code, uint32_t flags, uint64_t now) {
  on_other(th, now);
  Construct* c = construct_of(th, code);
  if (c) ++c->created;
  Task* x = alloc_task(th);
  if (!x) return nullptr;
  x->code = code;
  x->construct = c;
  x->construct_owner = c ? th->owner : 0;
  x->created = now;
  add_ready(th, +1);
  Task* creator = th->current;
  th->pending_construct = c;
  th->pending_since = now ? now : 1;
  th->pending_creator = nullptr;
  if (!creator) return x;
  th->pending_creator = creator;
  push_child(th, *creator, k(NK::kCreate), 0, code, FrameType::kCreate, now);
  return x;
}

void on_schedule(Thread* th, Task* prior, int status, Task* next, uint64_t now) {
  // ompt_task_status_t: complete 1, yield 2, cancel 3, detach 4, early 5, late fulfill 6,
  // switch 7, taskwait_complete 8.
  if (th->pending_since) {
    bool out =
        prior && prior == th->pending_creator && next != prior && (status == 7 || status == 2);
    resolve_pending(th, now, out);
    th->pending_since = 0;
  }
  if (status == 5 || status == 6) return;
  // An untied task resuming itself on top of the current task switches that one out, which stays
  // under it on this thread; resuming itself when it is current, nothing (format/task_switch.h).
  // Taking the event for nothing once gave the creations and the taskwait of every such part to
  // the task below it (clang BOTS uts: the root task 1,285 taskwaits instead of 1).
  prior = format::switched_out<Task*>(uint8_t(status), prior, next, th->current);
  if (prior == next) return;
  if (prior) {
    switch (status) {
      case 1:
      case 3:
      case 4:
      case 8:
        if (prior->implicit) break;
        if (prior->started) {
          task_end(th, *prior, now, true);
        } else {
          if (status == 3) {
            if (Construct* c = construct(th, *prior)) ++c->discarded;
          }
          add_ready(th, -1);
          free_task(th, prior);
        }
        break;
      default:
        suspend(th, *prior, now, status == 2);
        break;
    }
  }
  th->current = nullptr;
  if (next) {
    if (!next->implicit && !next->started) {
      task_begin(th, *next, now);
    } else {
      resume(th, *next, now);
    }
  }
  refresh(th, now);
}

}  // namespace tasklens::recorder::prof
