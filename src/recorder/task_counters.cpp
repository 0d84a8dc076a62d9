#include "recorder/task_counters.h"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tasklens::recorder::prof {
namespace {

struct Known {
  const char* name;
  uint32_t type;
  uint64_t config;
};
constexpr Known kKnown[] = {
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

const Known* g_counters[kMaxCounters];
const char* g_names[kMaxCounters];
int g_count = 0;

int open_one(const Known& k, int group) {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = k.type;
  a.config = k.config;
  a.exclude_kernel = 1;  // what perf_event_paranoid 2 allows; faults still count (user's)
  a.exclude_hv = 1;
  a.read_format = PERF_FORMAT_GROUP;
  a.disabled = 0;
  return int(syscall(SYS_perf_event_open, &a, 0, -1, group, 0));
}

}  // namespace

int setup_counters(const char* list, bool quiet) {
  g_count = 0;
  if (!list || !*list) return 0;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", list);
  char* save = nullptr;
  for (char* tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(nullptr, ",", &save)) {
    const Known* k = nullptr;
    for (const Known& c : kKnown) {
      if (std::strcmp(c.name, tok) == 0) k = &c;
    }
    if (!k) {
      if (!quiet) std::fprintf(stderr, "tasklens: unknown counter '%s': not counted\n", tok);
      continue;
    }
    int fd = open_one(*k, -1);
    if (fd < 0) {
      if (!quiet) {
        std::fprintf(stderr, "tasklens: counter %s cannot be opened (%s%s): not counted\n",
                     k->name, std::strerror(errno),
                     k->type == PERF_TYPE_HARDWARE ? "; no hardware PMU on this machine?" : "");
      }
      continue;
    }
    close(fd);
    if (g_count < kMaxCounters) g_counters[g_count] = k, g_names[g_count++] = k->name;
  }
  // task-clock leads the group: a read(2) of the group brings the leader's clock up to date, but
  // a task-clock sibling of a software leader (page-faults) was seen unchanged for milliseconds
  // of running (updated only when the thread was switched out), which gave its deltas to the
  // wrong fragments. The event-counting software events are exact at any read.
  for (int i = 1; i < g_count; ++i) {
    if (g_counters[i]->type != PERF_TYPE_SOFTWARE || g_counters[i]->config != PERF_COUNT_SW_TASK_CLOCK) continue;
    const Known* k = g_counters[i];
    for (int j = i; j > 0; --j) g_counters[j] = g_counters[j - 1], g_names[j] = g_names[j - 1];
    g_counters[0] = k, g_names[0] = k->name;
    break;
  }
  return g_count;
}

int counter_count() { return g_count; }
const char* const* counter_names() { return g_names; }

int open_thread_counters() {
  if (g_count == 0) return -1;
  int leader = -1;
  for (int i = 0; i < g_count; ++i) {
    int fd = open_one(*g_counters[i], leader);
    if (fd < 0) {
      if (leader >= 0) close(leader);  // the members close with it only at exit: fine
      return -1;
    }
    if (i == 0) leader = fd;
  }
  return leader;
}

int read_counters(int fd, uint64_t* values) {
  uint64_t buf[1 + kMaxCounters];
  ssize_t n = read(fd, buf, sizeof buf);
  if (n < ssize_t(sizeof(uint64_t))) return 0;
  int nr = int(buf[0]);
  if (nr > kMaxCounters || n < ssize_t((1 + nr) * sizeof(uint64_t))) return 0;
  for (int i = 0; i < nr; ++i) values[i] = buf[1 + i];
  return nr;
}

}  // namespace tasklens::recorder::prof
