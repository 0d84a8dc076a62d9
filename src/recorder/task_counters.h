// Per-thread perf_event counters read at task switch points (`tasklens run --counters`, docs/
// PROFILE-MODE.md): one counter group per thread, read with one read(2) of the group leader.
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

// This thread's counter group (the leader's fd), -1 when no counter was asked for or none opened.
int open_thread_counters();
// The group's current values, in counter_names() order; returns how many (0 on failure).
int read_counters(int fd, uint64_t* values);

}  // namespace tasklens::recorder::prof
