// The per-task creation and scheduling costs of a recorded run, measured from the events around
// each task (docs/WHAT-IF.md, "The costs"), per task construct:
//   - scheduling: the time from the end of a thread's last task-body fragment (or, if no task
//     was ready then, from the moment one became ready) to the switch-in of an explicit task's
//     first fragment on that thread; for a task a team of one ran at once at its creation
//     (libomp's serialized team), the time from its creation to its switch-in. Time a thread
//     waits with no task ready (the imbalanced tail of a loop, a barrier) is no sample: it is
//     idle, not scheduling.
//   - creation: the time from a task's creation to its creator's next event on that thread
//     (the create call's return and the creator's code up to its next event: an upper bound).
//   - taskwait: the time a task spends in a taskwait that has nothing to wait for (no child
//     live at its begin, its end the thread's next event): the runtime's own cost of the
//     construct, which a team of one pays after each task's children (fib: as much again as
//     the scheduling).
// Each estimate is the 5 % trimmed mean of its samples: robust to the few samples a preemption
// the kernel did not report stretched, yet not biased by the clock's tick as a median is (with
// a 10 ns tick, a 15 ns dispatch reads 10 or 20, and the median said 10: a one-thread fib(18)
// replay came out 130 us, 3 %, short of its own run). The time a thread was preempted within a
// sample is taken off it.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/preempted_time.h"
#include "replay/id_map.h"
#include "replay/pass.h"

namespace tasklens::simulate {

struct CostEstimate {
  uint64_t ns = 0;       // the trimmed mean of the samples
  uint64_t samples = 0;  // 0: nothing measured (ns is 0)
};

struct ConstructCosts {
  uint64_t codeptr = 0;
  CostEstimate schedule, creation;
};

struct TaskCosts {
  std::vector<ConstructCosts> constructs;  // in the order their first task was created
  CostEstimate schedule;                   // over every construct's samples
  CostEstimate taskwait;                   // over every taskwait without a live child
  uint64_t ran_immediately = 0;            // tasks flagged undeferred switched in at their creation
  // Of those, the ones in a team of one: libomp runs every task of a serialized team at once
  // (its tasks are `task_serial`), which more threads would defer.
  uint64_t ran_immediately_team_of_one = 0;
  const ConstructCosts* find(uint64_t codeptr) const;
};

// The median of `v` (the lower one of an even count), 0 for none; reorders v.
uint64_t median_of(std::vector<uint64_t>& v);
// The mean of `v` without its lowest and highest 5 % (n / 20 samples each), rounded; 0 for
// none; sorts v.
uint64_t trimmed_mean_of(std::vector<uint64_t>& v);

class TaskCostPass : public replay::Pass {
 public:
  void begin(const replay::ReplayInfo& info) override;
  bool uses_before() const override { return false; }
  void after(const replay::Record& r, const replay::TaskModel& m) override;
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const TaskCosts& result() const { return result_; }

 private:
  struct Samples {
    uint64_t codeptr = 0;
    std::vector<uint64_t> schedule, creation;
  };
  Samples& of(uint64_t codeptr);
  uint64_t sample(uint32_t thread, uint64_t a, uint64_t b);

  struct Thread {
    bool working = false;
    uint64_t body_end = 0;  // the end of its last task-body fragment
    uint64_t created = 0;   // the task it created at its last event but one (0: none)
    uint64_t created_ns = 0;
    uint64_t created_code = 0;
    bool created_undeferred = false;
    uint64_t team = 1;           // the size of its innermost team
    uint64_t taskwait_task = 0;  // in a taskwait without live children since taskwait_ns
    uint64_t taskwait_ns = 0;
  };
  std::vector<Thread> threads_;
  std::vector<Samples> samples_;
  std::vector<uint64_t> taskwaits_;
  replay::IdMap<uint32_t> index_;  // codeptr -> index + 1
  uint64_t ready_rise_ = 0;        // when the count of ready tasks last rose from 0
  uint64_t ready_ = 0;
  analysis::PreemptedTime preempted_;
  TaskCosts result_;
};

}  // namespace tasklens::simulate
