#include "recorder/writer.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <immintrin.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "format/chunk_builder.h"
#include "format/experiment_dir.h"
#include "recorder/off_cpu.h"

namespace tasklens::recorder {
namespace {

constexpr size_t kBufBytes = format::max_chunk_bytes(kChunkEvents);
// Encoded chunks of a thread are written together, up to about 1 MiB: a write() costs a few
// microseconds of system call on a VM whatever its size (23 KB chunks one by one: 3.2 ns of
// writer CPU per event; 256 KB writes: 1.0 ns).
constexpr size_t kStageBytes = (size_t(1) << 20) + kBufBytes;

bool write_all(int fd, const void* data, size_t n, int* err) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      *err = errno;
      return false;
    }
    p += w;
    n -= size_t(w);
  }
  return true;
}

// CPUID leaf 7: EBX bit 23 says the CPU has clflushopt.
bool has_clflushopt() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23)) != 0;
}
const bool g_clflushopt = has_clflushopt();

// Drops the lines of [p, p + bytes) from every cache. The writer does so once it has encoded a
// chunk filled on another CPU: the thread that takes the chunk next then gets its lines from
// memory instead of taking them back, line by line, from the writer's core, which read them
// last (docs/PERFORMANCE-RECORDING.md: fib with one thread, the writer on the other vCPU, 3x faster). A
// chunk filled on the writer's own CPU is left in its caches.
__attribute__((target("clflushopt"))) void flush_lines(const void* p, size_t bytes) {
  auto line = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(63);
  for (auto end = reinterpret_cast<uintptr_t>(p) + bytes; line < end; line += 64) {
    _mm_clflushopt(reinterpret_cast<void*>(line));
  }
}

}  // namespace

bool Writer::start(int dirfd, ChunkPool* pool, const WriterLinks& links) {
  dirfd_ = dirfd;
  pool_ = pool;
  links_ = links;
  for (uint32_t i = 0; i < kMaxThreads; ++i) fds_[i] = -1;
  void* mem = mmap(nullptr, kStageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return false;
  out_ = static_cast<uint8_t*>(mem);
  if (sem_init(&wake_, 0, 0) != 0) return false;
  // The writer must not take the application's signals.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  thread_ = std::thread([this] { loop(); });
  native_ = thread_.native_handle();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  started_.store(true, std::memory_order_release);
  return true;
}

bool Writer::is_writer_thread() const { return native_ && pthread_equal(native_, pthread_self()); }

void Writer::loop() {
  pthread_setname_np(pthread_self(), "tasklens-writer");
  if (const char* gate = links_.gate; gate && *gate) {
    // Tests: hold the writer until someone opens the named pipe for writing and closes it.
    int fd = ::open(gate, O_RDONLY | O_CLOEXEC);
    char byte;
    while (fd >= 0 && (::read(fd, &byte, 1) > 0 || errno == EINTR)) {
    }
    if (fd >= 0) ::close(fd);
  }
  uint64_t last_metadata_ns = monotonic_ns();
  // The threads' switch records open kSwitchRecordsAfterNs into the run (off_cpu.h): the round
  // that opens them comes then, not at the next 50 ms.
  const uint64_t open_at = last_metadata_ns + kSwitchRecordsAfterNs;
  bool pending = true;
  while (true) {
    uint64_t wait_ns = 50 * 1000 * 1000;
    if (uint64_t now = monotonic_ns(); pending && now < open_at) {
      wait_ns = std::min(wait_ns, open_at - now);
    }
    timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_nsec += long(wait_ns);
    if (deadline.tv_nsec >= 1000000000) deadline.tv_sec += 1, deadline.tv_nsec -= 1000000000;
    sem_timedwait(&wake_, &deadline);
    drain();
    // Not in the last round: opening would make the run's end wait for the kernel.
    bool ending = stop_.load(std::memory_order_acquire) || crash_.load(std::memory_order_acquire);
    pending = drain_switch_records(dirfd_, links_.threads, !ending && monotonic_ns() >= open_at);
    if (crash_.load(std::memory_order_acquire)) break;
    if (pool_->wants_warming()) pool_->warm_ahead(kWarmChunks);
    // Keep the metadata fresh, so that a run killed with SIGKILL still has counts and a clock.
    uint64_t now_ns = last_ns_.load(std::memory_order_relaxed);
    if (now_ns - last_metadata_ns > 1000000000ull) {
      last_metadata_ns = now_ns;
      if (links_.write_metadata) links_.write_metadata();
    }
    if (stop_.load(std::memory_order_acquire)) {
      drain();
      drain_switch_records(dirfd_, links_.threads, false);
      break;
    }
  }
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) == 0) {
    auto ns = [](const timeval& tv) {
      return uint64_t(tv.tv_sec) * 1000000000ull + uint64_t(tv.tv_usec) * 1000ull;
    };
    cpu_ns_.store(ns(usage.ru_utime) + ns(usage.ru_stime), std::memory_order_release);
  }
  stopped_.store(true, std::memory_order_release);
}

void Writer::drain() {
  Chunk* list = pool_->pop_all_full();
  int cpu = sched_getcpu();
  // Thread by thread, each thread's chunks in the order they were filled.
  while (list) {
    uint32_t t = list->thread;
    for (Chunk** link = &list; *link;) {
      Chunk* c = *link;
      if (c->thread != t) {
        link = &c->next;
        continue;
      }
      *link = c->next;
      stage_chunk(c, c->count);
      if (g_clflushopt && c->cpu != cpu) flush_lines(c->events, c->count * sizeof(format::Event));
      // After a crash the threads may still write into chunks handed over: never reuse them.
      if (!crash_.load(std::memory_order_relaxed)) pool_->give_back(c);
    }
  }
  flush_staged();
  set_last_sample(sample_clock());
}

// A sequence lock: the writer thread is the only one to store; readers retry while a store is
// under way (a bounded number of times: a signal handler must not spin for ever).
void Writer::set_last_sample(ClockSample s) {
  uint32_t seq = sample_seq_.load(std::memory_order_relaxed);
  sample_seq_.store(seq + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  last_ticks_.store(s.ticks, std::memory_order_relaxed);
  last_ns_.store(s.ns, std::memory_order_relaxed);
  sample_seq_.store(seq + 2, std::memory_order_release);
}

ClockSample Writer::last_sample() const {
  ClockSample s;
  for (int i = 0; i < 1000; ++i) {
    uint32_t before = sample_seq_.load(std::memory_order_acquire);
    s.ticks = last_ticks_.load(std::memory_order_relaxed);
    s.ns = last_ns_.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (!(before & 1) && sample_seq_.load(std::memory_order_relaxed) == before) return s;
  }
  return ClockSample{};
}

void Writer::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true, std::memory_order_release);
  wake();
  thread_.join();
}

bool Writer::stop_from_signal(uint32_t timeout_ms) {
  if (!native_ || is_writer_thread()) return false;
  crash_.store(true, std::memory_order_release);
  sem_post(&wake_);
  for (uint32_t waited = 0; waited < timeout_ms; ++waited) {
    if (stopped_.load(std::memory_order_acquire)) return true;
    timespec ms = {0, 1000 * 1000};
    nanosleep(&ms, nullptr);
  }
  return stopped_.load(std::memory_order_acquire);
}

void Writer::write_partial(Chunk* c, uint32_t n) {
  stage_chunk(c, n);
  flush_staged();
}

int Writer::fd_for(uint32_t thread, int os_tid) {
  if (fds_[thread] >= 0) return fds_[thread];
  char path[64];
  std::snprintf(path, sizeof path, "%s%04u%s", format::kStreamPrefix, thread,
                format::kStreamSuffix);
  // Created, never reused: an existing file or a planted symbolic link is an error.
  int fd = format::create_in_dir(dirfd_, path, O_WRONLY);
  if (fd < 0) {
    if (errno == ENOSPC || errno == EDQUOT) disk_full_.store(true);
    if (!error_[0]) std::snprintf(error_, sizeof error_, "%s: %s", path, strerror(errno));
    return -1;
  }
  format::FileHeader h = format::make_file_header(thread, uint64_t(os_tid));
  int err = 0;
  if (!write_all(fd, &h, sizeof h, &err)) {
    if (err == ENOSPC || err == EFBIG || err == EDQUOT) disk_full_.store(true);
    if (!error_[0]) std::snprintf(error_, sizeof error_, "%s: %s", path, strerror(err));
    // No stream, not a torn or empty one: the thread's events are counted lost in the metadata,
    // as for a thread whose first chunk came after the disk filled (no file at all). An empty
    // file would read as a stream cut at its header, a fault of its own (thread 0 of a 2-thread
    // run on a full disk, when the other thread filled it first).
    ::close(fd);
    unlinkat(dirfd_, path, 0);
    return -1;
  }
  offsets_[thread] = sizeof h;
  fds_[thread] = fd;
  return fd;
}

void Writer::stage_chunk(Chunk* c, uint32_t n) {
  uint32_t t = c->thread;
  stats_[t].lost += c->lost_before;
  if (n == 0) return;
  if (failed_) {  // nothing more is written (flush_staged)
    stats_[t].lost += n;
    return;
  }
  if (staged_count_ > 0 && (out_thread_ != t || out_len_ + kBufBytes > kStageBytes ||
                            staged_count_ == kMaxStaged)) {
    flush_staged();
  }
  // The stream is opened (created) before the chunk is encoded and given back: a stream that
  // cannot be opened yet (a named pipe without a reader) holds the writer with the chunk.
  const ThreadBuffer* tb = links_.threads.at(t);
  fd_for(t, tb ? tb->os_tid : 0);
  format::ChunkInfo info;
  info.thread = t;
  info.seq = seq_[t]++;
  info.lost_before = c->lost_before;
  ClockSample cs = sample_clock();
  info.calib_ticks = cs.ticks;
  info.calib_ns = cs.ns;
  format::EncodeResult r;
  size_t bytes = format::build_chunk(c->events, n, info, out_ + out_len_, &r);
  Staged& st = staged_[staged_count_++];
  st.offset = uint32_t(out_len_);
  st.bytes = uint32_t(bytes);
  st.events = n;
  st.clamped = r.clamped;
  st.explicit_tasks = r.explicit_creates;
  for (size_t k = 0; k < size_t(format::Kind::kCount); ++k) st.kinds[k] = r.kind_counts[k];
  out_len_ += bytes;
  out_thread_ = t;
}

void Writer::commit(uint32_t t, const Staged& st) {
  StreamStats& s = stats_[t];
  offsets_[t] += st.bytes;
  s.events += st.events;
  s.chunks += 1;
  s.bytes += st.bytes;
  total_events_ += st.events;
  total_bytes_ += st.bytes;
  clamped_ += st.clamped;
  for (size_t k = 0; k < size_t(format::Kind::kCount); ++k) kinds_[k] += st.kinds[k];
  explicit_tasks_ += st.explicit_tasks;
}

void Writer::flush_staged() {
  if (staged_count_ == 0) return;
  uint32_t t = out_thread_;
  int fd = fds_[t];  // opened by stage_chunk, or -1 when that failed
  int err = 0;
  if (fd >= 0 && !failed_ && write_all(fd, out_, out_len_, &err)) {
    for (uint32_t i = 0; i < staged_count_; ++i) commit(t, staged_[i]);
  } else {
    // Cut a torn write off, then write the chunks one by one while they fit: every stream stays
    // a sequence of whole chunks. After the first failure (a full disk, a file size limit, an
    // I/O error) nothing more is written to any stream, so each is a clean prefix of its
    // thread's events; the rest is counted as lost.
    for (uint32_t i = 0; i < staged_count_; ++i) {
      const Staged& st = staged_[i];
      if (fd >= 0 && ftruncate(fd, off_t(offsets_[t])) == 0) lseek(fd, off_t(offsets_[t]), SEEK_SET);
      if (fd >= 0 && !failed_ && write_all(fd, out_ + st.offset, st.bytes, &err)) {
        commit(t, st);
        continue;
      }
      if (fd >= 0 && !failed_) note_failure(t, err);
      failed_ = true;
      stats_[t].lost += st.events;
    }
    if (fd >= 0 && ftruncate(fd, off_t(offsets_[t])) == 0) lseek(fd, off_t(offsets_[t]), SEEK_SET);
    failed_ = true;
  }
  staged_count_ = 0;
  out_len_ = 0;
}

void Writer::note_failure(uint32_t t, int err) {
  if (err == ENOSPC || err == EFBIG || err == EDQUOT) disk_full_.store(true);
  if (!error_[0]) {
    std::snprintf(error_, sizeof error_, "writing the stream of thread %u: %s", t, strerror(err));
  }
}

}  // namespace tasklens::recorder
