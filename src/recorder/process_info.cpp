#include "recorder/process_info.h"

#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tasklens::recorder {
namespace {

uint64_t clock_ns(clockid_t id) {
  timespec ts;
  clock_gettime(id, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

// Reads a small /proc file into buf (NUL-terminated); its length, 0 on failure.
size_t read_small(const char* path, char* buf, size_t cap) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t n = read(fd, buf, cap - 1);
  close(fd);
  buf[n > 0 ? n : 0] = 0;
  return n > 0 ? size_t(n) : 0;
}

// Field 22 of /proc/self/stat (starttime, clock ticks since boot) as CLOCK_MONOTONIC ns; 0 when
// unreadable. Its resolution is one clock tick (10 ms at USER_HZ 100), rounded down.
uint64_t proc_stat_start() {
  char buf[1024];
  if (!read_small("/proc/self/stat", buf, sizeof buf)) return 0;
  const char* p = std::strrchr(buf, ')');  // the command name may hold spaces
  if (!p) return 0;
  int field = 2;
  for (; *p && field < 22; ++p) {
    if (*p == ' ') ++field;
  }
  if (field != 22) return 0;
  uint64_t ticks = std::strtoull(p, nullptr, 10);
  long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0) return 0;
  uint64_t since_boot = ticks * (1000000000ull / uint64_t(hz));
  uint64_t boot_now = clock_ns(CLOCK_BOOTTIME), mono_now = clock_ns(CLOCK_MONOTONIC);
  uint64_t ago = boot_now > since_boot ? boot_now - since_boot : 0;
  return mono_now > ago ? mono_now - ago : 0;
}

}  // namespace

ProcessStart process_start(uint64_t not_after_ns) {
  ProcessStart s;
  uint64_t stat = proc_stat_start();
  // `tasklens run` notes when it started the program; the variable is inherited by the
  // program's own children, so it counts only when it agrees with this process's start time.
  const char* spawn = std::getenv("TASKLENS_SPAWN_NS");
  uint64_t spawn_ns = spawn ? std::strtoull(spawn, nullptr, 10) : 0;
  constexpr uint64_t kTick = 10000000, kSlack = 2000000;
  if (spawn_ns && stat && spawn_ns + kSlack >= stat && spawn_ns <= stat + kTick + kSlack) {
    s.monotonic_ns = spawn_ns, s.source = "spawn";
  } else if (stat) {
    s.monotonic_ns = stat, s.source = "proc_stat";
  } else {
    s.monotonic_ns = not_after_ns, s.source = "recorder";
  }
  if (s.monotonic_ns > not_after_ns) s.monotonic_ns = not_after_ns;
  return s;
}

uint32_t affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  return uint32_t(CPU_COUNT(&set));
}

uint32_t online_cpus() {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? uint32_t(n) : 0;
}

std::optional<uint64_t> thread_run_delay(int tid) {
  char path[64] = "/proc/thread-self/schedstat";
  if (tid) std::snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", tid);
  char buf[96];
  if (!read_small(path, buf, sizeof buf)) return std::nullopt;
  // "on-CPU-ns run-queue-ns timeslices": where the kernel keeps no totals it reads "0 0 0" (before
  // 5.14 without delay accounting or CONFIG_SCHEDSTATS), which is not a wait of 0; a thread that
  // ran has a timeslice (its time on a CPU may still read 0: the current slice is not counted yet).
  char* end = nullptr;
  std::strtoull(buf, &end, 10);
  if (!end || *end != ' ') return std::nullopt;
  uint64_t waited = std::strtoull(end + 1, &end, 10);
  if (!end || *end != ' ' || std::strtoull(end + 1, nullptr, 10) == 0) return std::nullopt;
  return waited;
}

int perf_event_paranoid() {
  char buf[32];
  if (!read_small("/proc/sys/kernel/perf_event_paranoid", buf, sizeof buf)) return -100;
  return std::atoi(buf);
}

}  // namespace tasklens::recorder
