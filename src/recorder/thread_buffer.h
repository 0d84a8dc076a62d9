// Per-thread event buffers: the hot path. A thread writes events with plain stores into the
// chunk it owns; only when the chunk is full does it talk to anyone (the pool and the writer).
#pragma once

#include <atomic>
#include <cstdint>

#include "format/chunk.h"
#include "format/event.h"
#include "recorder/chunk_pool.h"
#include "recorder/clock.h"
#include "recorder/config.h"
#include "recorder/process_info.h"
#include "recorder/runtime_call_site.h"
#include "recorder/task_counters.h"

namespace tasklens::recorder {

// The most threads one recording holds: the format's limit, which the reader checks.
using format::kMaxThreads;

struct ThreadBuffer {
  format::Event* cur = nullptr;  // next free slot
  format::Event* end = nullptr;  // one past the chunk's last slot; cur == end means "refill"
  Chunk* chunk = nullptr;
  uint64_t id_counter = 0;  // task and parallel region ids made by this thread
  uint32_t index = 0;
  int os_tid = 0;
  bool dropping = false;  // the last refill timed out: take chunks without waiting
  // The taskloops the thread is inside (runtime_call_site.h): its depth, read on every create,
  // sits on the first cache line.
  TaskloopSites taskloops;
  BarrierSite barrier;  // the barrier the thread is in (runtime_call_site.h), read on every create
  uint64_t lost_pending = 0;  // events dropped since the last chunk was taken
  uint64_t lost_total = 0;
  uint64_t stall_ticks = 0;  // time spent waiting for a free chunk
  // Off-CPU measurement (off_cpu.h), never touched on the hot path: the thread's context-switch
  // record stream, or the fallback's figures taken at its end.
  int perf_fd = -1;
  void* perf_ring = nullptr;
  bool perf_tried = false;  // the writer has opened them, or tried (the writer's alone)
  bool times_taken = false;
  uint64_t cpu_ns = 0;
  uint64_t involuntary_switches = 0;
  // The kernel's run-queue wait of the thread (process_info.h): at its end, or at the run's end
  // (Session::finish) for a thread still running then (not in a run ended by a signal: the
  // handler reads no file). The shortest run has it too.
  RunDelay run_delay;
  // Counters per task in a trace (`--counters`, task_counters.h): this thread's counters, opened
  // at its first task switch. Only the counting callback reads them.
  bool counters_opened = false;
  prof::ThreadCounters counters;
};

class Writer;

// The recording threads' buffers by index, as attach_thread() registers them: owned by the
// session, read by the writer (each stream's OS thread id) and the off-CPU drain.
struct ThreadTable {
  std::atomic<ThreadBuffer*>* slots = nullptr;  // kMaxThreads of them
  std::atomic<uint32_t>* count = nullptr;       // slots handed out (may pass kMaxThreads)
  std::atomic<uint64_t>* refused = nullptr;     // threads beyond kMaxThreads

  uint32_t size() const {
    uint32_t n = count->load(std::memory_order_acquire);
    return n < kMaxThreads ? n : kMaxThreads;
  }
  ThreadBuffer* at(uint32_t i) const { return slots[i].load(std::memory_order_acquire); }
};

// What the buffers take chunks from and hand them to, given by the session at start, before it
// records: the buffers never reach the session itself.
struct BufferSink {
  ChunkPool* pool = nullptr;
  Writer* writer = nullptr;
  const std::atomic<bool>* recording = nullptr;
  const Config* config = nullptr;  // the overflow policy and its timeout
  ThreadTable threads;
};
void connect_buffers(const BufferSink& sink);

// This thread's buffer; attach_thread() makes it on the first event. __thread rather than
// thread_local: an extern C++ thread_local is read through a check for a TLS init function.
extern __thread ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec")));

ThreadBuffer* attach_thread();
// Hands the full (or partial) chunk to the writer and returns a slot in a fresh one, or nullptr
// when the event must be dropped (no chunk, or the recorder has stopped).
format::Event* refill(ThreadBuffer* tb);
// Hands the thread's chunk, full or not, to the writer; the next event takes a fresh one.
void hand_over(ThreadBuffer* tb);

inline ThreadBuffer* this_thread() {
  ThreadBuffer* tb = t_buffer;
  if (__builtin_expect(tb == nullptr, 0)) tb = attach_thread();
  return tb;
}

inline uint64_t new_id(ThreadBuffer* tb) {
  return format::make_id(tb->index, ++tb->id_counter);
}

// Fills slot `e` of tb's chunk and moves `cur` past it.
inline void store_event(ThreadBuffer* tb, format::Event* e, format::Kind kind, uint8_t op,
                        uint16_t sub, uint32_t flags, uint64_t a, uint64_t b, uint64_t c) {
  e->time = now_ticks();
  e->kind = kind;
  e->op = op;
  e->sub = sub;
  e->flags = flags;
  e->a = a;
  e->b = b;
  e->c = c;
  // A crash handler on another thread reads `cur`: the event must be complete before it moves.
  std::atomic_signal_fence(std::memory_order_release);
  tb->cur = e + 1;
}

// The slow half of record(): a fresh chunk, then the event. Out of line and called last, so that
// the fast path needs no stack frame.
void record_after_refill(ThreadBuffer* tb, format::Kind kind, uint8_t op, uint16_t sub,
                         uint32_t flags, uint64_t a, uint64_t b, uint64_t c);

inline void record(ThreadBuffer* tb, format::Kind kind, uint8_t op, uint16_t sub, uint32_t flags,
                   uint64_t a, uint64_t b, uint64_t c) {
  format::Event* e = tb->cur;
  if (__builtin_expect(e == tb->end, 0)) {
    return record_after_refill(tb, kind, op, sub, flags, a, b, c);
  }
  store_event(tb, e, kind, op, sub, flags, a, b, c);
}

inline void record(format::Kind kind, uint8_t op, uint16_t sub, uint32_t flags, uint64_t a,
                   uint64_t b, uint64_t c) {
  if (ThreadBuffer* tb = this_thread()) record(tb, kind, op, sub, flags, a, b, c);
}

}  // namespace tasklens::recorder
