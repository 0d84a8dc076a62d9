// Facts about the process the recorder runs in, taken at start-up for the metadata: when the
// process started (the run's time origin, docs/FORMAT.md) and how many CPUs it may use.
#pragma once

#include <cstdint>
#include <optional>

namespace tasklens::recorder {

struct ProcessStart {
  uint64_t monotonic_ns = 0;  // CLOCK_MONOTONIC
  const char* source = "";    // "spawn" (TASKLENS_SPAWN_NS from `tasklens run`), "proc_stat", or
                              // "recorder" (neither could be read: the recorder's start)
};

// The process's start, never after `not_after_ns` (the recorder's own start).
ProcessStart process_start(uint64_t not_after_ns);

// CPUs in the process's affinity mask (0 when unknown) and CPUs online.
uint32_t affinity_cpus();
uint32_t online_cpus();

// /proc/sys/kernel/perf_event_paranoid, or -100 when unreadable.
int perf_event_paranoid();

// The time thread `tid` of this process (0: the calling thread) has waited on a run queue while
// runnable, from the kernel's scheduler totals (/proc/.../schedstat, second field): preemption
// and wake-up latency, with no perf event. Nothing when unreadable (no CONFIG_SCHED_INFO, no
// totals kept, or the thread has ended).
std::optional<uint64_t> thread_run_delay(int tid);

// A thread's run-queue wait as the recorder takes it: by the thread itself at its end (`own`),
// or, for a thread still running when the run ends, by the thread that ends it (`at_end`). Each
// slot has one writer; the metadata takes `own` once the thread says it is written.
struct RunDelay {
  std::optional<uint64_t> own, at_end;
};

}  // namespace tasklens::recorder
