// The breakdown section of `tasklens report`: POT's work / overhead / idleness, per thread, per
// parallel region and over time, opening with the LL/LH/HL/HH verdict.
#pragma once

#include <memory>

#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_breakdown_section(const ReportOptions& options);

}  // namespace tasklens::report
