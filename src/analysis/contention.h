// Was the machine busy with more than the program? One warning for `run` and `report`, from the
// metadata and off_cpu.bin alone (no replay): more OpenMP threads than CPUs in the affinity mask
// ("oversubscribed"), threads off their CPU while runnable for more than 5 % of their time
// ("preempted": by other processes, or mostly by the program's own threads placed on one CPU),
// or no context-switch records to tell because the kernel refused them ("preempted time not
// measured"; a run shorter than 20 ms has none by design and gets no warning).
#pragma once

#include <cstdint>
#include <string>

#include "format/experiment.h"

namespace tasklens::analysis {

struct Contention {
  uint32_t threads = 0;        // OpenMP threads recorded
  uint32_t cpus = 0;           // CPUs in the affinity mask, 0 when not recorded
  uint64_t preempted_ns = 0;   // summed over the threads
  uint64_t preempted_by_program_ns = 0;  // of it: another thread of the program had the CPU
  uint64_t thread_ns = 0;      // threads × the run's length: what preempted_ns is a share of
  bool measured = false;       // context-switch records were available
  bool fallback = false;       // refused: only CPU times and switch counts at thread end
  bool short_run = false;      // the same figures: the run ended before the records opened
  uint64_t involuntary_switches = 0;  // the fallback's count
  std::string error;           // why the kernel refused the records
  double preempted_share() const { return thread_ns ? double(preempted_ns) / double(thread_ns) : 0; }
};

constexpr double kPreemptedWarnShare = 0.05;

// What the kernel's running a program's threads on one CPU calls for; the warning and the
// breakdown's text both give it.
inline constexpr char kOneCpuAdvice[] =
    "the kernel ran threads of the program on one CPU (OMP_PROC_BIND=true gives each thread its "
    "own place)";

Contention read_contention(const format::Experiment& x);

// The warning's text without its "warning: " prefix, "" for a quiet run (or an old trace).
std::string contention_warning(const Contention& c);

}  // namespace tasklens::analysis
