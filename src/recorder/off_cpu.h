// Measuring when the recorded threads were off their CPU, off the hot path: each thread gets a
// context-switch record stream of its own (perf_event_open, a software event: no PMU needed),
// which the writer thread opens for it once it has attached and then copies from the kernel's
// ring buffers into off_cpu.bin (format/off_cpu.h) on each of its rounds and at the end. The
// writer opens them, not the threads: a process's first per-thread perf event waits for an RCU
// grace period in the kernel (enabling the scheduler's perf hooks: 5-19 ms measured here, once per
// run unless another perf user keeps them on), which the program's first thread must not wait
// for. Where the kernel refuses (perf_event_paranoid, seccomp), each thread's CPU time and
// involuntary switch count are taken at its end instead.
#pragma once

#include <cstdint>

namespace tasklens::recorder {

struct ThreadBuffer;
struct ThreadTable;

// The writer opens no switch records in the run's first 20 ms: a run shorter than the grace
// period would otherwise wait for it at exit (the process cannot end while the writer is in the
// call). Such a run has the fallback's figures only (source "short_run").
constexpr uint64_t kSwitchRecordsAfterNs = 20000000;

// The writer thread only: opens the switch records of every attached thread it has not opened
// yet when `open_new` (threads that attach wake the writer), then copies every thread's new
// records. True while some attached thread's records are not open (the writer's next round
// should come at kSwitchRecordsAfterNs).
// Takes the calling thread's CPU time and involuntary switches into tb (at its end).
void sample_thread_times(ThreadBuffer* tb);
// Records go into off_cpu.bin in directory `dirfd` (created like the streams: never through a
// link, never over a file).
bool drain_switch_records(int dirfd, const ThreadTable& threads, bool open_new);

// For the metadata: "perf_switch", "thread_times" (refused) or "short_run" (the run ended
// before the writer opened any), the refusal, records written and lost.
const char* off_cpu_source();
const char* off_cpu_error();
uint64_t off_cpu_records();
uint64_t off_cpu_lost();

}  // namespace tasklens::recorder
