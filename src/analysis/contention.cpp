// read_contention and its one-line warning.
#include "analysis/contention.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/off_cpu.h"

namespace tasklens::analysis {

Contention read_contention(const format::Experiment& x) {
  Contention c;
  c.threads = uint32_t(x.streams.size());
  c.cpus = uint32_t(x.metadata.machine.affinity_cpus);
  const format::OffCpu& off = format::off_cpu(x);
  c.measured = off.source == "perf_switch";
  c.short_run = off.source == "short_run";
  c.fallback = off.source == "thread_times";
  c.preempted_ns = off.preempted_ns;
  c.preempted_by_program_ns = off.preempted_by_program_ns;
  c.involuntary_switches = off.involuntary_switches;
  c.error = off.error;
  uint64_t run_ns = std::max(x.clock.exit_ns, x.clock.recorder_start_ns);
  c.thread_ns = run_ns * c.threads;
  return c;
}

std::string contention_warning(const Contention& c) {
  std::string w;
  auto add = [&w](const std::string& s) { w += (w.empty() ? "" : "; ") + s; };
  if (c.cpus && c.threads > c.cpus) {
    add(fmt::format("oversubscribed: {} OpenMP threads on {} CPU{} (the affinity mask)",
                    c.threads, c.cpus, c.cpus == 1 ? "" : "s"));
  }
  if (c.measured && c.preempted_share() > kPreemptedWarnShare) {
    std::string who =
        2 * c.preempted_by_program_ns > c.preempted_ns
            ? fmt::format("for {:.3f} s of it another thread of this program had the CPU: {}",
                          double(c.preempted_by_program_ns) * 1e-9, kOneCpuAdvice)
            : "other processes competed for the CPUs";
    add(
        fmt::format("preempted: the threads were off their CPU while runnable for {:.1f}% of their "
                    "time ({:.3f} s): {}; the breakdown counts it apart",
                    100 * c.preempted_share(), double(c.preempted_ns) * 1e-9, who));
  }
  // A run shorter than 20 ms (short_run) has no switch records by design (RECORDER.md): nothing
  // refused, nothing to fix, no warning; the breakdown says preemption was not measured.
  if (c.fallback) {
    add(fmt::format("preempted time not measured (the kernel refused context-switch records: "
                    "{}); the threads were switched out involuntarily {} times",
                    c.error.empty() ? "no reason given" : c.error, c.involuntary_switches));
  }
  return w;
}

}  // namespace tasklens::analysis
