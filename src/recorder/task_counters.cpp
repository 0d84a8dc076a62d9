#include "recorder/task_counters.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "format/counter_kinds.h"

namespace tasklens::recorder::prof {
namespace {

using Known = format::CounterKind;

const Known* g_counters[kMaxCounters];
const char* g_names[kMaxCounters];
int g_count = 0;

int open_one(const Known& k, int group) {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = k.perf_type;
  a.config = k.perf_config;
  a.exclude_kernel = 1;  // what perf_event_paranoid 2 allows; faults still count (user's)
  a.exclude_hv = 1;
  a.read_format = PERF_FORMAT_GROUP;
  a.disabled = 0;
  return int(syscall(SYS_perf_event_open, &a, 0, -1, group, 0));
}

bool is_task_clock(const Known& k) {
  return k.perf_type == PERF_TYPE_SOFTWARE && k.perf_config == PERF_COUNT_SW_TASK_CLOCK;
}

}  // namespace

int setup_counters(const char* list, bool quiet) {
  g_count = 0;
  if (!list || !*list) return 0;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", list);
  char* save = nullptr;
  for (char* tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(nullptr, ",", &save)) {
    const Known* k = format::find_counter(tok);
    if (!k) {
      if (!quiet) std::fprintf(stderr, "tasklens: unknown counter '%s': not counted\n", tok);
      continue;
    }
    int fd = open_one(*k, -1);
    if (fd < 0) {
      if (!quiet) {
        std::fprintf(
            stderr, "tasklens: counter %s cannot be opened (%s%s): not counted\n", k->name,
            std::strerror(errno),
            k->perf_type == PERF_TYPE_HARDWARE ? "; no hardware PMU on this machine?" : "");
      }
      continue;
    }
    close(fd);
    if (g_count < kMaxCounters) g_counters[g_count] = k, g_names[g_count++] = k->name;
  }
  // task-clock first, and read from its own fd (open_thread_counters).
  for (int i = 1; i < g_count; ++i) {
    if (!is_task_clock(*g_counters[i])) continue;
    const Known* k = g_counters[i];
    for (int j = i; j > 0; --j) g_counters[j] = g_counters[j - 1], g_names[j] = g_names[j - 1];
    g_counters[0] = k, g_names[0] = k->name;
    break;
  }
  return g_count;
}

int counter_count() {
  return g_count;
}
const char* const* counter_names() {
  return g_names;
}

// task-clock is never in a group with the others, either way round (measured on this machine's
// kernel, 6.18): as a sibling of a software leader it stayed unchanged for milliseconds of running
// (updated only when the thread was switched out), and as the leader its page-faults sibling lost
// faults, up to all 16,384 of a test's (perf stat counted every one). The counting software
// events grouped among themselves are exact at any read: one read(2) for them, one for the clock.
ThreadCounters open_thread_counters() {
  ThreadCounters fds;
  if (g_count == 0) return fds;
  int first = 0;
  if (is_task_clock(*g_counters[0])) {
    fds.clock = open_one(*g_counters[0], -1);
    if (fds.clock < 0) return fds;
    first = 1;
  }
  for (int i = first; i < g_count; ++i) {
    int fd = open_one(*g_counters[i], fds.group);
    if (fd < 0) {  // the members close with the leader only at exit: fine
      if (fds.group >= 0) close(fds.group);
      if (fds.clock >= 0) close(fds.clock);
      return ThreadCounters{};
    }
    if (i == first) fds.group = fd;
  }
  return fds;
}

namespace {
// One fd's values (PERF_FORMAT_GROUP: the count, then the values) into `values`; how many.
int read_group(int fd, uint64_t* values, int room) {
  uint64_t buf[1 + kMaxCounters];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < ssize_t(sizeof(uint64_t))) return 0;
  int nr = int(buf[0]);
  if (nr > room || n < ssize_t((1 + nr) * sizeof(uint64_t))) return 0;
  for (int i = 0; i < nr; ++i) values[i] = buf[1 + i];
  return nr;
}
}  // namespace

int read_counters(const ThreadCounters& fds, uint64_t* values) {
  int n = 0;
  if (fds.clock >= 0) {
    if (read_group(fds.clock, values, 1) != 1) return 0;
    n = 1;
  }
  if (fds.group >= 0) {
    int got = read_group(fds.group, values + n, kMaxCounters - n);
    if (got != g_count - n) return 0;
    n += got;
  }
  return n;
}

}  // namespace tasklens::recorder::prof
