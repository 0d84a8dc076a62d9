// The breakdown section of `tasklens report`: POT's work / overhead / idleness, per thread, per
// parallel region and over time, opening with the LL/LH/HL/HH verdict and its words.
#pragma once

#include <memory>

#include "analysis/breakdown.h"
#include "report/section.h"

namespace tasklens::report {

// POT Table 1 in words: the interpretation of a verdict, and what it means for the user's code.
const char* verdict_meaning(analysis::Verdict v);
const char* verdict_advice(analysis::Verdict v);

std::unique_ptr<Section> make_breakdown_section(const ReportOptions& options);
// The breakdown pass of `section` when it is the breakdown section run on a trace, else null.
const analysis::BreakdownPass* breakdown_pass_of(const Section& section);

}  // namespace tasklens::report
