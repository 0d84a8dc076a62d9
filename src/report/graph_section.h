// The task graph section of `tasklens report`: work, span (the critical path) and average
// parallelism of the run's DAG of task strands, the fastest any schedule could be on the run's
// thread count, and what that means for the user's code.
#pragma once

#include <memory>

#include "analysis/task_graph.h"
#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_graph_section(const ReportOptions& options);
// The task graph `section` computed, when it is the graph section (after the replay).
const analysis::TaskGraph* graph_of(const Section& section);

}  // namespace tasklens::report
