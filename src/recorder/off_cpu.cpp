#include "recorder/off_cpu.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "format/experiment_dir.h"
#include "format/off_cpu.h"
#include "recorder/process_info.h"
#include "recorder/thread_buffer.h"

namespace tasklens::recorder {
namespace {

// 16 data pages (64 KiB, 4096 records of 16 bytes) per thread: the writer drains them every
// 50 ms, so a thread would have to switch 80,000 times a second to overflow its ring.
constexpr size_t kDataPages = 16;

std::atomic<int> g_refused{0};  // errno of the first refusal, 0 while none
std::atomic<bool> g_any_open{false};
std::atomic<bool> g_deferred{false};  // a thread's records were not opened yet: too early
int g_out = -1;
uint64_t g_records = 0, g_lost = 0;

// sysconf reads a value the kernel gave the process at start: cheap, and no state shared between
// the threads that open rings and the writer that drains them (a function-local static was
// reported by ThreadSanitizer).
size_t page_bytes() {
  return size_t(sysconf(_SC_PAGESIZE));
}

}  // namespace

namespace {

// Opens thread tb's switch records (the writer, for another thread of this process: pid = its tid).
void open_switch_records(ThreadBuffer* tb) {
  tb->perf_tried = true;
  if (g_refused.load(std::memory_order_relaxed)) return;  // the kernel said no once: stop asking
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.context_switch = 1;
  attr.sample_id_all = 1;
  attr.sample_type = PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;  // sample_id: u64 time, u32 cpu, u32
  attr.use_clockid = 1;
  attr.clockid = CLOCK_MONOTONIC;
  attr.exclude_kernel = 1;  // what perf_event_paranoid 2 allows a normal user
  attr.exclude_hv = 1;
  int fd = int(syscall(SYS_perf_event_open, &attr, tb->os_tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd < 0) {
    if (errno == ESRCH) return;  // the thread has ended already: nothing to measure, no refusal
    int expected = 0;
    g_refused.compare_exchange_strong(expected, errno ? errno : EPERM);
    return;
  }
  size_t bytes = (1 + kDataPages) * page_bytes();
  void* ring = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (ring == MAP_FAILED) {
    int expected = 0;
    g_refused.compare_exchange_strong(expected, errno ? errno : ENOMEM);
    close(fd);
    return;
  }
  tb->perf_fd = fd;
  tb->perf_ring = ring;
  g_any_open.store(true, std::memory_order_relaxed);
}

}  // namespace

void sample_thread_times(ThreadBuffer* tb) {
  rusage u{};
  if (getrusage(RUSAGE_THREAD, &u) != 0) return;
  auto ns = [](const timeval& tv) {
    return uint64_t(tv.tv_sec) * 1000000000ull + uint64_t(tv.tv_usec) * 1000ull;
  };
  tb->cpu_ns = ns(u.ru_utime) + ns(u.ru_stime);
  tb->involuntary_switches = uint64_t(u.ru_nivcsw);
  tb->run_delay.own = thread_run_delay(0);
  // Published to the writer thread, which writes them into the metadata once this is set.
  __atomic_store_n(&tb->times_taken, true, __ATOMIC_RELEASE);
}

bool drain_switch_records(int dirfd, const ThreadTable& threads, bool open_new) {
  bool pending = false;
  for (uint32_t i = 0, count = threads.size(); i < count; ++i) {
    ThreadBuffer* tb = threads.at(i);
    if (!tb || tb->perf_tried) continue;
    if (open_new) {
      open_switch_records(tb);
    } else {
      pending = true;
      g_deferred.store(true, std::memory_order_relaxed);
    }
  }
  if (!g_any_open.load(std::memory_order_relaxed)) return pending;
  format::OffCpuRecord out[256];
  size_t n = 0;
  auto flush = [&] {
    if (n == 0) return;
    if (g_out < 0) g_out = format::create_in_dir(dirfd, format::kOffCpuFile, O_WRONLY);
    if (g_out >= 0) {
      ssize_t w = write(g_out, out, n * sizeof out[0]);
      if (w > 0) g_records += size_t(w) / sizeof out[0];
    }
    n = 0;
  };
  size_t data_bytes = kDataPages * page_bytes();
  for (uint32_t i = 0, count = threads.size(); i < count; ++i) {
    ThreadBuffer* tb = threads.at(i);
    if (!tb || !tb->perf_ring) continue;
    auto* meta = static_cast<perf_event_mmap_page*>(tb->perf_ring);
    const char* data = static_cast<const char*>(tb->perf_ring) + page_bytes();
    uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = meta->data_tail;
    while (tail < head) {
      alignas(8) char rec[64];
      perf_event_header h;
      size_t off = size_t(tail % data_bytes);
      for (size_t k = 0; k < sizeof h; ++k)
        reinterpret_cast<char*>(&h)[k] = data[(off + k) % data_bytes];
      if (h.size < sizeof h) break;  // a torn ring: give up on this thread for this round
      size_t take = h.size < sizeof rec ? h.size : sizeof rec;
      for (size_t k = 0; k < take; ++k) rec[k] = data[(off + k) % data_bytes];
      tail += h.size;
      format::OffCpuRecord r{};
      r.thread = i;
      if (h.type == PERF_RECORD_SWITCH && take >= sizeof h + 8) {
        std::memcpy(&r.time_ns, rec + sizeof h, 8);  // sample_id: the time, then the CPU
        uint32_t cpu = 0;
        if (take >= sizeof h + 12) std::memcpy(&cpu, rec + sizeof h + 8, 4);
        r.cpu = cpu < 0xffff ? uint16_t(cpu + 1) : 0;
        bool out_ = (h.misc & PERF_RECORD_MISC_SWITCH_OUT) != 0;
        r.type = uint8_t(out_ ? format::OffCpuType::kSwitchOut : format::OffCpuType::kSwitchIn);
        if (out_ && (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)) {
          r.flags = format::off_cpu_flag::kPreempted;
        }
      } else if (h.type == PERF_RECORD_LOST && take >= sizeof h + 16) {
        uint64_t lost;
        std::memcpy(&lost, rec + sizeof h + 8, 8);
        g_lost += lost;
        r.type = uint8_t(format::OffCpuType::kLost);
        r.time_ns = monotonic_ns();
      } else {
        continue;
      }
      out[n++] = r;
      if (n == std::size(out)) flush();
    }
    __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
  }
  flush();
  return pending;
}

const char* off_cpu_source() {
  if (g_any_open.load(std::memory_order_relaxed)) return "perf_switch";
  if (g_refused.load(std::memory_order_relaxed) == 0 &&
      g_deferred.load(std::memory_order_relaxed)) {
    return "short_run";
  }
  return "thread_times";
}

const char* off_cpu_error() {
  int e = g_refused.load(std::memory_order_relaxed);
  // strerrordesc_np: the English text from a static table; strerror may load the locale's
  // translations, which the crash handler (that writes the metadata) must not.
  const char* text = e ? strerrordesc_np(e) : "";
  return text ? text : "unknown error";
}

uint64_t off_cpu_records() {
  return g_records;
}
uint64_t off_cpu_lost() {
  return g_lost;
}

}  // namespace tasklens::recorder
