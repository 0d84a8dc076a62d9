// The work / overhead / idleness breakdown of POT (Pereira et al., eq. 3 and 4, Algorithm 3): for
// every thread and every instant, *work* when the thread runs a task body (explicit or
// implicit), else *overhead* when at least one task is ready, else *idleness*. Two more
// categories make every thread's lifetime add up (docs/BREAKDOWN.md): *serial*, the initial
// thread outside parallel regions (from the process's start to its exit), and *preempted*, a
// thread off its CPU while runnable (off_cpu.bin), taken out of the other four. Per thread, per
// parallel region construct, and per time slice, with the verdict of POT Table 1, drawn from work,
// overhead and idleness only.
//
// Cost: O(1) per event. The integral R(t) of "some task is ready" is kept globally; a thread's
// non-working interval [t0, t1] has overhead R(t1) - R(t0) and idleness the rest.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/creation_cost.h"
#include "analysis/preemption_switches.h"
#include "replay/id_map.h"
#include "replay/pass.h"

namespace tasklens::analysis {

struct TimeSplit {
  uint64_t work_ns = 0;
  uint64_t overhead_ns = 0;
  uint64_t idle_ns = 0;
  uint64_t serial_ns = 0;     // the initial thread outside parallel regions
  uint64_t preempted_ns = 0;  // off the CPU while runnable (another process or thread had it)
  // Of overhead_ns: the runtime's estimated time inside task creation, taken out of the
  // creator's work (creation_cost.h).
  uint64_t creation_ns = 0;
  // Every category: a thread's lifetime.
  uint64_t total_ns() const { return active_ns() + serial_ns + preempted_ns; }
  // What POT's shares and the verdict are drawn from.
  uint64_t active_ns() const { return work_ns + overhead_ns + idle_ns; }
  TimeSplit& operator+=(const TimeSplit& o) {
    work_ns += o.work_ns, overhead_ns += o.overhead_ns, idle_ns += o.idle_ns;
    serial_ns += o.serial_ns, preempted_ns += o.preempted_ns;
    creation_ns += o.creation_ns;
    return *this;
  }
};

// POT Table 1 (Tallent et al.): idleness and overhead, each low or high.
enum class Verdict { kLL, kLH, kHL, kHH };
const char* verdict_code(Verdict v);  // "LL", "LH", "HL", "HH" (the words: report/breakdown_section.h)

struct ThreadBreakdown {
  uint32_t thread = 0;
  // Its lifetime: the initial thread's is the whole run (0 = the process's start, to its exit);
  // a worker's from its creation (thread_begin) to its end (thread_end or the exit).
  uint64_t begin_ns = 0, end_ns = 0;
  bool initial = false;
  TimeSplit time;  // time.total_ns() == end_ns - begin_ns
};

// A parallel construct (all its instances), or the time outside parallel regions (codeptr 0).
struct RegionBreakdown {
  uint64_t codeptr = 0;
  uint64_t instances = 0;
  uint64_t wall_ns = 0;  // sum of the instances' durations on the encountering thread
  uint32_t max_team = 0;
  TimeSplit time;        // accumulated over threads
};

struct SliceBreakdown {
  uint64_t begin_ns = 0, end_ns = 0;
  TimeSplit time;  // accumulated over threads
};

struct Breakdown {
  TimeSplit total;
  uint64_t run_ns = 0;  // the run's end: the program's exit (ns since the process started)
  uint64_t recorder_start_ns = 0;  // when the trace's first event could have come
  bool preemption_measured = false;  // context-switch records were read (off_cpu.bin)
  // The kernel's totals of the threads' wait for a CPU while runnable (whole run, not placed in
  // time; format::OffCpu::run_delay_ns); known when some thread reported it.
  bool run_delay_known = false;
  uint64_t run_delay_ns = 0;
  // Of total.preempted_ns as off_cpu.bin has it: another thread of the program had the CPU
  // (format::OffCpu::preempted_by_program_ns), not another process.
  uint64_t preempted_by_program_ns = 0;
  CreationCost creation;  // the estimate behind total.creation_ns
  // Time threads ran a task body, whatever the category: work plus the serial and preempted time
  // of a running task (the initial task's serial code, a task preempted). The task graph's work.
  uint64_t task_body_ns = 0;
  std::vector<ThreadBreakdown> threads;
  std::vector<RegionBreakdown> regions;  // largest total first; codeptr 0 = outside parallel
  std::vector<SliceBreakdown> series;
  double idle_share = 0, overhead_share = 0;  // of work + overhead + idleness
  double high_threshold = 0.10;                // a share at or above this is "high"
  Verdict verdict = Verdict::kLL;
};

// The shares of idleness and overhead and POT's verdict, from b.total and b.high_threshold.
void set_verdict(Breakdown& b);

class BreakdownPass : public replay::Pass {
 public:
  explicit BreakdownPass(uint32_t slices = 50, double high_threshold = 0.10)
      : slices_(slices ? slices : 1), high_threshold_(high_threshold) {}

  void begin(const replay::ReplayInfo& info) override;
  // before() moves the threads off and back onto their CPUs, when the trace says when.
  bool uses_before() const override { return switches_.left(); }
  void before(const replay::Record& r, const replay::TaskModel& m) override;
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const Breakdown& result() const { return result_; }
  uint32_t slices() const { return slices_; }

 private:
  enum State : uint8_t { kRuntime, kWorking, kSerial, kPreempted };
  struct Segment {
    bool open = false;
    State state = kRuntime;
    bool working = false;     // runs a task body (under any state)
    uint64_t claimed = 0;     // kWorking: of it, task creation at its end (overhead)
    uint64_t t0 = 0;
    uint64_t ready0 = 0;      // R(t0)
    uint32_t construct = 0;   // index in result_.regions
    uint64_t region = 0;      // the parallel region id the construct was looked up for
  };
  // Time of one thread not yet added to its slice, itself and its construct: consecutive
  // intervals mostly share all three, and adding them up once is cheaper (the sums are exact).
  struct Pending {
    size_t slice = 0;
    uint32_t construct = 0;
    TimeSplit time;
  };
  struct Instance {
    uint32_t construct;
    uint64_t begin_ns;
  };

  // Moves the clock to t (>= the time of the last event): R grows while a task is ready.
  void advance(uint64_t t) {
    if (t <= now_) return;
    if (__builtin_expect(t >= next_boundary_ns_, 0)) pass_boundaries(t);
    if (ready_) ready_integral_ += t - now_;
    now_ = t;
  }
  void pass_boundaries(uint64_t t);  // records R at every slice boundary up to t
  void track_region(const format::Event& e);  // parallel_begin/_end, implicit_task begin
  // The thread's state may have changed: closes its interval and opens the next one if so.
  inline void update_thread(uint32_t thread, uint64_t t, const replay::TaskModel& m);
  inline void close(uint32_t thread, uint64_t t);
  void close_across_slices(uint32_t thread, uint64_t t);
  void flush(uint32_t thread);  // adds up its Pending time
  void open(uint32_t thread, uint64_t t, State state, bool working, uint32_t construct);
  // Applies the CPU switches up to time t (the model as it was before the event at t).
  void pass_switches(uint64_t t, const replay::TaskModel& m);
  uint32_t construct_index(uint64_t codeptr);
  // The slice holding time t (the last one holds all after it; its end is then UINT64_MAX).
  // Most intervals fall into the slice of the one before: no division unless t leaves it.
  size_t slice_of(uint64_t t);
  // R at a slice boundary already passed, or at the current time.
  uint64_t ready_at(uint64_t t) const;
  // The creations' claim (ns) on the thread's working time since its event before.
  void claim(uint32_t thread, const format::Event& e, uint64_t ns);

  uint32_t slices_;
  double high_threshold_;
  uint64_t slice_ns_ = 1;
  size_t slice_index_ = 0;
  uint64_t slice_begin_ = 0, slice_end_ = 0;  // of slice_index_; empty until the first use
  uint64_t now_ = 0;
  uint64_t ready_integral_ = 0;  // R(now_)
  bool ready_ = false;           // δr since now_
  std::vector<uint64_t> ready_at_boundary_;
  size_t next_boundary_ = 1;
  uint64_t next_boundary_ns_ = 0;  // next_boundary_ * slice_ns_, UINT64_MAX past the last
  std::vector<Segment> segments_;
  std::vector<uint8_t> initial_;  // per thread: the program's initial thread
  std::vector<uint8_t> off_cpu_;  // per thread: preempted now
  PreemptionSwitches switches_;
  std::vector<Pending> pending_;  // per thread
  CreationClaims claims_;
  uint32_t team_limit_ = 1;  // ReplayInfo::team_limit()
  replay::IdMap<Instance> live_regions_;  // parallel region id -> its construct
  Breakdown result_;
};

}  // namespace tasklens::analysis
