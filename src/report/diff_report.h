// What `tasklens diff BEFORE AFTER` prints: two experiments of anything (a code change, another
// cut-off, another input) side by side: run time, breakdown and verdict, per task construct
// (matched by source location) instances and time, the critical path's length. JSON keys:
// docs/REPORT.md, `diff`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/breakdown.h"
#include "analysis/profile.h"

namespace tasklens::report {

struct DiffConstruct {
  std::string location;  // file:line (the key that matches constructs across runs)
  uint64_t instances = 0;
  analysis::Stat time;   // inclusive time per instance (the `tasks` section's time_ns)
};

struct DiffRun {
  std::string name;  // the experiment directory
  uint64_t run_ns = 0;
  analysis::TimeSplit split;
  analysis::Verdict verdict = analysis::Verdict::kLL;
  // The critical path (analysis/task_graph); none for a profile-mode run, which has no graph.
  std::optional<uint64_t> span_ns;
  std::vector<DiffConstruct> constructs;  // one per location: add_construct
  // The machine's contention during the run (analysis::contention_warning), "" when quiet: a
  // change between two runs may be the machine's.
  std::string warning;
};

// Adds a construct's instances and times to `run`, to those of its location when it has one
// already: a construct can have several code addresses (an `if` clause's deferred and undeferred
// calls, a construct inlined twice: BOTS nqueens' 15,712 and 8 tasks at one line), and diff
// matches constructs by location.
void add_construct(DiffRun& run, const std::string& location, uint64_t instances,
                   const analysis::Stat& time);

std::string diff_text(const DiffRun& before, const DiffRun& after);
nlohmann::json diff_json(const DiffRun& before, const DiffRun& after);

}  // namespace tasklens::report
