// When each thread was off its CPU: the side file off_cpu.bin of an experiment. The recorder
// copies the kernel's context-switch records of its own threads (perf_event_open, a software
// event) into it; readers pair a switch-out with the next switch-in of the same thread. The
// record layout is here so that the recorder and the readers share it (docs/FORMAT.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tasklens::format {

constexpr const char* kOffCpuFile = "off_cpu.bin";

// One context switch of a recorded thread, 16 bytes, in the machine's byte order.
struct OffCpuRecord {
  uint64_t time_ns;  // CLOCK_MONOTONIC
  uint32_t thread;   // the thread's index (its stream's number)
  uint8_t type;      // OffCpuType
  uint8_t flags;     // off_cpu_flag
  uint16_t cpu;      // the CPU it left or got + 1; 0 when unknown (files before 2026-11-28)
};
static_assert(sizeof(OffCpuRecord) == 16);

enum class OffCpuType : uint8_t {
  kSwitchOut = 1,  // the thread left its CPU
  kSwitchIn = 2,   // the thread got a CPU again
  kLost = 3,       // the kernel dropped records of this thread (ring buffer full): time_ns is
                   // when the recorder noticed; what the thread did around it is unknown
};

namespace off_cpu_flag {
// The switch-out took the CPU from a runnable thread (the kernel's
// PERF_RECORD_MISC_SWITCH_OUT_PREEMPT): preemption, not a wait the thread chose.
constexpr uint8_t kPreempted = 0x1;
}  // namespace off_cpu_flag

// A switch-out and the next switch-in on the same CPU this close are one hand-over: the
// scheduler took the CPU from one thread for the other (a few us apart here).
constexpr uint64_t kHandoverNs = 50000;

// An interval [begin_ns, end_ns) in ns since the start of the run.
struct OffCpuInterval {
  uint64_t begin_ns, end_ns;
};

// One end of a preempted interval: the thread lost its CPU (off) or got it back.
struct OffCpuSwitch {
  uint64_t time;  // ns since the start of the run
  uint32_t thread;
  bool off;
};

struct Experiment;

// What an experiment says about its threads' time off the CPU.
struct OffCpu {
  // "perf_switch": context-switch records; "thread_times": only CPU times and switch counts at
  // thread end (perf_event_open refused); "short_run": the same, for a run that ended before
  // the recorder opened the records (20 ms after its start) or before they held any; "none" in
  // profile mode; "" when the trace predates the measurement.
  std::string source;
  std::string error;  // why perf_event_open was refused
  // Preempted intervals per thread index, sorted, disjoint, clipped to the run.
  std::vector<std::vector<OffCpuInterval>> preempted;
  uint64_t preempted_ns = 0;  // their sum
  // The same intervals' ends as one list in time order (ties: the lower thread's first, a
  // thread's own in their order), for the passes that walk every thread's switches at once.
  std::vector<OffCpuSwitch> switches;
  // Of preempted_ns: the intervals whose CPU went straight to another recorded thread (its
  // switch-in on that CPU within kHandoverNs of the switch-out): the program's own threads
  // took turns on one CPU, not another process. 0 when the records carry no CPU.
  uint64_t preempted_by_program_ns = 0;
  uint64_t lost = 0;  // records the kernel dropped
  // Records of a thread index no recording has (kMaxThreads or more: a damaged file), left out.
  uint64_t damaged = 0;
  uint64_t records = 0;  // records written (the metadata's count)
  // The fallback's figures, summed over the threads that reported them.
  uint64_t involuntary_switches = 0;
  uint64_t thread_cpu_ns = 0;
  // The kernel's own totals of the threads' wait on a run queue while runnable (the metadata's
  // run_delay_ns: whole run, every source, not placed in time), and how many threads had one.
  uint64_t run_delay_ns = 0;
  uint32_t run_delay_threads = 0;
};

// Reads off_cpu.bin and the metadata's "preemption" object (the file's times are turned into ns
// since the start of the run with x.clock).
OffCpu read_off_cpu(const Experiment& x);
// The same, read on the first call and kept in `x` (Experiment::off_cpu_cache): the passes of
// one replay, the report's warnings and the what-if all read it (a million context switches on
// a loaded machine: 18 MB read and sorted once, not once per reader). Not thread-safe on its
// first call.
const OffCpu& off_cpu(const Experiment& x);

}  // namespace tasklens::format
