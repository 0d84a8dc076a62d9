// The profile section of `tasklens report --profile`: the task-aware call trees of Score-P (Lorenz et al.)
// (implicit-task trees with stub nodes, one merged tree per task construct) as indented tables,
// hottest paths first, then per task construct a line like Score-P's Table I (Lorenz et al.) and, where a
// parameter was set, its split like Table IV. JSON keys: `profile` and `tasks` (docs/REPORT.md).
#pragma once

#include <memory>

#include "analysis/profile.h"
#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_profile_section(const ReportOptions& options);

// A time statistic as JSON: {"sum", "min", "max", "mean"} (docs/REPORT.md, conventions).
nlohmann::json stat_json(const analysis::Stat& s);

}  // namespace tasklens::report
