// The overheads section of `tasklens report` (--overheads): the overhead analysis report of ompP
// (ompP, Fürlinger & Gerndt, Fig. 3) with tasklens's fifth class, task management. JSON keys: docs/REPORT.md.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/overheads.h"
#include "symbols/symbolizer.h"
#include "report/section.h"

namespace tasklens::report {

std::unique_ptr<Section> make_overheads_section(const ReportOptions& options);

// Adds <class>_ns and <class>_share (of `total`) for work and the five classes, and
// overhead_ns / overhead_share, to `j`.
void add_cost_fields(nlohmann::json& j, const analysis::CostTimes& c, uint64_t total);

// "R1", "R2", ...: regions are numbered in the order of Overheads::regions (longest first).
std::string region_id(size_t index);

// The region's location for tables: "file:line" when known, else the code address.
std::string region_location(uint64_t codeptr, symbols::Symbolizer& symbols);

}  // namespace tasklens::report
