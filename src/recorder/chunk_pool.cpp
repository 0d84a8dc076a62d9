#include "recorder/chunk_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>

namespace tasklens::recorder {

bool ChunkPool::init(size_t bytes) {
  size_t n = bytes / kChunkBytes;
  if (n < 4) n = 4;
  void* mem = mmap(nullptr, n * kChunkBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) return false;
  // Chunks are handed out from the start of the mapping and linked into the free list only
  // when given back: a run touches only the pages it uses, and start-up writes nothing.
  base_ = static_cast<uint8_t*>(mem);
  count_ = n;
  warm_ahead(kWarmChunks);
  return true;
}

Chunk* ChunkPool::pop_free_locked() {
  Chunk* c = free_;
  if (c) {
    free_ = c->next;
  } else if (never_used_ < count_) {
    c = reinterpret_cast<Chunk*>(base_ + never_used_++ * kChunkBytes);
  } else {
    return nullptr;
  }
  if (++in_use_ > peak_in_use_) peak_in_use_ = in_use_;
  return c;
}

Chunk* ChunkPool::try_take() {
  std::lock_guard<std::mutex> lock(mutex_);
  return pop_free_locked();
}

Chunk* ChunkPool::take_waiting(uint32_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                  [&] { return free_ != nullptr || never_used_ < count_; });
  return pop_free_locked();
}

void ChunkPool::give_back(Chunk* c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    c->next = free_;
    free_ = c;
    --in_use_;
  }
  freed_.notify_one();
}

void ChunkPool::warm_ahead(size_t chunks) {
  // A first write to a fresh page costs a page fault, 5-10 us on this kind of VM: taken on the
  // hot path, every 4 KiB of events (about 100) would stall the program that long. So the
  // chunks next in line get their pages before they are handed out. MADV_POPULATE_WRITE
  // (Linux 5.14) faults pages in without touching their contents, so it is safe even while a
  // thread already writes into one of them; on older kernels it fails and nothing changes.
  size_t target;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    target = std::min(count_, never_used_ + chunks);
  }
  size_t from = warmed_.load(std::memory_order_relaxed);
  if (target <= from) return;
  madvise(base_ + from * kChunkBytes, (target - from) * kChunkBytes, MADV_POPULATE_WRITE);
  warmed_.store(target, std::memory_order_relaxed);
}

Chunk* ChunkPool::pop_all_full() {
  Chunk* c = full_.exchange(nullptr, std::memory_order_acquire);
  Chunk* reversed = nullptr;
  while (c) {
    Chunk* next = c->next;
    c->next = reversed;
    reversed = c;
    c = next;
  }
  return reversed;
}

}  // namespace tasklens::recorder
