// What the breakdown tests share: recording an example and replaying its breakdown, and the
// invariant every breakdown must hold.
#pragma once

#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/task_graph.h"

namespace tasklens::analysis {

struct RecordedBreakdown {
  std::string output;  // the program's stdout
  Breakdown breakdown;
  TaskGraph graph;     // from the same replay
};

// `tasklens run -n threads` on `program` (path and arguments), then the breakdown and the task
// graph of its trace.
RecordedBreakdown record_and_replay(const std::vector<std::string>& program, int threads = 2);

// work + overhead + idleness = each thread's lifetime, and the per-thread, per-region and
// per-slice figures all add up to the totals.
void expect_breakdown_invariant(const Breakdown& b);

}  // namespace tasklens::analysis
