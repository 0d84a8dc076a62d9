// The chart of `tasklens compare -o chart.svg`, a standalone SVG document written by hand: on
// the left the time accumulated over threads per class, one stacked bar per thread count (seed
// 004, Fig. 6: equal bars mean perfect scaling); on the right the work (solid) and the overhead
// (dashed) of the largest parallel regions vs thread count (Fig. 7).
#pragma once

#include <string>

#include "analysis/scaling.h"
#include "format/text.h"

namespace tasklens::report {

std::string scaling_svg(const analysis::Scaling& s, const std::string& title);

using format::xml_escape;

}  // namespace tasklens::report
