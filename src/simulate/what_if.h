// What-if: the run predicted at other thread counts and with a cut-off on recursive task
// constructs, from one recording (docs/WHAT-IF.md). One replay builds the task graph
// (TaskDagPass) and measures its costs: the scheduling and creation costs per task and construct
// from the events around each task (TaskCostPass), with the breakdown's overhead per task
// (BreakdownPass) and the profile's mean creation time (ProfilePass) where those found no
// sample; work and span from the task graph (TaskGraphPass, Brent's bounds); then the simulator
// (simulator.h) runs it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/profile.h"
#include "analysis/task_graph.h"
#include "replay/pass.h"
#include "simulate/simulator.h"
#include "simulate/task_costs.h"
#include "simulate/task_dag.h"

namespace tasklens::simulate {

struct WhatIfOptions {
  std::vector<uint32_t> threads;        // empty: 1, 2, 4, ..., 64 and the recorded count
  uint32_t max_cutoff_depths = 32;      // deepest cut-off considered per recursive construct
  bool every_cutoff_depth = false;      // simulate every depth, not a search for the fastest
  std::vector<uint32_t> cutoff_depths;  // simulated too (up to the deepest less one)
  // Further recordings of the same program (experiment directories): what_if_recordings.h.
  std::vector<std::string> also;
};

struct Prediction {
  uint32_t threads = 0;
  SimResult sim;
  uint64_t brent_lower_ns = 0;  // max(work / P, span) + outside: no schedule is faster
  uint64_t brent_upper_ns = 0;  // work / P + span + outside: no greedy schedule is slower
  // With several recordings (what_if_recordings.h): each one's own prediction, in the order
  // given (the first recording first); empty with one.
  std::vector<uint64_t> wall_by_recording_ns;
};

// How the predictions of several recordings were combined (what_if_recordings.h).
enum class Combination : uint8_t { kOne, kMedianWork, kMedianPrediction };

// Why the predicted curve stops improving.
enum class Flattening : uint8_t {
  kNone,         // it improves up to the largest count asked for
  kCreation,     // one task creates the tasks one by one (TaskGraph::creation_bound)
  kOverhead,     // the scheduling cost of the tasks grows to a large share of the time
  kDependences,  // the critical path, made of dependences
  kSpan,         // the critical path (task bodies, waits)
  kSerial,       // the program's serial code (Amdahl)
  kIdle,         // threads find no task to steal though the path allows more
};

// Which measurement a cost comes from (docs/WHAT-IF.md, "The costs").
enum class Estimate : uint8_t {
  kTaskStarts,       // trimmed mean of its construct's task starts (task_costs.h)
  kAllTaskStarts,    // trimmed mean of every construct's task starts (its own had none)
  kOverheadPerTask,  // the breakdown's overhead less creation, over the explicit tasks
  kCreateCalls,      // trimmed mean of its construct's create calls (task_costs.h)
  kProfileMean,      // the profile's mean creation time
};
const char* estimate_key(Estimate e);

struct CutoffPrediction {
  uint64_t codeptr = 0;              // the construct (of a recursion: its first construct)
  uint32_t depth = 0;                // tasks deeper than this run inline
  uint64_t tasks = 0;                // tasks of the recursion that stay tasks
  uint64_t wall_ns = 0;              // predicted at the recorded thread count
  std::vector<uint64_t> constructs;  // every construct of the recursion
};

struct CutoffBest {
  uint64_t codeptr = 0;
  std::vector<uint64_t> constructs;
  uint32_t depth = 0;
  uint64_t tasks = 0, tasks_now = 0;
  uint64_t wall_ns = 0, wall_now_ns = 0;  // with the cut-off; without (simulated)
};

struct WhatIf {
  uint32_t recorded_threads = 0;
  // The largest thread count asked for or recorded beyond kMaxWorkers (simulated with
  // kMaxWorkers), 0 if none.
  uint32_t threads_clamped_from = 0;
  uint64_t recorded_run_ns = 0;
  uint64_t work_ns = 0, span_ns = 0;  // the task graph's (analysis/task_graph)
  uint64_t serial_ns = 0;  // the initial task's work outside parallel regions (the root's)
  // Work of the simulated timelines that the task graph leaves out (the time before the recorder
  // started, the forks): added to Brent's bounds, which cannot overlap it either.
  uint64_t outside_graph_ns = 0;
  uint64_t preempted_ns = 0;  // threads preempted while running a task: left out of the work
  uint64_t schedule_ns = 0;   // charged per task started (of a construct without its own)
  // How schedule_ns was measured: the trimmed mean of the task starts' samples (task_costs.h), or,
  // in a recording without any, the breakdown's overhead (less creation) over the tasks.
  Estimate schedule_estimate = Estimate::kOverheadPerTask;
  uint64_t schedule_samples = 0;
  uint64_t overhead_ns = 0, tasks_started = 0;  // the overhead-per-task estimate's terms
  // Charged per taskwait: the trimmed mean of the taskwaits with nothing to wait for
  // (task_costs.h); 0 without any.
  uint64_t taskwait_ns = 0, taskwait_samples = 0;
  struct Creation {
    uint64_t codeptr = 0;
    uint64_t ns = 0;  // creation time of its tasks: what a cut-off saves per task inlined
    Estimate estimate = Estimate::kProfileMean;  // kCreateCalls or kProfileMean
    uint64_t samples = 0;
    uint64_t schedule_ns = 0;                                 // charged per task of it started
    Estimate schedule_estimate = Estimate::kOverheadPerTask;  // kTaskStarts: its own samples;
                                                              // kAllTaskStarts; kOverheadPerTask
    uint64_t schedule_samples = 0;
  };
  std::vector<Creation> creation;  // per construct of the graph
  // Explicit tasks the recording ran at once at their creation (switched in by the create call),
  // and of those the ones in a team of one (libomp runs every task of a serialized team at once;
  // the simulation defers them on any thread count).
  uint64_t ran_immediately = 0, ran_immediately_team_of_one = 0;
  uint64_t fragments = 0, tasks = 0;    // of the graph
  uint64_t one_thread_ns = 0;           // the prediction at 1 thread (speed-up's base)
  std::vector<Prediction> predictions;  // ascending thread count
  uint32_t flattens_at = 0;             // 0: no flattening within the counts
  Flattening flattening = Flattening::kNone;
  // The depths simulated (a search for the fastest, not every depth), by construct and depth.
  std::vector<CutoffPrediction> cutoffs;
  std::vector<CutoffBest> best_cutoffs;  // per recursive construct, the fastest depth
  // Several recordings (WhatIfOptions::also): how many, how combined, and the ones that could
  // not be used (directory: reason).
  uint32_t recordings = 1;
  Combination combination = Combination::kOne;
  std::vector<std::string> recording_errors;
};

// Brent's bounds of one recording (docs/WHAT-IF.md): its graph's work and span, as the
// simulation of its DAG counts them (`one`: that DAG simulated on one thread).
struct BrentBounds {
  uint64_t work_ns = 0, span_high_ns = 0;     // the upper bound's
  uint64_t low_work_ns = 0, span_low_ns = 0;  // the lower bound's
  uint64_t outside_graph_ns = 0;              // WhatIf::outside_graph_ns
  uint64_t lower(uint32_t threads) const;     // max(work / P, span) + outside
  uint64_t upper(uint32_t threads) const;     // work / P + span + outside
};
BrentBounds brent_bounds(const TaskDag& dag, const analysis::TaskGraph& graph,
                         const SimResult& one);

// The predictions from a graph and its measured costs (the pass calls it; tests too).
WhatIf predict(const TaskDag& dag, const analysis::TaskGraph& graph, const SimCosts& costs,
               const WhatIfOptions& options);

class WhatIfPass : public replay::Pass {
 public:
  explicit WhatIfPass(WhatIfOptions options) : options_(std::move(options)) {}
  void begin(const replay::ReplayInfo& info) override { group_.begin(info); }
  void before(const replay::Record& r, const replay::TaskModel& m) override { group_.before(r, m); }
  void after(const replay::Record& r, const replay::TaskModel& m) override { group_.after(r, m); }
  void end(const replay::ReplayInfo& info, const replay::TaskModel& m) override;

  const WhatIf& result() const { return result_; }
  const analysis::TaskGraph& graph() const { return graph_.result(); }
  const TaskDag& dag() const { return dag_.result(); }
  const SimCosts& costs() const { return costs_; }

 private:
  WhatIfOptions options_;
  TaskDagPass dag_;
  TaskCostPass task_costs_;
  analysis::TaskGraphPass graph_;
  analysis::ProfilePass profile_;
  analysis::BreakdownPass breakdown_;
  replay::PassGroup group_{{&dag_, &task_costs_, &graph_, &profile_, &breakdown_}};
  WhatIf result_;
  SimCosts costs_;  // what result_ was simulated with
};

}  // namespace tasklens::simulate
