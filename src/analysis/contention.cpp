// read_contention and its one-line warning.
#include "analysis/contention.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

#include "analysis/profile_file.h"
#include "format/off_cpu.h"

namespace tasklens::analysis {

Contention read_contention(const format::Experiment& x, const ProfileModeData* profile) {
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
  c.run_delay_known = off.run_delay_threads > 0;
  c.run_delay_ns = off.run_delay_ns;
  c.writer_cpu_ns = x.metadata.recorder.writer_cpu_ns;
  c.records = off.records;
  c.lost = off.lost;
  c.error = off.error;
  c.run_ns = std::max(x.clock.exit_ns, x.clock.recorder_start_ns);
  // Profile mode has no streams and no switch records: its threads and the kernel's totals are
  // in profile.json.
  if (x.metadata.profile_mode()) {
    c.profile_mode = true;
    std::optional<ProfileModeData> read;
    if (!profile) {
      if (auto d = read_profile_mode(x)) read = std::move(*d);
      if (read) profile = &*read;
    }
    if (profile) {
      c.threads = profile->threads;
      c.run_delay_known = profile->breakdown.run_delay_known;
      c.run_delay_ns = profile->breakdown.run_delay_ns;
      c.run_ns = std::max(c.run_ns, profile->run_ns);
    }
  }
  c.thread_ns = c.run_ns * c.threads;
  c.run_delay_before_ns =
      std::min(x.metadata.recorder.run_delay_before_ns.value_or(0), c.run_delay_ns);
  return c;
}

namespace {

// Of the time `waited`, what the recorder's own writer thread may have taken over a whole run:
// its CPU time, when the program's threads filled every CPU (otherwise it soon ran on a free one).
uint64_t writer_part(const Contention& c, uint64_t waited) {
  return c.cpus && c.threads >= c.cpus ? std::min(waited, c.writer_cpu_ns) : 0;
}

// The writer's CPU time is an upper bound of what it took from the program (it may have run on a
// free CPU part of the time): "most likely".
std::string writer_text(const Contention& c, std::string_view why) {
  return fmt::format(
      "most likely tasklens's writer thread (encoding the trace: {:.3f} s of CPU) "
      "had the CPU: {}",
      double(c.writer_cpu_ns) * 1e-9, why);
}

// Who had the CPU when only the kernel's totals say the threads waited for one.
std::string who_unknown(const Contention& c) {
  return c.threads > 1 ? std::string(kWhoUnknown) : "another process";
}

}  // namespace

std::string contention_warning(const Contention& c) {
  std::string w;
  auto add = [&w](const std::string& s) { w += (w.empty() ? "" : "; ") + s; };
  if (c.cpus && c.threads > c.cpus) {
    add(fmt::format("oversubscribed: {} OpenMP threads on {} CPU{} (the affinity mask)",
                    c.threads, c.cpus, c.cpus == 1 ? "" : "s"));
  }
  bool records_warned = c.measured && c.preempted_share() > kPreemptedWarnShare;
  if (records_warned) {
    // Who had the CPU: the program's own threads (seen in the records), the writer (its CPU
    // time, at most), or other processes (the rest); the largest part is named.
    uint64_t program = c.preempted_by_program_ns;
    uint64_t writer = writer_part(c, c.preempted_ns - program);
    uint64_t others = c.preempted_ns - program - writer;
    std::string who = "other processes competed for the CPUs";
    if (program >= writer && program >= others) {
      who = fmt::format("for {:.3f} s of it another thread of this program had the CPU: {}",
                        double(program) * 1e-9, kOneCpuAdvice);
    } else if (writer >= others) {
      who = writer_text(c, kWriterAdvice);
    }
    // Records the kernel dropped (its ring buffer full) hide preempted time: a lower bound then.
    std::string at_least =
        c.lost ? fmt::format(
                     "at least {:.1f}% of their time (the kernel dropped {} of {} switch "
                     "records)",
                     100 * c.preempted_share(), c.lost, c.lost + c.records)
               : fmt::format("{:.1f}% of their time", 100 * c.preempted_share());
    add(
        // The analyses that leave it out, and the wall-clock times that keep it (a task's mean
        // time in the profile is the machine's as much as the task's).
        fmt::format("preempted: the threads were off their CPU while runnable for {} ({:.3f} s): "
                    "{}; the breakdown, the ompP classes and the task graph count it apart (the "
                    "profile's and ompP's times are wall-clock: they hold it)",
                    at_least, double(c.preempted_ns) * 1e-9, who));
  }
  // A run shorter than 20 ms has no switch records by design (RECORDER.md), and a run of less
  // than kTotalsRunNs has them for its last part only (from 20 ms, after the kernel's grace period
  // of up to 19 ms); the kernel often places a new thread on its creator's CPU right at the start:
  // only the kernel's totals see it. Profile mode has no records at all: its totals are all there
  // is, whatever the run's length. (A measured run of kTotalsRunNs or more is left to its records:
  // the totals also hold every wake-up latency, about 2.4 us per wake-up on our VM, so they pass
  // 5 % only for a thread woken 20,000 times a second, and the breakdown's text gives them.) What
  // the records saw is taken out, and a wait under kRunDelayWarnNs is left unsaid, whatever its
  // share.
  // Records that warned (the writer, say) judged only their part of a run under kTotalsRunNs:
  // a wait before them that passes the share on its own is said too (a fib run of 32 ms whose
  // records named the writer for 6 % had waited 55 % of its time by the kernel's totals).
  uint64_t unseen = unplaced_wait_ns(c.measured, c.run_ns, c.run_delay_ns, c.preempted_ns);
  bool unseen_passes = double(unseen) > kPreemptedWarnShare * double(c.thread_ns);
  bool early = (c.short_run || c.profile_mode || c.measured) && (!records_warned || unseen_passes);
  if (early && c.run_delay_known && c.run_delay_share() > kPreemptedWarnShare &&
      unseen >= kRunDelayWarnNs) {
    // Early in a run the writer may have shared a CPU with the program whatever the CPUs: the
    // kernel often starts a thread on its creator's CPU and moves it only later. Not before the
    // recorder started: the writer did not exist (back-to-back recorded runs: 0.5-2.8 ms of a
    // 10 ms BOTS health run's wait came before its first construct, the kernel finishing the
    // run before's work).
    uint64_t after = c.run_delay_ns - c.run_delay_before_ns;
    std::string who = 2 * std::min(after, c.writer_cpu_ns) < c.run_delay_ns ? who_unknown(c)
                      : writer_part(c, after)
                          ? writer_text(c, kWriterAdvice)
                          : writer_text(c,
                                        "the kernel started it on the CPU of a thread "
                                        "of the program");
    std::string before = c.run_delay_before_ns >= kRunDelayWarnNs / 2
                             ? fmt::format(", {:.3f} s of it before the recorder started",
                                           double(c.run_delay_before_ns) * 1e-9)
                             : "";
    std::string records = c.profile_mode ? ": profile mode has no switch records"
                          : c.short_run  ? ": a run this short has no switch records"
                                         : fmt::format(
                                               ", of which the switch records, from 20 ms "
                                                "into the run, saw {:.3f} s",
                                               double(c.preempted_ns) * 1e-9);
    // No "; " inside: it separates the line's reasons.
    add(fmt::format(
        "preempted: the threads waited for a CPU while runnable for {:.1f}% of their "
        "time ({:.3f} s by the kernel's totals{}{}): {}",
        100 * c.run_delay_share(), double(c.run_delay_ns) * 1e-9, before, records, who));
  }
  if (c.fallback) {
    std::string waited =
        c.run_delay_known
            ? fmt::format(" and waited {:.3f} s for a CPU while runnable ({:.1f}% of their time)",
                          double(c.run_delay_ns) * 1e-9, 100 * c.run_delay_share())
            : "";
    add(
        fmt::format("preempted time not measured (the kernel refused context-switch records: "
                    "{}); the threads were switched out involuntarily {} times{}",
                    c.error.empty() ? "no reason given" : c.error, c.involuntary_switches, waited));
  }
  return w;
}

}  // namespace tasklens::analysis
