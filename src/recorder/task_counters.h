// Per-thread perf_event counters read at task switch points (`tasklens run --counters`, docs/
// PROFILE-MODE.md): per thread, task-clock on its own fd and the other counters in one group, read
// with a read(2) each.
// Software events (task-clock, page-faults, context-switches, cpu-migrations) work in a VM;
// hardware ones need a PMU: the ones that cannot be opened are said once on stderr and left out.
#pragma once

#include <cstdint>

#include "recorder/profile_tables.h"

namespace tasklens::recorder::prof {

// Parses the comma-separated `list` (TASKLENS_COUNTERS) and keeps the counters this process can
// open; unknown or unavailable ones are said once on stderr unless `quiet`. Returns how many.
int setup_counters(const char* list, bool quiet);
int counter_count();
const char* const* counter_names();

// A thread's counters: task-clock alone (task_counters.cpp says why) and the others' group leader;
// -1 where there is none.
struct ThreadCounters {
  int clock = -1;
  int group = -1;
  // Either fd open (>= 0): the sign bit of both ANDed is clear (one test at every task switch).
  bool open() const { return (clock & group) >= 0; }
};

// This thread's counters; none open when no counter was asked for or one could not be opened.
ThreadCounters open_thread_counters();
// Their current values, in counter_names() order; returns how many (0 on failure).
int read_counters(const ThreadCounters& fds, uint64_t* values);

}  // namespace tasklens::recorder::prof
