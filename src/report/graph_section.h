// The task graph section of `tasklens report`: work, span (the critical path) and average
// parallelism of the run's DAG of task strands, the fastest any schedule could be on the run's
// thread count, and what that means for the user's code.
#pragma once

#include <memory>

#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_graph_section(const ReportOptions& options);

}  // namespace tasklens::report
