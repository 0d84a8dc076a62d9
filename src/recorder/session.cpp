#include "recorder/session.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "format/chunk.h"
#include "format/experiment_dir.h"
#include "format/json_out.h"
#include "format/kinds.h"
#include "format/metadata_keys.h"
#include "format/mpi_env.h"
#include "format/profile_file.h"
#include "recorder/loaded_objects.h"
#include "recorder/off_cpu.h"
#include "recorder/process_info.h"
#include "recorder/profiler.h"
#include "recorder/runtime_call_site.h"
#include "recorder/signals.h"
#include "recorder/task_counters.h"

namespace tasklens::recorder {
namespace key = format::key;

namespace {

// The session is about 350 KB, most of it per-thread tables (kMaxThreads entries) of which a
// run uses a few. It is made in zeroed memory (calloc of this size is a fresh mapping, which
// glibc does not clear again) and its constructor leaves those tables alone (session.h,
// writer.h): the kernel gives their pages, zero, when a thread first uses its entries. Zeroing
// them in the constructor cost a page fault per 4 KiB or, populated in one madvise call, still
// the writes: 1-2 ms of every run under load. On the heap still, so that leak checkers see
// what the session points to.
Session* make_session() {
  void* p = std::calloc(1, sizeof(Session));
  if (!p) std::abort();  // 350 KB at load time: nothing to record with
  return new (p) Session;
}

}  // namespace

// Never destroyed: its writer thread and buffers must outlive every static destructor.
Session& g_session = *make_session();

namespace {

constexpr size_t kMetadataBytes = 4u << 20;
constexpr size_t kTextBytes = 256u << 10;

// Text captured at start-up, when it is safe to read it: the command line and the objects.
char* g_cmdline = nullptr;
size_t g_cmdline_len = 0;
char* g_objects = nullptr;

// Space for the last metadata when the disk fills up: freed just before that write.
constexpr char kReserveFile[] = ".reserve";
constexpr off_t kReserveBlock = 4096;
off_t g_reserve_bytes = 0;  // the reserve's size (0: none)

// The threads a run is expected to have: OMP_NUM_THREADS's first level, else the CPUs the
// process may run on (libomp's default).
size_t expected_threads() {
  long threads = 0;
  if (const char* n = std::getenv("OMP_NUM_THREADS")) threads = std::strtol(n, nullptr, 10);
  if (threads <= 0) threads = long(affinity_cpus());
  return threads <= 0 || threads > 64 ? 64 : size_t(threads);
}

// Whole blocks for a metadata of `metadata_bytes`. Sized to the metadata, not 1 MiB: cutting the
// reserve to the metadata's size at exit freed the rest, and on a file system mounted with
// `discard` and no journal every freeing is a synchronous discard (0.2 ms, at times 4-20 ms
// here; docs/PERFORMANCE-RECORDING.md, "Fixed cost of a run").
off_t reserve_bytes_for(size_t metadata_bytes) {
  return off_t((metadata_bytes + size_t(kReserveBlock) - 1) / size_t(kReserveBlock)) *
         kReserveBlock;
}

void make_reserve(int dirfd, size_t expected_bytes) {
  off_t bytes = reserve_bytes_for(expected_bytes);
  // Under a file size limit no reserve is needed (the limit is per file), and growing a file
  // past it would raise SIGXFSZ.
  rlimit fsize{};
  if (getrlimit(RLIMIT_FSIZE, &fsize) == 0 && fsize.rlim_cur != RLIM_INFINITY &&
      fsize.rlim_cur <= rlim_t(bytes)) {
    return;
  }
  int fd = format::create_in_dir(dirfd, kReserveFile, O_WRONLY);
  if (fd < 0) return;
  bool ok = posix_fallocate(fd, 0, bytes) == 0;
  close(fd);
  if (ok) {
    g_reserve_bytes = bytes;
  } else {
    unlinkat(dirfd, kReserveFile, 0);
  }
}

// A running metadata grown near the reserve's size (threads beyond those expected, names, objects
// loaded later): the reserve grows to half as much again, so the last one still fits in it.
void grow_reserve(int dirfd, size_t metadata_bytes) {
  size_t want = metadata_bytes + metadata_bytes / 2;
  if (g_reserve_bytes == 0 || off_t(metadata_bytes + metadata_bytes / 4) <= g_reserve_bytes) return;
  int fd = openat(dirfd, kReserveFile, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  off_t bytes = reserve_bytes_for(want);
  if (posix_fallocate(fd, 0, bytes) == 0) g_reserve_bytes = bytes;
  close(fd);
}

// Lists the pid-N folders of descendant processes (metadata "processes").
void write_processes(format::JsonOut& o, int dirfd) {
  o.key(key::kProcesses).begin_array();
  format::for_each_dir_entry(
      dirfd,
      [](const char* name, void* arg) {
        if (std::strncmp(name, "pid-", 4) != 0 || !format::is_tasklens_entry(name)) return;
        auto& out = *static_cast<format::JsonOut*>(arg);
        out.begin_object()
            .kv_i64(key::kPid, std::strtol(name + 4, nullptr, 10))
            .kv(key::kDir, name);
        out.end_object();
      },
      &o);
  o.end_array();
}

// The arguments count of a NUL-separated command line of `len` bytes.
size_t count_args(const char* s, size_t len, char separator) {
  size_t n = 0;
  for (size_t i = 0; i < len; ++i) n += s[i] == separator;
  return n;
}

// /proc/self/cmdline shows argv as it is now, and the runtime loads the tool at its first
// construct, after main may have rewritten its arguments in place (BOTS marks the options it
// parsed: "-f" becomes "-*"). `tasklens run` passes the command line as it ran it in
// TASKLENS_ARGS (arguments separated by 0x1f); it is taken when it is this process's: the same
// argument count and argv[0].
void capture_cmdline() {
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t n = read(fd, g_cmdline, kTextBytes - 1);
  close(fd);
  g_cmdline_len = n > 0 ? size_t(n) : 0;
  const char* given = std::getenv("TASKLENS_ARGS");
  if (!given || g_cmdline_len == 0) return;
  size_t len = std::strlen(given) + 1;  // with its NUL: one separator per argument
  size_t argv0 = std::strlen(g_cmdline);
  if (len >= kTextBytes ||
      count_args(given, len - 1, '\x1f') + 1 != count_args(g_cmdline, g_cmdline_len, '\0') ||
      std::strncmp(given, g_cmdline, argv0) != 0 || (given[argv0] != '\x1f' && given[argv0])) {
    return;
  }
  for (size_t i = 0; i < len; ++i) g_cmdline[i] = given[i] == '\x1f' ? '\0' : given[i];
  g_cmdline_len = len;
}

void capture_objects() {
  format::JsonOut o(g_objects, kTextBytes);
  write_loaded_objects(o);
  if (o.overflowed()) std::snprintf(g_objects, kTextBytes, "[]");
}

void* map_bytes(size_t n) {
  void* p =
      mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

const char* status_name(RunStatus s) {
  switch (s) {
    case RunStatus::kNotStarted:
      return "not_started";
    case RunStatus::kRunning:
      return "running";
    case RunStatus::kComplete:
      return "complete";
    case RunStatus::kCrashed:
      return "crashed";
    case RunStatus::kInterrupted:
      return "interrupted";
  }
  return "?";
}

const char* result_name(int r) {
  switch (r) {
    case 1:
      return "never";
    case 2:
      return "impossible";
    case 3:
      return "sometimes";
    case 4:
      return "sometimes_paired";
    case 5:
      return "always";
    default:
      return "error";
  }
}

void child_after_fork() {
  g_session.disable_after_fork();
}

// The pool's chunks warmed at start-up (ChunkPool::init): each expected thread's first chunk
// and its next, plus two, and at least kWarmChunks (1 MiB: the runway of a one-thread run until
// the writer warms more, kWarmLowWater). None in profile mode, which records no events.
size_t chunks_to_warm(const Config& config) {
  return config.profile ? 0 : std::max(kWarmChunks, 2 * expected_threads() + 2);
}

}  // namespace

bool Session::start() {
  // First: what the program's start waited for a CPU, before the recorder or its writer existed.
  run_delay_before = thread_run_delay(0);
  read_config(config, program_invocation_short_name);
  invariant_tsc = tsc_is_invariant();
  g_clock_source = (config.clock == ClockSource::kTsc && invariant_tsc) ? ClockSource::kTsc
                                                                        : ClockSource::kMonotonic;
  metadata_buf_ = static_cast<char*>(map_bytes(kMetadataBytes));
  metadata_cap_ = kMetadataBytes;
  g_cmdline = static_cast<char*>(map_bytes(kTextBytes));
  g_objects = static_cast<char*>(map_bytes(kTextBytes));
  if (!metadata_buf_ || !g_cmdline || !g_objects ||
      !pool.init(config.buffer_bytes, chunks_to_warm(config))) {
    if (!config.quiet) std::fprintf(stderr, "tasklens: cannot map the recording buffers\n");
    return false;
  }
  char why[4400];
  if (!claim_output_dir(config.output_dir, config.output_fd, &output, why, sizeof why)) {
    if (!config.quiet) std::fprintf(stderr, "tasklens: %s; not recording\n", why);
    return false;
  }
  capture_cmdline();
  capture_objects();
  // The last metadata, generously: its fixed part (about 2.3 KB), the command line (three
  // times at most), the loaded objects and about 155 bytes per thread.
  make_reserve(output.fd,
               2400 + 3 * g_cmdline_len + std::strlen(g_objects) + 160 * expected_threads());
  mpi_place_ = format::mpi_place_from_env();
  Dl_info self{};
  if (dladdr(reinterpret_cast<void*>(&attach_thread), &self) && self.dli_fname) {
    std::snprintf(library_path_, sizeof library_path_, "%s", self.dli_fname);
  }
  timespec real;
  clock_gettime(CLOCK_REALTIME, &real);
  start_unix_ns = uint64_t(real.tv_sec) * 1000000000ull + uint64_t(real.tv_nsec);
  clock_start = sample_clock();
  ProcessStart ps = process_start(clock_start.ns);
  process_start_ns = ps.monotonic_ns;
  process_start_source = ps.source;
  affinity_cpus = recorder::affinity_cpus();
  online_cpus = recorder::online_cpus();
  status_ = RunStatus::kRunning;
  ThreadTable table{threads, &thread_count, &threads_refused};
  connect_buffers(BufferSink{&pool, &writer, &recording_, &config, table});
  // Counters per task (task_counters.h): read by the profile's callbacks in profile mode, recorded
  // as `counters` events before every task_schedule in a trace (ompt_tool.cpp).
  int counters = prof::setup_counters(config.counters, config.quiet);
  if (config.profile) prof::g_node_counters = counters;  // the profile's nodes carry them too
  recording_.store(true, std::memory_order_release);
  return true;
}

bool Session::begin() {
  // One metadata write at start, with the callbacks the runtime granted (a second one in the
  // writer's first round cost a file creation and a rename in every short run).
  if (!write_metadata()) {
    recording_.store(false);
    if (!config.quiet) {
      std::fprintf(stderr, "tasklens: cannot write in %s; not recording\n", output.path);
    }
    return false;
  }
  ThreadTable table{threads, &thread_count, &threads_refused};
  WriterLinks links{table, config.writer_gate, [] { return g_session.write_metadata(); }};
  if (config.profile) {
    // Profile mode: no events, no writer thread; the callbacks aggregate (profiler.h).
    prof::g_enabled = true;
  } else if (!writer.start(output.fd, &pool, links)) {
    recording_.store(false);
    return false;
  }
  install_signal_handlers([](int sig) { g_session.finish_on_signal(sig); });
  pthread_atfork(nullptr, nullptr, child_after_fork);
  return true;
}

void Session::flush_all_threads() {
  uint32_t n = thread_count.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n && i < kMaxThreads; ++i) {
    ThreadBuffer* tb = threads[i].load(std::memory_order_acquire);
    if (tb) hand_over(tb);
  }
}

void Session::finish() {
  if (status_.load() != RunStatus::kRunning || finishing_.exchange(true)) return;
  recording_.store(false, std::memory_order_release);
  // The thread that ends the run (mostly the initial one) gets no thread_end of its own.
  if (ThreadBuffer* tb = t_buffer; tb && !__atomic_load_n(&tb->times_taken, __ATOMIC_RELAXED)) {
    sample_thread_times(tb);
  }
  flush_all_threads();
  writer.stop();
  // The threads still running (libomp's workers are ended after the tool): their run-queue
  // wait so far, read by their id.
  for (uint32_t i = 0, n = thread_count.load(std::memory_order_acquire); i < n && i < kMaxThreads;
       ++i) {
    ThreadBuffer* tb = threads[i].load(std::memory_order_acquire);
    if (tb && !__atomic_load_n(&tb->times_taken, __ATOMIC_ACQUIRE)) {
      tb->run_delay.at_end = thread_run_delay(tb->os_tid);
    }
  }
  if (config.profile &&
      !prof::finish_and_write(output.fd, prof::counter_names(), prof::counter_count()) &&
      !config.quiet) {
    std::fprintf(stderr, "tasklens: cannot write %s in %s\n", format::kProfileFile, output.path);
  }
  clock_end = sample_clock();
  capture_objects();
  status_ = RunStatus::kComplete;
  write_metadata();
  finished_.store(true, std::memory_order_release);
}

void Session::finish_on_signal(int sig) {
  if (finishing_.exchange(true)) {
    // Another thread is ending the run (a second fatal signal in flight, or the normal end):
    // returning now would re-run the fault with the default action and end the process before
    // that thread has written the trace. Wait for it, bounded (5 s), in case it is this thread.
    for (int i = 0; i < 5000 && !finished_.load(std::memory_order_acquire); ++i) {
      timespec pause{0, 1000000};
      nanosleep(&pause, nullptr);
    }
    return;
  }
  if (status_.load() != RunStatus::kRunning) {
    finished_.store(true, std::memory_order_release);
    return;
  }
  recording_.store(false, std::memory_order_release);
  bool writer_idle = writer.stop_from_signal(2000) || writer.is_writer_thread();
  if (writer_idle) {
    // Chunks handed over between the writer's last drain and its stop: still in the queue.
    writer.drain_from_signal();
    uint32_t n = thread_count.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < n && i < kMaxThreads; ++i) {
      ThreadBuffer* tb = threads[i].load(std::memory_order_acquire);
      if (!tb || !tb->chunk) continue;
      writer.write_partial(tb->chunk, uint32_t(tb->cur - tb->chunk->events));
    }
  }
  clock_end = sample_clock();
  end_signal_ = sig;
  status_ = (sig == SIGINT || sig == SIGTERM) ? RunStatus::kInterrupted : RunStatus::kCrashed;
  write_metadata();
  finished_.store(true, std::memory_order_release);
}

void Session::disable_after_fork() {
  recording_.store(false, std::memory_order_release);
  status_ = RunStatus::kNotStarted;
  uint32_t n = thread_count.load(std::memory_order_relaxed);
  for (uint32_t i = 0; i < n && i < kMaxThreads; ++i) {
    ThreadBuffer* tb = threads[i].load(std::memory_order_relaxed);
    if (tb) tb->chunk = nullptr, tb->cur = tb->end = nullptr;
  }
  // The child does not write: it must not keep the directory locked after the parent's end.
  if (output.fd >= 0) close(output.fd);
  output.fd = -1;
}

void Session::note_callback(const char* name, int result) {
  if (callback_count_ < std::size(callbacks_)) callbacks_[callback_count_++] = {name, result};
}

uint32_t Session::intern(const char* name) {
  std::lock_guard<std::mutex> lock(strings_mutex_);
  uint32_t count = string_count_.load(std::memory_order_relaxed);
  for (uint32_t i = 0; i < count; ++i) {
    if (std::strcmp(strings_[i], name) == 0) return i + 1;
  }
  if (count == kMaxStrings) return 0;  // more names than that: not recorded
  strings_[count] = strdup(name);
  if (!strings_[count]) return 0;
  string_count_.store(count + 1, std::memory_order_release);
  return count + 1;
}

bool Session::write_metadata() {
  // Another writer of the metadata (or a signal that interrupted one): let it finish a while.
  for (int i = 0; metadata_busy_.test_and_set(std::memory_order_acquire); ++i) {
    if (i > 200) return false;
    timespec ms = {0, 1000 * 1000};
    nanosleep(&ms, nullptr);
  }
  if (!metadata_buf_) {
    metadata_busy_.clear();
    return false;
  }
  format::JsonOut o(metadata_buf_, metadata_cap_);
  o.begin_object();
  o.kv(key::kFormat, key::kFormatMarker).kv_u64(key::kFormatVersion, format::kFormatVersion);
  o.key(key::kTool).begin_object().kv(key::kName, "tasklens").kv(key::kVersion, TASKLENS_VERSION);
  o.kv(key::kLibrary, library_path_).end_object();
  RunStatus status = status_.load();
  o.kv(key::kStatus, status_name(status));
  o.kv(key::kMode, config.profile ? format::kModeProfile : format::kModeTrace);
  if (end_signal_) {
    // "signal N (NAME)", without snprintf: this may run in the crash handler.
    char reason[64];
    size_t at = 0;
    auto add = [&](const char* text) {
      while (*text && at + 1 < sizeof reason) reason[at++] = *text++;
    };
    char num[format::kU64Digits + 1];
    num[format::u64_text(uint64_t(unsigned(end_signal_)), 10, num)] = 0;
    add("signal ");
    add(num);
    const char* name = sigabbrev_np(end_signal_);
    add(" (");
    add(name ? name : "?");
    add(")");
    reason[at] = 0;
    o.kv(key::kEndReason, reason);
  } else if (status == RunStatus::kComplete) {
    o.kv(key::kEndReason, "exit");
  }

  o.key(key::kProgram).begin_object();
  o.kv_i64(key::kPid, getpid());
  o.key(key::kArgs).begin_array();
  for (size_t i = 0; i < g_cmdline_len;) {
    o.str(g_cmdline + i);
    i += std::strlen(g_cmdline + i) + 1;
  }
  o.end_array();
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  o.kv(key::kPath, exe);
  o.end_object();
  if (output.descendant) {
    // Started, directly or not, by the process at the top of the directory above.
    o.key(key::kParent)
        .begin_object()
        .kv_i64(key::kPpid, getppid())
        .kv_i64(key::kTopPid, output.owner_pid);
    o.kv(key::kExperiment, "..").end_object();
  }
  write_processes(o, output.fd);
  if (mpi_place_.is_rank()) {
    o.key(key::kMpi).begin_object().kv_i64(key::kRank, mpi_place_.rank);
    o.kv_i64(key::kSize, mpi_place_.size).end_object();
  }
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  o.kv(key::kHost, host);
  o.kv_u64(key::kStartUnixNs, start_unix_ns);
  o.key(key::kProcess).begin_object().kv_u64(key::kStartNs, process_start_ns);
  o.kv(key::kStartSource, process_start_source).end_object();
  o.key(key::kMachine).begin_object().kv_u64(key::kAffinityCpus, affinity_cpus);
  o.kv_u64(key::kOnlineCpus, online_cpus).end_object();
  // Profile mode opens no switch records and takes no thread's times: "none", not a refusal.
  o.key(key::kPreemption)
      .begin_object()
      .kv(key::kSource, config.profile ? "none" : off_cpu_source());
  o.kv(key::kError, off_cpu_error()).kv_i64(key::kPerfEventParanoid, perf_event_paranoid());
  o.kv_u64(key::kRecords, off_cpu_records()).kv_u64(key::kLost, off_cpu_lost()).end_object();

  o.key(key::kRuntime).begin_object().kv(key::kVersion, runtime_version);
  CodeSpan code = runtime_code();
  o.key(key::kCode).begin_array().hex(code.begin).hex(code.end).end_array();
  o.key(key::kCallbacks).begin_object();
  for (uint32_t i = 0; i < callback_count_; ++i) {
    o.kv(callbacks_[i].name, result_name(callbacks_[i].result));
  }
  o.end_object().end_object();

  o.key(key::kClock).begin_object();
  o.kv(key::kSource, g_clock_source == ClockSource::kTsc ? "tsc" : "monotonic");
  o.kv_bool(key::kInvariantTsc, invariant_tsc);
  o.key(key::kStart)
      .begin_object()
      .kv_u64(key::kTicks, clock_start.ticks)
      .kv_u64(key::kNs, clock_start.ns);
  o.end_object();
  ClockSample end = clock_end.ticks ? clock_end : writer.last_sample();
  o.key(key::kEnd)
      .begin_object()
      .kv_u64(key::kTicks, end.ticks)
      .kv_u64(key::kNs, end.ns)
      .end_object();
  o.kv_bool(key::kEndIsFinal, clock_end.ticks != 0);
  o.end_object();

  uint32_t nthreads = thread_count.load(std::memory_order_acquire);
  if (nthreads > kMaxThreads) nthreads = kMaxThreads;
  uint64_t lost = 0, stall = 0;
  o.key(key::kThreads).begin_array();
  for (uint32_t i = 0; i < nthreads; ++i) {
    ThreadBuffer* tb = threads[i].load(std::memory_order_acquire);
    if (!tb) continue;
    const StreamStats& s = writer.stats(i);
    // Changed by their thread, on its slow path only (thread_buffer.cpp).
    uint64_t thread_lost = s.lost + __atomic_load_n(&tb->lost_pending, __ATOMIC_RELAXED);
    lost += thread_lost;
    stall += __atomic_load_n(&tb->stall_ticks, __ATOMIC_RELAXED);
    o.begin_object().kv_u64(key::kIndex, i).kv_i64(key::kOsTid, tb->os_tid);
    o.kv_u64(key::kEvents, s.events).kv_u64(key::kChunks, s.chunks).kv_u64(key::kBytes, s.bytes);
    o.kv_u64(key::kLost, thread_lost);
    if (__atomic_load_n(&tb->times_taken, __ATOMIC_ACQUIRE)) {  // set by the thread at its end
      o.kv_u64(key::kCpuNs, tb->cpu_ns).kv_u64(key::kInvoluntarySwitches, tb->involuntary_switches);
    }
    const std::optional<uint64_t>& run_delay = __atomic_load_n(&tb->times_taken, __ATOMIC_ACQUIRE)
                                                   ? tb->run_delay.own
                                                   : tb->run_delay.at_end;
    if (run_delay) o.kv_u64(key::kRunDelayNs, *run_delay);
    o.end_object();
  }
  o.end_array();

  o.key(key::kRecorder).begin_object();
  o.kv_u64(key::kBufferBytes, pool.chunk_count() * kChunkBytes);
  o.kv_u64(key::kChunkBytes, kChunkBytes).kv_u64(key::kChunkEvents, kChunkEvents);
  o.kv_u64(key::kPeakChunksInUse, pool.peak_in_use());
  o.kv(key::kOverflow, config.overflow == OverflowPolicy::kBlock ? "block" : "drop");
  o.kv_u64(key::kEventsWritten, writer.total_events());
  o.kv_u64(key::kEventsLost, lost);
  o.kv_u64(key::kThreadsRefused, threads_refused.load());
  o.kv_u64(key::kStallTicks, stall);
  o.kv_u64(key::kTimesClamped, writer.clamped());
  o.kv_u64(key::kWriterCpuNs, writer.cpu_ns());
  if (run_delay_before) o.kv_u64(key::kRunDelayBeforeNs, *run_delay_before);
  o.kv(key::kWriteError, writer.error());
  o.kv_bool(key::kDiskFull, writer.disk_full());
  o.end_object();

  o.kv_u64(key::kExplicitTasks, writer.explicit_tasks());
  o.key(key::kCounts).begin_object();
  for (size_t k = 1; k < size_t(format::Kind::kCount); ++k) {
    uint64_t c = writer.kind_count(format::Kind(k));
    if (c) o.kv_u64(format::layout(format::Kind(k)).name, c);
  }
  o.end_object();

  o.key(key::kObjects).json(g_objects);
  if (prof::counter_count() > 0) {
    o.key(key::kCounterNames).begin_array();
    for (int i = 0; i < prof::counter_count(); ++i) o.str(prof::counter_names()[i]);
    o.end_array();
  }
  o.key(key::kStrings).begin_array();
  {
    // No lock on the signal path: names are only ever appended, and the count is read once.
    uint32_t count = string_count_.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < count; ++i) o.str(strings_[i]);
  }
  o.end_array();
  o.end_object();

  // Files are created and renamed only where a reader could otherwise see half a metadata: each
  // creation and each rename over a file costs the program time at start and at exit (ext4
  // looks for a free inode; a rename over a file starts the write-back of the new one).
  bool ok = false;
  if (!o.overflowed() && !metadata_written_) {
    // The first: into the experiment.json claimed empty at start (claim_output_dir), which no
    // complete metadata can be lost from.
    ok = rewrite_file(format::kMetadataFile, o);
  } else if (!o.overflowed() && status != RunStatus::kRunning) {
    // The last: into the reserve's own blocks (no allocation, so a full disk cannot refuse
    // it), then renamed over the running one.
    ok = rewrite_file(kReserveFile, o) &&
         renameat(output.fd, kReserveFile, output.fd, format::kMetadataFile) == 0;
  }
  if (!ok && !o.overflowed()) {
    // While running, or without a reserve: a new file renamed over the last metadata.
    const char* tmp = "experiment.json.tmp";
    ok = write_file(tmp, o);
    if (!ok && status != RunStatus::kRunning && unlinkat(output.fd, kReserveFile, 0) == 0) {
      // The disk is full: the reserve makes room for the last metadata.
      ok = write_file(tmp, o);
    }
    // The last metadata does not need the reserve any more.
    if (ok && status != RunStatus::kRunning) unlinkat(output.fd, kReserveFile, 0);
    if (ok) ok = renameat(output.fd, tmp, output.fd, format::kMetadataFile) == 0;
    if (!ok) unlinkat(output.fd, tmp, 0);
    if (ok && status == RunStatus::kRunning) grow_reserve(output.fd, o.size());
  }
  metadata_written_ |= ok;
  metadata_busy_.clear(std::memory_order_release);
  return ok;
}

bool Session::rewrite_file(const char* name, const format::JsonOut& o) {
  int fd = openat(output.fd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = pwrite(fd, o.data(), o.size(), 0) == ssize_t(o.size()) &&
            pwrite(fd, "\n", 1, off_t(o.size())) == 1 && ftruncate(fd, off_t(o.size() + 1)) == 0;
  if (!ok) {
    int ignored = ftruncate(fd, 0);
    (void)ignored;
  }
  close(fd);
  return ok;
}

bool Session::write_file(const char* name, const format::JsonOut& o) {
  unlinkat(output.fd, name, 0);
  int fd = format::create_in_dir(output.fd, name, O_WRONLY);
  if (fd < 0) return false;
  bool ok = write(fd, o.data(), o.size()) == ssize_t(o.size()) && write(fd, "\n", 1) == 1;
  close(fd);
  return ok;
}

}  // namespace tasklens::recorder
