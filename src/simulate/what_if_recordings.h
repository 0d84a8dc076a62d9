// Predictions from several recordings of one program (`report --what-if-also DIR2,DIR3`,
// docs/WHAT-IF.md): one recording's figures move by tens of per cent from run to run (its
// serial start, its tasks' work, its scheduling samples). Each further recording is replayed and
// measured as the first (its own graph and costs); then
//   - when every graph has the first one's shape (tasks, items and their kinds, creations and
//     regions in the same order: a deterministic program's 1-thread recordings of coarse tasks;
//     a stretch below the clock's tick makes no work item, so fine-grained ones differ), the
//     simulated graph takes each work item's median over the recordings and each construct's median
//     scheduling and creation costs, and every prediction and cut-off comes from it
//     (Combination::kMedianWork);
//   - else each recording predicts alone, and each thread count's prediction is the recording
//     whose predicted time is the median (Combination::kMedianPrediction), with that
//     recording's own Brent bounds (another recording's need not hold for it); each cut-off the
//     first recording simulated is simulated on every recording (the construct found by its
//     address) and takes the median time, and each recursion's best depth is chosen from those.
// Either way each thread count gets the spread of the recordings' own predictions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/task_graph.h"
#include "simulate/simulator.h"
#include "simulate/task_dag.h"

namespace tasklens::simulate {

struct WhatIf;
struct WhatIfOptions;

// One recording as the what-if measured it.
struct MeasuredRecording {
  TaskDag dag;
  SimCosts costs;
  analysis::TaskGraph graph;  // its own Brent bounds' (a median prediction shows that recording's)
};

// The first recording's what-if `w` (from `first`) with the others folded in.
void combine_recordings(WhatIf& w, const MeasuredRecording& first,
                        const std::vector<MeasuredRecording>& others, const WhatIfOptions& options);

// Whether two graphs have one shape (combine_recordings).
bool same_shape(const TaskDag& a, const TaskDag& b);

}  // namespace tasklens::simulate
