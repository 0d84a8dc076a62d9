// Measuring when the recorded threads were off their CPU, off the hot path: each thread opens a
// context-switch record stream of its own (perf_event_open, a software event: no PMU needed)
// when it attaches; the writer thread copies the kernel's ring buffers into off_cpu.bin
// (format/off_cpu.h) on each of its rounds and at the end. Where the kernel refuses (perf_event_paranoid,
// seccomp), each thread's CPU time and involuntary switch count are taken at its end instead.
#pragma once

#include <cstdint>

namespace tasklens::recorder {

struct ThreadBuffer;
struct ThreadTable;

// Opens the calling thread's switch records into tb (once per thread, at attach).
void open_switch_records(ThreadBuffer* tb);
// Takes the calling thread's CPU time and involuntary switches into tb (at its end).
void sample_thread_times(ThreadBuffer* tb);
// Copies every thread's (of `threads`) new records into off_cpu.bin in directory `dirfd` (the writer thread
// only; the file is created like the streams: never through a link, never over a file).
void drain_switch_records(int dirfd, const ThreadTable& threads);

// For the metadata: "perf_switch" or "thread_times", the refusal, records written and lost.
const char* off_cpu_source();
const char* off_cpu_error();
uint64_t off_cpu_records();
uint64_t off_cpu_lost();

}  // namespace tasklens::recorder
