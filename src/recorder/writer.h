// The writer thread: takes full chunks from the pool's queue, encodes them (chunk codec) and
// appends them to one stream file per thread, then gives the chunks back. It also keeps the
// per-thread and per-kind counts that end up in the metadata.
#pragma once

#include <semaphore.h>

#include <atomic>
#include <cstdint>
#include <thread>

#include "format/event.h"
#include "recorder/chunk_pool.h"
#include "recorder/thread_buffer.h"

namespace tasklens::recorder {

// No initializers: the writer's table of them lives in the session's zeroed memory (see
// Writer's per-thread arrays below).
struct StreamStats {
  uint64_t events;
  uint64_t chunks;
  uint64_t bytes;  // on disk, headers included
  uint64_t lost;   // dropped by the threads (lost_before) or by failed writes
  uint64_t last_ns_sample_ticks;
};

// What the writer thread needs from its owner, given at start: the threads' buffers (their OS
// thread ids, their switch records), the test gate, and how to rewrite the metadata.
struct WriterLinks {
  ThreadTable threads;
  const char* gate = "";                    // TASKLENS_WRITER_GATE (tests), "" for none
  bool (*write_metadata)() = nullptr;       // rewrites experiment.json (counts, clock)
};

class Writer {
 public:
  // Starts the thread; streams are created in directory `dirfd`.
  bool start(int dirfd, ChunkPool* pool, const WriterLinks& links);
  void wake() { sem_post(&wake_); }
  // The same, for a thread that may come before start(): a thread attaching wants its switch
  // records opened (off_cpu.h), which the writer's first round does anyway.
  void wake_if_started() {
    if (started_.load(std::memory_order_acquire)) sem_post(&wake_);
  }
  // Drains the queue and joins the thread.
  void stop();
  // From a signal handler: asks the thread to drain and stop, waits up to `timeout_ms`.
  bool stop_from_signal(uint32_t timeout_ms);
  // Writes `n` events of `c` directly (signal handler, after stop_from_signal).
  void write_partial(Chunk* c, uint32_t n);
  // Writes the chunks queued after the thread's last drain (signal handler, after
  // stop_from_signal).
  void drain_from_signal() { drain(); }
  bool is_writer_thread() const;

  const StreamStats& stats(uint32_t thread) const { return stats_[thread]; }
  uint64_t kind_count(format::Kind k) const { return kinds_[size_t(k)]; }
  uint64_t total_events() const { return total_events_; }
  uint64_t total_bytes() const { return total_bytes_; }
  uint64_t clamped() const { return clamped_; }
  uint64_t explicit_tasks() const { return explicit_tasks_; }
  // The first write error, empty if none.
  const char* error() const { return error_; }
  // True when a write failed for want of space (ENOSPC, EDQUOT) or the file size limit (EFBIG).
  bool disk_full() const { return disk_full_.load(); }
  // The latest clock sample the writer took (for runs that end without a final one). Any thread,
  // a signal handler included: the pair is published under a sequence count.
  ClockSample last_sample() const;
  // CPU time the writer thread used (user + system), known once it has stopped: the recorder's
  // share of the program's CPU time that does not run in the program's threads.
  uint64_t cpu_ns() const { return cpu_ns_.load(std::memory_order_acquire); }

 private:
  // An encoded chunk waiting in out_ to be written with the others of its thread.
  struct Staged {
    uint32_t offset, bytes, events, clamped, explicit_tasks;
    uint32_t kinds[size_t(format::Kind::kCount)];
  };
  static constexpr uint32_t kMaxStaged = 64;

  void loop();
  void drain();
  // Encodes `n` events of `c` into out_ (flushing first when out_ holds another thread's chunks
  // or is full); the chunk can be reused as soon as this returns.
  void stage_chunk(Chunk* c, uint32_t n);
  // Appends the staged chunks to their thread's stream with one write(); when that fails, cuts
  // the stream back and writes them one by one, so that every chunk that fits is kept.
  void flush_staged();
  void commit(uint32_t thread, const Staged& st);
  void note_failure(uint32_t thread, int err);
  int fd_for(uint32_t thread, int os_tid);

  int dirfd_ = -1;
  ChunkPool* pool_ = nullptr;
  WriterLinks links_;
  std::thread thread_;
  pthread_t native_ = 0;
  sem_t wake_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> crash_{false};
  std::atomic<bool> stopped_{false};
  std::atomic<bool> started_{false};

  uint8_t* out_ = nullptr;  // encoded chunks of one thread, kStageBytes
  size_t out_len_ = 0;
  uint32_t out_thread_ = 0;
  Staged staged_[kMaxStaged];
  uint32_t staged_count_ = 0;
  // Per thread, kMaxThreads of each (220 KB): not initialized here. The writer is a member of
  // the session, which is made in zeroed memory whose pages a run touches only for the threads
  // it has (session.cpp, make_session); start() sets fds_ to -1.
  int fds_[kMaxThreads];
  uint64_t offsets_[kMaxThreads];
  uint32_t seq_[kMaxThreads];
  StreamStats stats_[kMaxThreads];
  uint64_t kinds_[size_t(format::Kind::kCount)] = {};
  uint64_t total_events_ = 0, total_bytes_ = 0, clamped_ = 0, explicit_tasks_ = 0;
  void set_last_sample(ClockSample s);
  std::atomic<uint32_t> sample_seq_{0};  // odd while last_ticks_/last_ns_ change
  std::atomic<uint64_t> last_ticks_{0}, last_ns_{0};
  std::atomic<uint64_t> cpu_ns_{0};
  char error_[512] = {};
  bool failed_ = false;  // a stream write failed: write nothing more
  std::atomic<bool> disk_full_{false};
};

}  // namespace tasklens::recorder
