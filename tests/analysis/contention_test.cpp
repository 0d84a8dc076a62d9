// The contention warning on hand-made experiments: what the metadata and off_cpu.bin say decides
// it, whatever machine the test runs on.
#include "analysis/contention.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <tuple>

#include "analysis/two_thread_team.h"
#include "format/experiment.h"
#include "format/off_cpu.h"
#include "support/experiment_writer.h"
#include "support/trace_builder.h"

namespace tasklens::analysis {
namespace {

using testing::TraceBuilder;

// Two threads in one region from 0 to 1000 ns, on `cpus` CPUs.
Contention contention_of(TraceBuilder& t, uint32_t cpus) {
  team(t, 5);
  team_end(t, 990, 1000);
  t.writer().meta()["machine"] = {{"affinity_cpus", cpus}, {"online_cpus", cpus}};
  auto x = format::open_experiment(t.write());
  EXPECT_TRUE(bool(x));
  return x ? read_contention(*x) : Contention{};
}

TEST(Contention, QuietRunHasNoWarning) {
  TraceBuilder t;
  t.preempted(0, 100, 140);  // 40 of 2000 thread-ns: 2 %, under the 5 % bar
  Contention c = contention_of(t, 2);
  EXPECT_TRUE(c.measured);
  EXPECT_EQ(c.preempted_ns, 40u);
  EXPECT_EQ(c.thread_ns, 2000u);
  EXPECT_EQ(contention_warning(c), "");
}

TEST(Contention, MoreThreadsThanCpusIsOversubscribed) {
  TraceBuilder t;
  Contention c = contention_of(t, 1);
  EXPECT_EQ(contention_warning(c), "oversubscribed: 2 OpenMP threads on 1 CPU (the affinity mask)");
}

TEST(Contention, PreemptedAboveFivePercentIsNamed) {
  TraceBuilder t;
  t.preempted(0, 100, 200).preempted(1, 300, 350);  // 150 of 2000 thread-ns: 7.5 %
  Contention c = contention_of(t, 2);
  EXPECT_DOUBLE_EQ(c.preempted_share(), 0.075);
  std::string w = contention_warning(c);
  EXPECT_EQ(w.rfind("preempted: the threads were off their CPU while runnable for 7.5% of their "
                    "time",
                    0),
            0u)
      << w;
}

// Thread 0 preempted on CPU 1 from 100 to 300 ns: a switch-out, then a switch-in of `next` on
// the same CPU 2 ns later (another thread of the program, or none), then thread 0 back.
Contention one_cpu_shared(uint32_t next) {
  using format::OffCpuType;
  TraceBuilder t;
  constexpr uint16_t kCpu1 = 2;  // the CPU + 1
  t.writer().add_off_cpu(
      {100, 0, uint8_t(OffCpuType::kSwitchOut), format::off_cpu_flag::kPreempted, kCpu1});
  if (next != 0) t.writer().add_off_cpu({102, next, uint8_t(OffCpuType::kSwitchIn), 0, kCpu1});
  t.writer().add_off_cpu({300, 0, uint8_t(OffCpuType::kSwitchIn), 0, kCpu1});
  return contention_of(t, 2);
}

TEST(Contention, ThreadsTakingTurnsOnOneCpuAreTheProgramsOwn) {
  Contention c = one_cpu_shared(1);
  EXPECT_EQ(c.preempted_ns, 200u);  // 10 % of 2000 thread-ns
  EXPECT_EQ(c.preempted_by_program_ns, 200u);
  std::string w = contention_warning(c);
  EXPECT_NE(w.find("another thread of this program had the CPU"), std::string::npos) << w;
  EXPECT_NE(w.find("OMP_PROC_BIND=true"), std::string::npos) << w;
  EXPECT_EQ(w.find("other processes"), std::string::npos) << w;
}

TEST(Contention, ACpuNoRecordedThreadTookIsAnotherProcesss) {
  Contention c = one_cpu_shared(0);
  EXPECT_EQ(c.preempted_ns, 200u);
  EXPECT_EQ(c.preempted_by_program_ns, 0u);
  EXPECT_NE(contention_warning(c).find("other processes competed for the CPUs"), std::string::npos);
}

TEST(Contention, OnlyTheFallbackIsSaid) {
  TraceBuilder t;
  t.writer().meta()["preemption"] = {{"source", "thread_times"}, {"error", "Permission denied"}};
  Contention c = contention_of(t, 2);
  EXPECT_TRUE(c.fallback);
  EXPECT_EQ(contention_warning(c).rfind("preempted time not measured (the kernel refused "
                                        "context-switch records: Permission denied)",
                                        0),
            0u);
}

// A run that ended before the recorder opened its context-switch records (20 ms): not
// measured, by design, and no warning, however often the kernel switched a thread out.
TEST(Contention, AShortRunIsUnmeasuredWithoutAWarning) {
  TraceBuilder t;
  t.writer().meta()["preemption"] = {{"source", "short_run"}};
  t.writer().meta()["threads"] = {{{"index", 0}, {"involuntary_switches", 7}}};
  Contention c = contention_of(t, 2);
  EXPECT_TRUE(c.short_run);
  EXPECT_FALSE(c.measured);
  EXPECT_EQ(c.involuntary_switches, 7u);
  EXPECT_EQ(contention_warning(c), "");
}

// Two threads in one region of 10 ms (20 thread-ms; or `end_ns`) on `cpus` CPUs, the kernel's
// totals of their waits for a CPU in the metadata, and the writer's CPU time.
Contention with_totals(TraceBuilder& t, uint32_t cpus, uint64_t wait0, uint64_t wait1,
                       uint64_t writer_ns, uint64_t end_ns = 10000000) {
  team(t, 5);
  team_end(t, end_ns - 10, end_ns);
  t.writer().meta()["machine"] = {{"affinity_cpus", cpus}, {"online_cpus", cpus}};
  t.writer().meta()["threads"] = {{{"index", 0}, {"run_delay_ns", wait0}},
                                  {{"index", 1}, {"run_delay_ns", wait1}}};
  t.writer().meta()["recorder"] = {{"writer_cpu_ns", writer_ns}};
  auto x = format::open_experiment(t.write());
  EXPECT_TRUE(bool(x));
  return x ? read_contention(*x) : Contention{};
}

// Two threads, a short run: the kernel's totals (3 of 20 thread-ms waited, 15 %) speak where no
// record can, and who had the CPU follows the writer's CPU time and the CPUs.
std::string short_run_warning(uint32_t cpus, uint64_t writer_ns) {
  TraceBuilder t;
  t.writer().meta()["preemption"] = {{"source", "short_run"}};
  return contention_warning(with_totals(t, cpus, 2000000, 1000000, writer_ns));
}

TEST(Contention, AShortRunThatWaitedForACpuIsWarnedAboutFromTheKernelsTotals) {
  TraceBuilder t;
  t.writer().meta()["preemption"] = {{"source", "short_run"}};
  Contention c = with_totals(t, 4, 2000000, 1000000, 0);
  EXPECT_TRUE(c.short_run);
  EXPECT_TRUE(c.run_delay_known);
  EXPECT_EQ(c.run_delay_ns, 3000000u);
  const std::string head =
      "preempted: the threads waited for a CPU while runnable for 15.0% of their time (0.003 s by "
      "the kernel's totals: a run this short has no switch records): ";
  // A writer with little CPU time: who is not known.
  EXPECT_EQ(contention_warning(c), head + kWhoUnknown);
  // A writer whose CPU time covers most of the wait, on a machine the two threads fill.
  EXPECT_EQ(short_run_warning(2, 2500000),
            head +
                "most likely tasklens's writer thread (encoding the trace: 0.003 s of CPU) had "
                "the CPU: " +
                kWriterAdvice);
  // The same with free CPUs: the kernel started it beside a thread of the program.
  EXPECT_EQ(short_run_warning(4, 2500000),
            head +
                "most likely tasklens's writer thread (encoding the trace: 0.003 s of CPU) had "
                "the CPU: the kernel started it on the CPU of a thread of the program");
  // Under 2 ms it is left unsaid, whatever its share.
  TraceBuilder small;
  small.writer().meta()["preemption"] = {{"source", "short_run"}};
  EXPECT_EQ(contention_warning(with_totals(small, 4, 1000000, 900000, 0)), "");
}

// The same short run, 2.5 ms of whose 3 ms of waits came before the recorder started (the
// metadata's recorder.run_delay_before_ns): the writer did not exist then, so even a writer whose
// CPU time covers the whole wait is not named, and the text says when the wait was.
TEST(Contention, AWaitBeforeTheRecorderStartedIsNotTheWriters) {
  TraceBuilder t;
  t.writer().meta()["preemption"] = {{"source", "short_run"}};
  team(t, 5);
  team_end(t, 10000000 - 10, 10000000);
  t.writer().meta()["machine"] = {{"affinity_cpus", 4}, {"online_cpus", 4}};
  t.writer().meta()["threads"] = {{{"index", 0}, {"run_delay_ns", 2000000}},
                                  {{"index", 1}, {"run_delay_ns", 1000000}}};
  t.writer().meta()["recorder"] = {{"writer_cpu_ns", 2500000}, {"run_delay_before_ns", 2500000}};
  auto x = format::open_experiment(t.write());
  ASSERT_TRUE(bool(x));
  Contention c = read_contention(*x);
  EXPECT_EQ(c.run_delay_before_ns, 2500000u);
  EXPECT_EQ(contention_warning(c),
            std::string("preempted: the threads waited for a CPU while runnable for 15.0% of "
                        "their time (0.003 s by the kernel's totals, 0.003 s of it before the "
                        "recorder started: a run this short has no switch records): ") +
                kWhoUnknown);
}

// One thread waited 3 of 10 ms in a short run: nothing of the program can have had its CPU.
TEST(Contention, AOneThreadRunWaitedForAnotherProcess) {
  TraceBuilder t;
  t.thread_begin(0, 0, 1).implicit_begin(0, 0, kI0, kRegion, 1, 0);
  t.implicit_end(0, 10000000, kI0).thread_end(0, 10000000);
  t.writer().meta()["machine"] = {{"affinity_cpus", 2}, {"online_cpus", 2}};
  t.writer().meta()["preemption"] = {{"source", "short_run"}};
  t.writer().meta()["threads"] = {{{"index", 0}, {"run_delay_ns", 3000000}}};
  auto x = format::open_experiment(t.write());
  ASSERT_TRUE(bool(x));
  std::string w = contention_warning(read_contention(*x));
  EXPECT_NE(w.find("records): another process"), std::string::npos) << w;
  EXPECT_EQ(w.find("threads of the program"), std::string::npos) << w;
}

// A measured run of 100 ms or more is judged by its records alone: the kernel's totals of a
// long run also hold every wake-up latency (the breakdown's text gives them). A shorter one has
// records for its last part only (from 20 ms, after the kernel's grace period): its totals speak
// for the rest. Records that hold nothing measured nothing: the run is a short one.
TEST(Contention, AMeasuredRunIsJudgedByItsRecordsUnlessTheyMissedMostOfIt) {
  auto measured = [](uint64_t wait0, uint64_t end_ns, uint64_t records) {
    TraceBuilder t;
    t.preempted(0, 100, 140);  // 40 ns
    t.writer().meta()["preemption"] = {
        {"source", "perf_switch"}, {"records", records}, {"lost", 0}};
    return with_totals(t, 4, wait0, 0, 0, end_ns);
  };
  Contention c = measured(30000000, 200000000, 2);  // 30 of 400 thread-ms: 7.5 %
  EXPECT_TRUE(c.measured);
  EXPECT_EQ(contention_warning(c), "");
  c = measured(3000000, 10000000, 2);  // 3 of 20 thread-ms: 15 %
  EXPECT_TRUE(c.measured);
  std::string w = contention_warning(c);
  EXPECT_EQ(w.find("; "), std::string::npos) << w;  // one reason: no separator inside
  EXPECT_NE(w.find("(0.003 s by the kernel's totals, of which the switch records, from 20 ms "
                   "into the run, saw 0.000 s): "),
            std::string::npos)
      << w;
  TraceBuilder empty;
  empty.writer().meta()["preemption"] = {{"source", "perf_switch"}, {"records", 0}, {"lost", 0}};
  c = with_totals(empty, 4, 3000000, 0, 0);
  EXPECT_TRUE(c.short_run);
  EXPECT_FALSE(c.measured);
  EXPECT_NE(contention_warning(c).find("a run this short has no switch records"),
            std::string::npos);
}

// A measured run of 40 ms whose records (from 20 ms on) saw 5 ms off the CPU, which the writer's
// CPU time covers, while the kernel's totals say the threads waited 30 ms: the records name the
// writer, and the 25 ms they did not see (31 % of the threads' time) are said as well, by
// someone else. Before, the records' warning hid it: OverheadsE2E.FineGrainedTasksAreTaskManagement
// judged such a run undisturbed, and failed on it.
TEST(Contention, AWaitBeforeRecordsThatWarnedIsSaidToo) {
  auto warning = [](uint64_t wait0) {
    TraceBuilder t;
    t.preempted(0, 25000000, 30000000);
    t.writer().meta()["preemption"] = {{"source", "perf_switch"}, {"records", 2}, {"lost", 0}};
    return contention_warning(with_totals(t, 2, wait0, 0, 5000000, 40000000));
  };
  std::string w = warning(30000000);
  EXPECT_NE(w.find("preempted: the threads were off their CPU while runnable for 6.2% of their "
                   "time (0.005 s): most likely tasklens's writer thread"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("; preempted: the threads waited for a CPU while runnable for 37.5% of their "
                   "time (0.030 s by the kernel's totals, of which the switch records, from 20 ms "
                   "into the run, saw 0.005 s): " +
                   std::string(kWhoUnknown)),
            std::string::npos)
      << w;
  // The totals hold little beyond what the records saw (1 ms more): the records speak alone.
  w = warning(6000000);
  EXPECT_EQ(w.find("; preempted: "), std::string::npos) << w;
  EXPECT_NE(w.find("most likely tasklens's writer thread"), std::string::npos) << w;
}

// Preempted 200 of 2000 thread-ns (the records, no other recorded thread took the CPU) while
// the writer used 150 ns of CPU on a machine the program's two threads filled: the writer's
// part (150) is larger than the rest (50), so it is named; with 30 ns of writer CPU, other
// processes are.
TEST(Contention, TheRecordersWriterIsNamedWhenItTookMostOfThePreemptedTime) {
  auto warning = [](uint64_t writer_ns) {
    TraceBuilder t;
    t.preempted(0, 100, 300);
    t.writer().meta()["recorder"] = {{"writer_cpu_ns", writer_ns}};
    return contention_warning(contention_of(t, 2));
  };
  std::string w = warning(150);
  EXPECT_NE(w.find("most likely tasklens's writer thread (encoding the trace"), std::string::npos)
      << w;
  EXPECT_EQ(w.find("other processes"), std::string::npos) << w;
  w = warning(30);
  EXPECT_NE(w.find("other processes competed for the CPUs"), std::string::npos) << w;
}

// Records the kernel dropped hide preempted time: the share is a lower bound, said so.
TEST(Contention, LostRecordsMakeTheShareALowerBound) {
  TraceBuilder t;
  t.preempted(0, 100, 300);
  t.writer().meta()["preemption"] = {{"source", "perf_switch"}, {"records", 30}, {"lost", 70}};
  std::string w = contention_warning(contention_of(t, 2));
  EXPECT_EQ(w.rfind("preempted: the threads were off their CPU while runnable for at least 10.0% "
                    "of their time (the kernel dropped 70 of 100 switch records) (0.000 s)",
                    0),
            0u)
      << w;
}

// The fallback (records refused) gives the kernel's totals beside the switch count.
TEST(Contention, TheFallbackGivesTheKernelsTotals) {
  TraceBuilder t;
  t.writer().meta()["preemption"] = {{"source", "thread_times"}, {"error", "Permission denied"}};
  std::string w = contention_warning(with_totals(t, 2, 2000000, 1000000, 0));
  EXPECT_NE(w.find("and waited 0.003 s for a CPU while runnable (15.0% of their time)"),
            std::string::npos)
      << w;
}

// Profile mode: no streams, no switch records; its threads and the kernel's totals come from
// profile.json. Two threads of a 10 ms run waited 3 ms (15 %): warned about, who not known (no
// writer in profile mode). Three threads on two CPUs: oversubscribed, as in a trace.
Contention profile_mode_contention(uint32_t threads, uint64_t wait, uint32_t cpus,
                                   uint64_t run_ns = 10000000) {
  testing::ExperimentWriter w;
  w.metadata().mode = "profile";
  w.meta()["machine"] = {{"affinity_cpus", cpus}, {"online_cpus", cpus}};
  nlohmann::json rows = nlohmann::json::array();
  for (uint32_t i = 0; i < threads; ++i) {
    rows.push_back({{"index", i},
                    {"initial", i == 0},
                    {"begin", 0},
                    {"end", run_ns},
                    {"work", run_ns},
                    {"overhead", 0},
                    {"idle", 0},
                    {"serial", 0},
                    {"thread_time", run_ns},
                    {"max_active", 0},
                    {"unmatched_ends", 0},
                    {"run_delay_ns", i == 0 ? wait : 0}});
  }
  std::string dir = testing::scratch_dir() + "/profile-contention";
  EXPECT_TRUE(bool(w.write(dir)));
  std::ofstream(dir + "/profile.json") << nlohmann::json{
      {"profile_version", 1},
      {"threads", rows},
      {"nodes", nlohmann::json::array()},
      {"constructs", nlohmann::json::array()},
      {"counters", nlohmann::json::array()},
      {"overflow", false}}.dump();
  auto x = format::open_experiment(dir);
  EXPECT_TRUE(bool(x)) << (x ? "" : x.error().message);
  return x ? read_contention(*x) : Contention{};
}

TEST(Contention, AProfileModeRunIsWarnedAboutFromTheKernelsTotals) {
  Contention c = profile_mode_contention(2, 3000000, 2);
  EXPECT_TRUE(c.profile_mode);
  EXPECT_EQ(c.threads, 2u);
  EXPECT_EQ(c.run_delay_ns, 3000000u);
  EXPECT_EQ(contention_warning(c),
            std::string("preempted: the threads waited for a CPU while runnable for 15.0% of "
                        "their time (0.003 s by the kernel's totals: profile mode has no switch "
                        "records): ") +
                kWhoUnknown);
  EXPECT_EQ(contention_warning(profile_mode_contention(2, 100000, 2)), "");  // under the bars
  EXPECT_EQ(contention_warning(profile_mode_contention(3, 0, 2)),
            "oversubscribed: 3 OpenMP threads on 2 CPUs (the affinity mask)");
}

// Profile mode is made for long runs and has no switch records: its totals warn whatever the
// run's length (a 2.5 s run of two threads beside CPU hogs waited 6.5 s of 7.6 thread-seconds
// and was reported 85 % idle without a word). A long run's wake-up latencies stay under the bar:
// 10 ms of 4 thread-seconds is 0.25 %.
TEST(Contention, ALongProfileModeRunIsWarnedAboutFromTheKernelsTotals) {
  Contention busy = profile_mode_contention(2, 1500000000, 2, 2000000000);
  EXPECT_EQ(busy.run_ns, 2000000000u);
  EXPECT_EQ(contention_warning(busy),
            std::string("preempted: the threads waited for a CPU while runnable for 37.5% of "
                        "their time (1.500 s by the kernel's totals: profile mode has no switch "
                        "records): ") +
                kWhoUnknown);
  EXPECT_EQ(contention_warning(profile_mode_contention(2, 10000000, 2, 2000000000)), "");
}

TEST(Contention, BothReasonsShareOneLine) {
  TraceBuilder t;
  t.preempted(0, 0, 500);
  std::string w = contention_warning(contention_of(t, 1));
  EXPECT_EQ(w.rfind("oversubscribed: ", 0), 0u) << w;
  EXPECT_NE(w.find("; preempted: "), std::string::npos) << w;
  EXPECT_EQ(w.find('\n'), std::string::npos);
}

// off_cpu.bin's records come per thread in time order whatever their order in the file (threads
// interleaved, a thread's records out of order), and the experiment reads the file once.
TEST(Contention, OffCpuRecordsAreOrderedPerThreadAndReadOnce) {
  TraceBuilder t;
  t.preempted(1, 600, 700).preempted(0, 300, 400).preempted(1, 50, 80).preempted(0, 100, 200);
  team(t, 5);
  team_end(t, 990, 1000);
  auto x = format::open_experiment(t.write());
  ASSERT_TRUE(bool(x));
  const format::OffCpu& off = format::off_cpu(*x);
  ASSERT_EQ(off.preempted.size(), 2u);
  auto pairs = [](const std::vector<format::OffCpuInterval>& v) {
    std::vector<std::pair<uint64_t, uint64_t>> p;
    for (const auto& i : v) p.emplace_back(i.begin_ns, i.end_ns);
    return p;
  };
  using P = std::vector<std::pair<uint64_t, uint64_t>>;
  EXPECT_EQ(pairs(off.preempted[0]), (P{{100, 200}, {300, 400}}));
  EXPECT_EQ(pairs(off.preempted[1]), (P{{50, 80}, {600, 700}}));
  EXPECT_EQ(off.preempted_ns, 330u);
  EXPECT_EQ(&format::off_cpu(*x), &off);  // kept, not read again
  EXPECT_EQ(format::read_off_cpu(*x).preempted_ns, 330u);
}

// The intervals' ends as one time-ordered list (the passes' PreemptionSwitches walk it): the
// threads' lists merged, on a tie the lower thread's first, a thread's own in their order.
TEST(Contention, OffCpuSwitchesAreOneListInTimeOrder) {
  TraceBuilder t;
  t.preempted(1, 100, 300).preempted(0, 300, 400).preempted(1, 50, 80).preempted(0, 100, 200);
  t.preempted(1, 400, 450).preempted(0, 200, 250);  // thread 0's 200 ends one, begins another
  team(t, 5);
  team_end(t, 990, 1000);
  auto x = format::open_experiment(t.write());
  ASSERT_TRUE(bool(x));
  std::vector<std::tuple<uint64_t, uint32_t, bool>> got;
  for (const format::OffCpuSwitch& s : format::off_cpu(*x).switches) {
    got.emplace_back(s.time, s.thread, s.off);
  }
  using S = std::vector<std::tuple<uint64_t, uint32_t, bool>>;
  EXPECT_EQ(got, (S{{50, 1, true},
                    {80, 1, false},
                    {100, 0, true},
                    {100, 1, true},
                    {200, 0, false},
                    {200, 0, true},
                    {250, 0, false},
                    {300, 0, true},
                    {300, 1, false},
                    {400, 0, false},
                    {400, 1, true},
                    {450, 1, false}}));
}

}  // namespace
}  // namespace tasklens::analysis
