// The what-if section of `tasklens report --what-if`: the run predicted at other thread counts
// and with cut-offs (src/simulate), as text and JSON.
#pragma once

#include <memory>

#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_what_if_section(const ReportOptions& options);

}  // namespace tasklens::report
