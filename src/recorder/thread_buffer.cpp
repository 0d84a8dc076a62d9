#include "recorder/thread_buffer.h"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>

#include "recorder/off_cpu.h"
#include "recorder/writer.h"

namespace tasklens::recorder {

__thread ThreadBuffer* t_buffer __attribute__((tls_model("initial-exec"))) = nullptr;

namespace {

BufferSink g_sink;  // set once by connect_buffers, before the first event

bool recording() {
  return g_sink.recording && g_sink.recording->load(std::memory_order_acquire);
}

// Writes the markers that explain a gap at the start of a fresh chunk.
format::Event* start_chunk(ThreadBuffer* tb, Chunk* c, uint64_t stall_begin, uint64_t stall_end) {
  c->thread = tb->index;
  c->count = 0;
  c->lost_before = uint32_t(tb->lost_pending > 0xffffffffu ? 0xffffffffu : tb->lost_pending);
  format::Event* e = c->events;
  if (stall_end > stall_begin) {
    *e++ = format::Event{stall_begin, format::Kind::kToolStall, 1, 0, 0, 0, 0, 0};
    *e++ = format::Event{stall_end, format::Kind::kToolStall, 2, 0, 0, 0, 0, 0};
    // Atomic stores: the writer reads these for the metadata (relaxed, plain moves on x86).
    __atomic_store_n(&tb->stall_ticks, tb->stall_ticks + (stall_end - stall_begin),
                     __ATOMIC_RELAXED);
  }
  if (tb->lost_pending) {
    *e++ = format::Event{now_ticks(), format::Kind::kLost, 0, 0, c->lost_before, 0, 0, 0};
    tb->lost_total += tb->lost_pending;
    __atomic_store_n(&tb->lost_pending, uint64_t(0), __ATOMIC_RELAXED);
  }
  tb->chunk = c;
  tb->end = c->events + kChunkEvents;
  return e;
}

// An alternate signal stack so that a crash by stack overflow still reaches the handler.
void give_alternate_signal_stack() {
  stack_t current;
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
  constexpr size_t kBytes = 64 * 1024;
  void* mem = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return;
  stack_t st{};
  st.ss_sp = mem;
  st.ss_size = kBytes;
  sigaltstack(&st, nullptr);
}

}  // namespace

void connect_buffers(const BufferSink& sink) { g_sink = sink; }

ThreadBuffer* attach_thread() {
  if (!recording()) return nullptr;
  const ThreadTable& threads = g_sink.threads;
  uint32_t index = threads.count->fetch_add(1, std::memory_order_relaxed);
  if (index >= kMaxThreads) {
    threads.count->store(kMaxThreads, std::memory_order_relaxed);
    threads.refused->fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  auto* tb = new (std::nothrow) ThreadBuffer();
  if (!tb) return nullptr;
  tb->index = index;
  tb->os_tid = int(gettid());
  give_alternate_signal_stack();
  threads.slots[index].store(tb, std::memory_order_release);
  t_buffer = tb;
  // The writer opens the thread's switch records (off_cpu.h): now, not at its next round.
  if (g_sink.writer) g_sink.writer->wake_if_started();
  return tb;
}

void hand_over(ThreadBuffer* tb) {
  if (tb->chunk) {
    tb->chunk->count = uint32_t(tb->cur - tb->chunk->events);
    tb->chunk->cpu = sched_getcpu();
    // The writer wakes by itself every 50 ms; a few queued chunks (wake_batch) wake it sooner.
    ChunkPool* pool = g_sink.pool;
    if (pool->push_full(tb->chunk) >= pool->wake_batch()) g_sink.writer->wake();
    tb->chunk = nullptr;
  }
  tb->cur = tb->end = nullptr;
}

format::Event* refill(ThreadBuffer* tb) {
  const BufferSink& s = g_sink;
  bool refilling = tb->chunk != nullptr;
  hand_over(tb);
  if (!recording()) return nullptr;

  bool warm_more = false;
  Chunk* c = s.pool->try_take(&warm_more);
  // The writer warms the next chunks: from a thread's second chunk on (the run fills chunks),
  // and whenever few warm ones are left (ChunkPool::try_take).
  if (refilling && s.pool->start_warming()) warm_more = true;
  if (warm_more) s.writer->wake_if_started();
  uint64_t stall_begin = 0, stall_end = 0;
  if (!c && s.config->overflow == OverflowPolicy::kBlock && !tb->dropping) {
    stall_begin = now_ticks();
    s.writer->wake();  // whatever it has queued, the writer must free chunks now
    c = s.pool->take_waiting(s.config->block_timeout_ms);
    stall_end = now_ticks();
  }
  if (!c) {
    // Nothing free: this event is lost. Keep cur == end so the next event tries again.
    tb->dropping = true;
    __atomic_store_n(&tb->lost_pending, tb->lost_pending + 1, __ATOMIC_RELAXED);
    return nullptr;
  }
  tb->dropping = false;
  return start_chunk(tb, c, stall_begin, stall_end);
}

void record_after_refill(ThreadBuffer* tb, format::Kind kind, uint8_t op, uint16_t sub,
                         uint32_t flags, uint64_t a, uint64_t b, uint64_t c) {
  if (format::Event* e = refill(tb)) store_event(tb, e, kind, op, sub, flags, a, b, c);
}

}  // namespace tasklens::recorder
