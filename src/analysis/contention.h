// Was the machine busy with more than the program? One warning for `run` and `report`, from the
// metadata and off_cpu.bin alone (no replay): more OpenMP threads than CPUs in the affinity mask
// ("oversubscribed"), threads off their CPU while runnable for more than 5 % of their time
// ("preempted": by other processes, by the program's own threads placed on one CPU, or by the
// recorder's writer thread when the program's threads fill every CPU),
// or no context-switch records to tell because the kernel refused them ("preempted time not
// measured"). A run shorter than 20 ms has no records by design, one shorter than 100 ms records
// for its last part only, and profile mode none: they are warned about ("preempted") when the
// kernel's per-thread totals of waiting for a CPU pass the same 5 % and what the records did not
// see passes 2 ms.
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
  uint64_t run_ns = 0;                   // the run's length
  uint64_t thread_ns = 0;      // threads × the run's length: what preempted_ns is a share of
  bool measured = false;       // context-switch records were available
  bool fallback = false;       // refused: only CPU times and switch counts at thread end
  bool short_run = false;      // the same figures: the run ended before the records opened
  bool profile_mode = false;   // no records at all; threads and totals from profile.json
  uint64_t involuntary_switches = 0;  // the fallback's count
  // The kernel's totals of the threads' wait for a CPU while runnable (every source, the whole
  // run, not placed in time); known when some thread reported it.
  bool run_delay_known = false;
  uint64_t run_delay_ns = 0;
  // Of it: the wait of the thread that started the recorder before it started (no writer then).
  uint64_t run_delay_before_ns = 0;
  uint64_t writer_cpu_ns = 0;  // the recorder's writer thread's CPU time (0 in profile mode)
  uint64_t records = 0, lost = 0;  // switch records written, and dropped by the kernel
  std::string error;           // why the kernel refused the records
  double preempted_share() const { return thread_ns ? double(preempted_ns) / double(thread_ns) : 0; }
  double run_delay_share() const {
    return thread_ns ? double(run_delay_ns) / double(thread_ns) : 0;
  }
};

constexpr double kPreemptedWarnShare = 0.05;
// The least wait the kernel's totals alone warn about, and the longest run they warn about when
// it has switch records (contention_warning; profile mode has none: any length).
constexpr uint64_t kRunDelayWarnNs = 2000000;
constexpr uint64_t kTotalsRunNs = 100000000;

// Of the kernel's totals of the threads' wait for a CPU, what no switch record placed in time:
// all of it in a run without records (a short run, profile mode, records refused), what the
// records did not see in a measured run under kTotalsRunNs (its first 20 ms), nothing in a
// longer measured run (left to its records: its totals also hold every wake-up). The warning
// and the breakdown's caution both judge this part.
inline uint64_t unplaced_wait_ns(bool measured, uint64_t run_ns, uint64_t run_delay_ns,
                                 uint64_t preempted_ns) {
  if (!measured) return run_delay_ns;
  if (run_ns >= kTotalsRunNs) return 0;
  return run_delay_ns > preempted_ns ? run_delay_ns - preempted_ns : 0;
}

// What the kernel's running a program's threads on one CPU calls for; the warning and the
// breakdown's text both give it.
inline constexpr char kOneCpuAdvice[] =
    "the kernel ran threads of the program on one CPU (OMP_PROC_BIND=true gives each thread its "
    "own place)";

// What the recorder's writer thread taking the program's CPUs calls for.
inline constexpr char kWriterAdvice[] =
    "the program's threads filled every CPU (run with one OpenMP thread fewer, or with --mode "
    "profile, which has no writer)";

// Who had the CPU when only the kernel's totals say the threads waited for one.
inline constexpr char kWhoUnknown[] =
    "another process, or threads of the program on one CPU (OMP_PROC_BIND=true gives each thread "
    "its own place)";

struct ProfileModeData;

// A profile-mode experiment's threads and totals come from its profile.json: `profile`, when the
// caller has read it already, else read here.
Contention read_contention(const format::Experiment& x, const ProfileModeData* profile = nullptr);

// The warning's text without its "warning: " prefix, "" for a quiet run (or an old trace).
std::string contention_warning(const Contention& c);

}  // namespace tasklens::analysis
