#include "recorder/chunk_pool.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>

namespace tasklens::recorder {

bool ChunkPool::init(size_t bytes, size_t warm_chunks) {
  size_t n = bytes / kChunkBytes;
  if (n < 4) n = 4;
  // 2 MiB more, to start the chunks on a 2 MiB boundary.
  constexpr size_t kHuge = size_t(2) << 20;
  void* mem = mmap(nullptr, n * kChunkBytes + kHuge, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) return false;
  // Chunks are handed out from the start of the mapping and linked into the free list only
  // when given back: a run touches only the pages it uses (start-up warms `warm_chunks`, the
  // writer thread kWarmChunks ahead of use once the run fills chunks, see warm_ahead).
  base_ = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(mem) + kHuge - 1) & ~(kHuge - 1));
  // Transparent huge pages where the system allows them (`madvise` mode): the first use of a
  // chunk is then one page fault per 16 chunks instead of 32 per chunk (a fault costs about
  // 10 us on this machine kind: 100 ns per event of a fresh chunk). Not the first 2 MiB, which
  // every run warms at start-up: a fresh huge page sometimes took 6-13 ms to clear on our VM
  // (the host backing it, or the kernel compacting: one short run in three), where 2 MiB of
  // small pages take 0.3-0.6 ms, always.
  size_t used = n * kChunkBytes, small = std::min(used, kSmallPagesBytes);
  madvise(base_, small, MADV_NOHUGEPAGE);
  if (used > small) madvise(base_ + small, used - small, MADV_HUGEPAGE);
  count_ = n;
  wake_batch_ = n / 16 < 1 ? 1 : n / 16 > 8 ? 8 : n / 16;
  // Here, not in the writer thread: the kernel often starts a new thread on its creator's CPU,
  // and the writer's work would then take the CPU from the program's first thread. Only what
  // the caller expects the first threads to take: all 16 small-page chunks (2 MiB) cost a short
  // run 0.5-0.7 ms of page clearing at start and their freeing at exit
  // (docs/PERFORMANCE-RECORDING.md, "Fixed cost of a run").
  warm_ahead(std::min(warm_chunks, small / kChunkBytes));
  return true;
}

Chunk* ChunkPool::pop_free_locked(bool* low) {
  Chunk* c = free_;
  if (c) {
    free_ = c->next;
  } else if (never_used_ < count_) {
    c = reinterpret_cast<Chunk*>(base_ + never_used_++ * kChunkBytes);
    // A run that takes never-used chunks faster than start-up warmed them: from now on the
    // writer keeps kWarmChunks ahead, starting at once (the caller wakes it).
    if (warmed_.load(std::memory_order_relaxed) < never_used_ + kWarmLowWater &&
        never_used_ < count_) {
      filling_.store(true, std::memory_order_relaxed);
      if (low) *low = true;
    }
  } else {
    return nullptr;
  }
  size_t used = in_use_.load(std::memory_order_relaxed) + 1;
  in_use_.store(used, std::memory_order_relaxed);
  if (used > peak_in_use_.load(std::memory_order_relaxed)) {
    peak_in_use_.store(used, std::memory_order_relaxed);
  }
  return c;
}

Chunk* ChunkPool::try_take(bool* wake_writer) {
  Chunk* c;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    c = pop_free_locked(wake_writer);
  }
  // A never-used chunk the writer has not warmed yet (it was late, or the run took chunks
  // faster): one call for its pages instead of a fault per 4 KiB on the hot path.
  if (c && reinterpret_cast<uint8_t*>(c) >=
               base_ + warmed_.load(std::memory_order_relaxed) * kChunkBytes) {
    madvise(c, kChunkBytes, MADV_POPULATE_WRITE);
  }
  return c;
}

Chunk* ChunkPool::take_waiting(uint32_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                  [&] { return free_ != nullptr || never_used_ < count_; });
  return pop_free_locked(nullptr);
}

void ChunkPool::give_back(Chunk* c) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    c->next = free_;
    free_ = c;
    in_use_.store(in_use_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
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
  size_t n = 0;
  while (c) {
    Chunk* next = c->next;
    c->next = reversed;
    reversed = c;
    c = next;
    ++n;
  }
  queued_.fetch_sub(n, std::memory_order_relaxed);
  return reversed;
}

}  // namespace tasklens::recorder
