// Serial time and the machine's contention end to end (docs/BREAKDOWN.md): a program of our own
// that spins before, in and after one parallel region, recorded by `tasklens run`, replayed
// through the breakdown, and reported with its warning line.
#include "analysis/contention.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "analysis/breakdown.h"
#include "format/experiment.h"
#include "support/machine_contention.h"
#include "support/recording.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

std::string spin_program() { return std::string(TASKLENS_TEST_PROGRAMS_DIR) + "/serial_spin"; }

Breakdown breakdown_of(const std::string& dir) {
  BreakdownPass pass(20);
  testing::replay_experiment(dir, {&pass});
  return pass.result();
}

// Lines of `text` that start with "warning:" (after indentation).
int warning_lines(const std::string& text) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    size_t i = line.find_first_not_of(' ');
    if (i != std::string::npos && line.compare(i, 8, "warning:") == 0) ++n;
  }
  return n;
}

bool has_warning(const nlohmann::json& doc, const std::string& word) {
  for (const auto& w : doc.value("/run/warnings"_json_pointer, nlohmann::json::array())) {
    if (w.is_string() && w.get<std::string>().rfind(word, 0) == 0) return true;
  }
  return false;
}

std::vector<int> affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

// 300 ms of spinning before the first parallel region and 100 ms after it: at least 90 % of
// those 400 ms are serial time of the initial thread (or preempted, if the machine took the CPU
// from it), every thread's categories add up to its lifetime, and the initial thread's lifetime
// covers main() to within 5 %.
TEST(BreakdownIntegration, SerialPreludeAndEpilogueAreCounted) {
  testing::MachineContention contention;
  testing::Recording rec = testing::record_run({spin_program(), "300", "50", "100"}, 2);
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  long long main_us = testing::printed_value(rec.run.out, "main_us");
  ASSERT_GT(main_us, 0) << rec.run.out;
  Breakdown b = breakdown_of(rec.dir);
  ASSERT_EQ(b.threads.size(), 2u);
  const ThreadBreakdown* initial = nullptr;
  for (const auto& t : b.threads) {
    EXPECT_EQ(t.time.total_ns(), t.end_ns - t.begin_ns) << "thread " << t.thread;
    if (t.initial) initial = &t;
    else EXPECT_GT(t.begin_ns, 0u) << "a worker counts from its creation";
  }
  ASSERT_NE(initial, nullptr);
  EXPECT_EQ(initial->begin_ns, 0u);
  EXPECT_EQ(initial->end_ns, b.run_ns);
  EXPECT_GT(b.recorder_start_ns, 250'000'000u) << "the recorder starts at the first construct";
  // Outside the region the initial thread is serial, or preempted when the machine is busy.
  uint64_t outside = initial->time.serial_ns + initial->time.preempted_ns;
  EXPECT_GE(outside, 360'000'000u) << "serial " << initial->time.serial_ns << " preempted "
                                   << initial->time.preempted_ns;
  if (initial->time.preempted_ns < 10'000'000) EXPECT_GE(initial->time.serial_ns, 360'000'000u);
  // The initial thread lives from before main() to after it: at least main's time, and no more
  // than 5 % beyond it (loading, exit), unless other processes held the CPUs.
  uint64_t main_ns = uint64_t(main_us) * 1000;
  EXPECT_GE(initial->end_ns - initial->begin_ns, main_ns);
  if (contention.others_share() < 0.3) {
    EXPECT_LE(double(initial->end_ns - initial->begin_ns), 1.05 * double(main_ns))
        << "lifetime " << initial->end_ns << " main " << main_ns;
  } else {
    std::cout << "[ busy machine ] lifetime vs main() not checked (others took "
              << 100 * contention.others_share() << "% of the CPUs)\n";
  }
  // The report carries the new categories for the run, each thread and each region.
  testing::JsonReport r = testing::report_json(rec.dir, {});
  ASSERT_FALSE(r.doc.is_discarded()) << r.command.err;
  const auto& j = r.doc["breakdown"];
  EXPECT_EQ(j["serial_ns"].get<uint64_t>(), b.total.serial_ns);
  EXPECT_TRUE(j.contains("preempted_ns"));
  for (const auto& t : j["threads"]) {
    EXPECT_EQ(t["work_ns"].get<uint64_t>() + t["overhead_ns"].get<uint64_t>() +
                  t["idle_ns"].get<uint64_t>() + t["serial_ns"].get<uint64_t>() +
                  t["preempted_ns"].get<uint64_t>(),
              t["lifetime_ns"].get<uint64_t>());
  }
  for (const auto& reg : j["regions"]) EXPECT_TRUE(reg.contains("serial_ns") && reg.contains("preempted_ns"));
}

// Two spinning threads per CPU of the affinity mask, for the object's lifetime.
class CpuHogs {
 public:
  CpuHogs() {
    for (size_t i = 0; i < std::max<size_t>(affinity().size(), 1) * 2; ++i) {
      hogs_.emplace_back([this] {
        volatile unsigned long x = 0;
        while (!stop_.load(std::memory_order_relaxed)) ++x;
      });
    }
  }
  ~CpuHogs() {
    stop_ = true;
    for (auto& h : hogs_) h.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> hogs_;
};

// serial_spin 0 REGION_MS 0 recorded on two threads beside CpuHogs, and opened; nothing (the
// failure said) when the run or the experiment failed.
std::optional<format::Experiment> record_beside_hogs(const std::string& region_ms) {
  testing::Recording rec;
  {
    CpuHogs hogs;
    rec = testing::record_run({spin_program(), "0", region_ms, "0"}, 2);
  }
  EXPECT_EQ(rec.run.status, 0) << rec.run.err;
  auto x = format::open_experiment(rec.dir);
  EXPECT_TRUE(bool(x)) << (x ? "" : x.error().message);
  if (rec.run.status != 0 || !x) return std::nullopt;
  return std::move(*x);
}

// More threads than CPUs in the affinity mask: `run` and `report` say "oversubscribed", once.
TEST(BreakdownIntegration, MoreThreadsThanCpusIsOversubscribed) {
  std::vector<int> cpus = affinity();
  ASSERT_FALSE(cpus.empty());
  cpu_set_t saved, two;
  sched_getaffinity(0, sizeof saved, &saved);
  CPU_ZERO(&two);
  size_t n = std::min<size_t>(2, cpus.size());
  for (size_t i = 0; i < n; ++i) CPU_SET(cpus[i], &two);
  ASSERT_EQ(sched_setaffinity(0, sizeof two, &two), 0);  // the child inherits the mask
  std::string dir = testing::scratch_dir("oversub") + "/exp";
  testing::CommandResult run = testing::run_command(
      {testing::tasklens_bin(), "run", "-n", "4", "-o", dir, "--", spin_program(), "0", "20", "0"});
  sched_setaffinity(0, sizeof saved, &saved);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.err.find("warning: oversubscribed: 4 OpenMP threads on " + std::to_string(n) +
                         " CPU"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(warning_lines(run.err), 1) << run.err;
  testing::JsonReport r = testing::report_json(dir, {});
  EXPECT_TRUE(has_warning(r.doc, "oversubscribed")) << r.doc["run"].dump();
  testing::CommandResult text = testing::run_command({testing::tasklens_bin(), "report", dir});
  EXPECT_EQ(warning_lines(text.out), 1) << text.out;
}

// A CPU hog on every CPU beside a program of two threads: the threads are preempted, the
// breakdown counts it apart and the warning says so.
TEST(BreakdownIntegration, CpuHogBesideTheProgramIsPreempted) {
  std::optional<format::Experiment> x = record_beside_hogs("400");
  ASSERT_TRUE(x);
  Contention c = read_contention(*x);
  if (!c.measured) {
    GTEST_SKIP() << "the kernel refuses context-switch records here: " << c.error;
  }
  EXPECT_GT(c.preempted_share(), kPreemptedWarnShare);
  Breakdown b = breakdown_of(x->dir);
  EXPECT_GT(b.total.preempted_ns, 0u);
  for (const auto& t : b.threads) EXPECT_EQ(t.time.total_ns(), t.end_ns - t.begin_ns);
  testing::JsonReport r = testing::report_json(x->dir, {});
  EXPECT_TRUE(has_warning(r.doc, "preempted")) << r.doc["run"].dump();
  EXPECT_GT(r.doc["breakdown"]["preempted_ns"].get<uint64_t>(), 0u);
}

// The same hogs beside a run meant to end within 20 ms, which then has no switch records by
// design: the kernel's per-thread totals (schedstat, in the metadata) still show the wait and
// warn. (Slowed by the hogs, the run may pass 20 ms: the records warn then, the totals are there.)
TEST(BreakdownIntegration, AShortRunBesideCpuHogsIsWarnedAboutFromTheKernelsTotals) {
  // Beside the hogs and a loaded machine (the suite's other tests) the 3 ms program has taken
  // 255 ms: a run that long is a measured one, which other tests cover. Up to three tries.
  std::optional<format::Experiment> x;
  Contention c;
  for (int attempt = 0; attempt < 3; ++attempt) {
    x = record_beside_hogs("3");
    ASSERT_TRUE(x);
    c = read_contention(*x);
    if (c.run_ns < kTotalsRunNs) break;
  }
  if (c.run_ns >= kTotalsRunNs) {
    GTEST_SKIP() << "the machine stretched a 3 ms program to " << c.run_ns / 1000000
                 << " ms three times";
  }
  if (c.fallback) GTEST_SKIP() << "the kernel refuses context-switch records here: " << c.error;
  if (!c.run_delay_known) GTEST_SKIP() << "no scheduler totals in /proc here (CONFIG_SCHED_INFO)";
  for (const auto& t : x->metadata.threads) EXPECT_TRUE(t.run_delay_ns.has_value()) << t.index;
  EXPECT_GT(c.run_delay_share(), kPreemptedWarnShare);
  testing::JsonReport r = testing::report_json(x->dir, {});
  EXPECT_EQ(r.doc["breakdown"]["run_queue_wait_ns"].get<uint64_t>(), c.run_delay_ns);
  // A run under 100 ms is warned about, from its records or from the kernel's totals.
  ASSERT_LT(c.run_ns, kTotalsRunNs) << "a 3 ms program";
  EXPECT_TRUE(has_warning(r.doc, "preempted: ")) << r.doc["run"];
  if (c.short_run) {
    EXPECT_TRUE(has_warning(r.doc, "preempted: the threads waited for a CPU")) << r.doc["run"];
  } else {
    // Measured from 20 ms on: the records' waits are among the kernel's, which also hold the
    // run's start and its wake-ups, give or take the two clocks' reading.
    EXPECT_GE(double(c.run_delay_ns), 0.9 * double(c.preempted_ns) - 1e5);
  }
  EXPECT_EQ(r.doc["breakdown"]["preemption_measured"].get<bool>(), c.measured);
}

// Profile mode has no switch records, and is made for long runs: a run of 200 ms beside the
// hogs (longer, slowed by them) is warned about from the kernel's totals, and the text report's
// verdict says the machine may explain its shares (it said "85 % idleness" of such a run and
// nothing of the machine).
TEST(BreakdownIntegration, ALongProfileModeRunBesideCpuHogsIsWarnedAbout) {
  std::string dir = testing::scratch_dir("profile-hogs") + "/exp";
  testing::CommandResult run;
  {
    CpuHogs hogs;
    run = testing::run_command({testing::tasklens_bin(), "run", "--mode", "profile", "-n", "2",
                                "-o", dir, "--", spin_program(), "0", "200", "0"});
  }
  ASSERT_EQ(run.status, 0) << run.err;
  auto x = format::open_experiment(dir);
  ASSERT_TRUE(bool(x)) << x.error().message;
  Contention c = read_contention(*x);
  if (!c.run_delay_known) GTEST_SKIP() << "no scheduler totals in /proc here (CONFIG_SCHED_INFO)";
  ASSERT_TRUE(c.profile_mode);
  EXPECT_GE(c.run_ns, kTotalsRunNs);
  EXPECT_GT(c.run_delay_share(), kPreemptedWarnShare);
  EXPECT_NE(run.err.find("warning: preempted: the threads waited for a CPU"), std::string::npos)
      << run.err;
  testing::JsonReport r = testing::report_json(dir, {});
  EXPECT_TRUE(has_warning(r.doc, "preempted: the threads waited for a CPU")) << r.doc["run"];
  EXPECT_NE(r.doc["run"].dump().find("profile mode has no switch records"), std::string::npos);
  testing::CommandResult text = testing::run_command({testing::tasklens_bin(), "report", dir});
  EXPECT_NE(text.out.find("Caution: the threads waited "), std::string::npos) << text.out;
}

}  // namespace
}  // namespace tasklens::analysis
