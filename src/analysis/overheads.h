// The overhead analysis of ompP (Fürlinger & Gerndt), extended to tasks: for every parallel region
// and every construct inside it, per thread, ompP's timings (execT, bodyT, exitBarT, enterT, exitT,
// startupT/shutdownT, singleBodyT/sectionT) from OMPT events, and a split of every thread's time
// in the region into work and five overhead classes that never overlap:
//
//   synchronization      waiting for the others in an explicit barrier, taskwait/taskgroup
//                        waits, waiting to enter a critical section or acquire a lock, atomics,
//                        reductions
//   imbalance            waiting in the exit barrier of loops and parallel regions; in a
//                        barrier, for tasks that run on other threads
//   limited parallelism  waiting in the exit barrier of single (and of sections with fewer
//                        sections than threads); in a barrier, while tasks wait for dependences
//   thread management    fork and join (startup, shutdown), waiting for a thread that started
//                        late, a barrier's release once it is complete
//   task management      in the runtime around tasks: at a scheduling point, not running a task
//                        while one is ready to run
//
// Time spent running tasks inside a barrier or taskwait is work (Score-P, Lorenz et al., Fig. 3).
// Time a thread spent off its CPU while runnable (off_cpu.bin: another process or another thread
// of the program had it) is *preempted*, in no class: the machine's, not the program's (a barrier
// waited through while the kernel ran the other thread on the same CPU is not task management).
// Per region, work plus the five classes plus the preempted time equals the region's accumulated
// time over its threads (team size x wall time). The exact definitions and the OMPT event behind
// each timing: docs/OVERHEADS.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "format/constructs.h"
#include "replay/pass.h"

namespace tasklens::analysis {

enum class Cost : uint8_t {
  kWork,
  kSynchronization,
  kImbalance,
  kLimitedParallelism,
  kThreadManagement,
  kTaskManagement,
  kPreempted,  // off the CPU while runnable: neither work nor an overhead of the program
};
constexpr size_t kCostCount = 7;
constexpr std::array<Cost, kCostCount> kAllCosts = {Cost::kWork,
                                                    Cost::kSynchronization,
                                                    Cost::kImbalance,
                                                    Cost::kLimitedParallelism,
                                                    Cost::kThreadManagement,
                                                    Cost::kTaskManagement,
                                                    Cost::kPreempted};
// The five overhead classes (ompP's), in their order.
constexpr std::array<Cost, 5> kOverheadClasses = {Cost::kSynchronization, Cost::kImbalance,
                                                  Cost::kLimitedParallelism,
                                                  Cost::kThreadManagement, Cost::kTaskManagement};
static_assert(kOverheadClasses.size() + 2 == kCostCount,
              "every cost is work, preempted time or one of the overhead classes");

const char* cost_name(Cost c);   // "limited parallelism"
const char* cost_key(Cost c);    // "limited_parallelism" (JSON keys add _ns / _share)
const char* cost_short(Cost c);  // "Limpar" (ompP's column heads, plus "Tasks")

// Time by class, in ns, usually accumulated over threads.
struct CostTimes {
  std::array<uint64_t, kCostCount> ns{};

  uint64_t& operator[](Cost c) { return ns[size_t(c)]; }
  uint64_t operator[](Cost c) const { return ns[size_t(c)]; }
  uint64_t total_ns() const;
  // The sum over kOverheadClasses: neither work nor preempted time.
  uint64_t overhead_ns() const;
  CostTimes& operator+=(const CostTimes& o);
};

// What a construct row of a region is: the construct table of format/ (kParallel: the parallel
// construct itself, its implicit tasks, fork, join and end barrier; kImplicitBarrier: an implicit
// barrier whose construct is unknown; kTask: the bodies of the explicit tasks of one task
// construct; kNestedParallel: a region nested in this one, its time seen from here).
using format::Construct;
using format::construct_name;

// ompP's timings of one construct on one thread (Fig. 2), in ns. For kParallel, enter_ns is
// startupT and exit_ns is shutdownT; for kSingle body_ns is singleBodyT, for kSections sectionT.
struct ConstructTimes {
  uint64_t count = 0;        // execC: executions (task constructs: task bodies completed)
  uint64_t exec_ns = 0;      // execT: contains body, exit barrier, enter and exit; without
                             // other tasks' time for constructs tasks encounter (taskwait, ...)
  uint64_t body_ns = 0;      // bodyT
  uint64_t exit_bar_ns = 0;  // exitBarT (taskgroup: the wait at its end)
  uint64_t enter_ns = 0;     // enterT / startupT
  uint64_t exit_ns = 0;      // exitT / shutdownT
  uint64_t task_ns = 0;      // explicit tasks run inside the construct (part of exec_ns for the
                             // implicit task's constructs; directly inside, for the others)

  ConstructTimes& operator+=(const ConstructTimes& o);
};

struct ConstructOverheads {
  Construct kind = Construct::kParallel;
  uint64_t codeptr = 0;                // the construct's location (critical/lock: acquire site)
  uint32_t sections = 0;               // kSections: the number of sections (OMPT work count)
  std::vector<ConstructTimes> threads;  // by thread number in the team (ompP's TID)
  CostTimes cost;                      // time attributed to this construct, over threads

  ConstructTimes total() const;
};

// A parallel region construct, over all its instances.
struct RegionOverheads {
  uint64_t codeptr = 0;
  uint32_t level = 1;       // 1: outermost; 2: nested in another region, ...
  uint64_t instances = 0;
  uint64_t wall_ns = 0;     // sum over instances of (parallel_end - parallel_begin)
  uint64_t total_ns = 0;    // accumulated over threads: sum over instances of team x wall
  uint32_t max_team = 0;
  CostTimes cost;  // work + the five classes + preempted; cost.total_ns() == total_ns
  std::vector<CostTimes> threads;               // by thread number in the team
  std::vector<ConstructOverheads> constructs;  // [0] is the parallel construct itself
};

struct Overheads {
  uint64_t run_ns = 0;        // wall time of the run (end of the trace)
  uint32_t threads = 0;       // threads in the trace
  uint32_t max_team = 0;      // largest team of any parallel region
  uint64_t instances = 0;     // parallel region instances (all levels)
  uint64_t parallel_ns = 0;   // wall time inside outermost parallel regions
  double coverage = 0;        // parallel_ns / run_ns (ompP's parallel coverage)
  // Thread 0's (the initial thread's) time off its CPU while runnable outside parallel regions:
  // not the program's serial code (Amdahl's estimate leaves it out).
  uint64_t serial_preempted_ns = 0;
  std::vector<RegionOverheads> regions;  // longest wall time first
  CostTimes program;          // over outermost regions (nested ones are inside them)
  uint64_t program_total_ns = 0;  // sum of the outermost regions' total_ns
  // Thread time of region instances that no class received, or that two did (0 unless the
  // trace is damaged); the instances it happened in.
  int64_t unaccounted_ns = 0;
  uint64_t unaccounted_instances = 0;
};

// Amdahl's law from the parallel coverage (ompP, Fürlinger & Gerndt, Sect. 2.1): T_p = T_1 a / p + T_1 (1 - a).
struct Amdahl {
  double alpha = 0;      // a: the parallel fraction of a one-thread run
  bool measured = false; // true: a is the coverage of a one-thread run; false: estimated
  uint64_t t1_ns = 0;    // T_1 (measured, or estimated as serial time + accumulated work)
  double max_speedup = 0;  // 1 / (1 - a), infinite when a == 1

  uint64_t predicted_ns(uint32_t threads) const;
  double speedup(uint32_t threads) const;
};
// For a run with one thread, the measured coverage; otherwise a one-thread run estimated from
// this one: the serial part as measured (less its preempted time) plus the regions' accumulated
// work (no overhead).
Amdahl amdahl(const Overheads& o, uint32_t threads);

class OverheadsPass : public replay::Pass {
 public:
  OverheadsPass();
  ~OverheadsPass() override;

  void begin(const replay::ReplayInfo& info) override;
  void before(const replay::Record& r, const replay::TaskModel& m) override;
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const Overheads& result() const { return result_; }

 private:
  struct State;
  std::unique_ptr<State> s_;
  Overheads result_;
};

}  // namespace tasklens::analysis
