// Scalability across runs of one program with different thread counts (ompP, Fürlinger & Gerndt, Sect. 2.2):
// the time accumulated over threads per class vs thread count (Fig. 6), the speedup vs the
// smallest run next to Amdahl's prediction, and per parallel region the work and the overhead
// (Fig. 7). Works on the results of the overheads pass, one per run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/overheads.h"
#include "analysis/task_graph.h"

namespace tasklens::analysis {

struct ScalingRun {
  std::string name;  // how the run is shown (its directory)
  uint32_t threads = 0;
  Overheads overheads;
  TaskGraph graph;  // work and span of the same run
  TimeSplit split;  // the breakdown's totals of the same run (work inflation, preemption)
  // The run's contention warning (analysis::contention_warning), "" for a quiet run: noted where
  // the measured preemption is not (a run too short for switch records, more threads than CPUs).
  std::string contention;
  // One key per overheads.regions: the same region has the same key in every run (a source
  // location, or object + offset: code addresses move between runs).
  std::vector<std::string> region_keys;
};

struct ScalingPoint {
  std::string name;
  uint32_t threads = 0;
  uint64_t run_ns = 0;       // wall time
  uint64_t total_ns = 0;     // threads x wall time: everything, accumulated over threads
  uint64_t serial_ns = 0;    // threads x wall time outside parallel regions
  CostTimes cost;            // inside the (outermost) parallel regions
  double coverage = 0;
  double speedup = 0;        // wall time of the smallest run / this one's
  double efficiency = 0;     // speedup x smallest thread count / this thread count
  uint64_t amdahl_ns = 0;    // Amdahl's prediction of the wall time from the smallest run
  // The task graph: its work, span (which may hold the runtime's fork time, path_runtime_ns) and
  // parallelism; the bound is max(work / threads, span).
  uint64_t work_ns = 0, span_ns = 0, path_runtime_ns = 0, bound_ns = 0;
  // The tasks' own time: the breakdown's work and task creation, without the time the threads
  // were preempted and without serial code, both of which the graph's work holds and both of
  // which move from run to run with the machine's load and the program's start. Work inflation
  // is it against the smallest run's (Olivier et al.: the same program doing more work with more
  // threads, e.g. from memory contention).
  uint64_t tasks_work_ns = 0, preempted_ns = 0;
  double parallelism = 0, work_inflation = 0;
};

struct RegionScaling {
  std::string key;
  struct Point {
    bool present = false;
    uint64_t instances = 0, wall_ns = 0, total_ns = 0;
    CostTimes cost;
  };
  std::vector<Point> runs;  // parallel to Scaling::runs
};

struct Scaling {
  std::vector<ScalingPoint> runs;  // fewest threads first
  Amdahl amdahl;                   // from the smallest run
  std::vector<RegionScaling> regions;  // longest (in the first run that has them) first
  std::vector<std::string> notes;      // things to know when reading the numbers
};

Scaling compute_scaling(std::vector<ScalingRun> runs);

}  // namespace tasklens::analysis
