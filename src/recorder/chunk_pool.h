// The recorder's only memory for events: a fixed pool of chunks mapped once at start-up.
// Threads take an empty chunk when theirs is full and hand the full one to the writer through
// a lock-free queue (push is async-signal-safe, so a crash handler can use it too).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "format/event.h"

namespace tasklens::recorder {

constexpr size_t kChunkBytes = 128 * 1024;
// Never-used chunks kept with their pages ahead of use once a run fills chunks (see
// ChunkPool::warm_ahead): 1 MiB.
constexpr size_t kWarmChunks = 8;
// The pool's first bytes (16 chunks), in small pages; start-up warms some of them
// (ChunkPool::init).
constexpr size_t kSmallPagesBytes = size_t(2) << 20;
// Fewer warm never-used chunks than this after a take: the writer warms more (ChunkPool::try_take).
constexpr size_t kWarmLowWater = 5;

struct Chunk {
  Chunk* next;           // link in the writer queue or the free list
  uint32_t thread;       // index of the thread that filled it
  uint32_t count;        // events filled
  uint32_t lost_before;  // events dropped on this thread before the first one
  int32_t cpu;           // the CPU the thread ran on when it handed the chunk over, or -1
  format::Event events[(kChunkBytes - 24) / sizeof(format::Event)];
};
constexpr size_t kChunkEvents = sizeof(Chunk::events) / sizeof(format::Event);
static_assert(sizeof(Chunk) <= kChunkBytes);

class ChunkPool {
 public:
  // Maps `bytes` (rounded down to whole chunks, at least 4) and warms the first `warm_chunks`
  // (at most the small-page part). False when mmap fails.
  bool init(size_t bytes, size_t warm_chunks = 0);
  size_t chunk_count() const { return count_; }

  // An empty chunk, or nullptr when none is free. Sets *wake_writer when the chunks warmed
  // ahead run low (kWarmLowWater): the writer should warm more now (see wants_warming).
  Chunk* try_take(bool* wake_writer = nullptr);
  // Waits up to `timeout_ms` for an empty chunk; nullptr on timeout.
  Chunk* take_waiting(uint32_t timeout_ms);
  // Gives an empty chunk back and wakes a waiting thread.
  void give_back(Chunk* c);

  // The full-chunk queue to the writer: many producers, one consumer. Returns how many chunks
  // are queued now, this one included.
  size_t push_full(Chunk* c) {
    Chunk* head = full_.load(std::memory_order_relaxed);
    do {
      c->next = head;
    } while (!full_.compare_exchange_weak(head, c, std::memory_order_release,
                                          std::memory_order_relaxed));
    return queued_.fetch_add(1, std::memory_order_relaxed) + 1;
  }
  // How many queued chunks are worth waking the writer for: a few, so that it drains them in one
  // go instead of waking (two context switches) for every chunk, and few enough that the pool
  // never runs dry while they wait.
  size_t wake_batch() const { return wake_batch_; }
  // Takes every queued chunk, oldest first.
  Chunk* pop_all_full();
  bool full_queue_empty() const { return full_.load(std::memory_order_acquire) == nullptr; }

  // Gives the next `chunks` never-used chunks their pages now (start-up and the writer thread),
  // so that the threads do not take page faults on the hot path.
  void warm_ahead(size_t chunks);
  // Whether the run has taken chunks beyond those warmed at start-up (then the writer keeps
  // kWarmChunks ahead); a short run never does, and never pays for more pages.
  bool wants_warming() const { return filling_.load(std::memory_order_relaxed); }
  // Says the run fills chunks (a thread took its second one); true the first time only, when
  // the caller should wake the writer.
  bool start_warming() {
    return !filling_.load(std::memory_order_relaxed) &&
           !filling_.exchange(true, std::memory_order_relaxed);
  }

  // Chunks in use right now (taken and not given back), and the most ever in use.
  // Read without the lock (the metadata, written by the writer thread while threads take chunks).
  size_t in_use() const { return in_use_.load(std::memory_order_relaxed); }
  size_t peak_in_use() const { return peak_in_use_.load(std::memory_order_relaxed); }

 private:
  Chunk* pop_free_locked(bool* low);

  std::mutex mutex_;
  std::condition_variable freed_;
  Chunk* free_ = nullptr;       // chunks given back
  uint8_t* base_ = nullptr;     // the mapping: chunks [never_used_, count_) were never taken
  std::atomic<size_t> warmed_{0};  // chunks [0, warmed_) have their pages
  std::atomic<bool> filling_{false};  // the run fills chunks (wants_warming)
  size_t never_used_ = 0;
  size_t count_ = 0;
  std::atomic<size_t> in_use_{0};  // changed under mutex_
  std::atomic<size_t> peak_in_use_{0};
  size_t wake_batch_ = 1;
  std::atomic<Chunk*> full_{nullptr};
  std::atomic<size_t> queued_{0};  // chunks in full_ (approximately, while a push is under way)
};

}  // namespace tasklens::recorder
