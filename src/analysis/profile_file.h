// The results of a profile-mode experiment (`tasklens run --mode profile`, docs/PROFILE-MODE.md):
// profile.json read into the same result types the replay passes produce, so that the report
// renders both modes with the same code.
#pragma once

#include <string>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/profile.h"
#include "format/experiment.h"
#include "format/result.h"

namespace tasklens::analysis {

struct ProfileModeData {
  Profile profile;
  Breakdown breakdown;
  uint32_t threads = 0;
  uint64_t run_ns = 0;
  std::vector<std::string> counters;  // names of the perf_event counters per task
  std::vector<std::string> notes;  // what the figures approximate or left out
};

// Why a profile-mode experiment has no profile.json, from its metadata: "the run ended by signal
// 11 (SEGV) ...", for the report and the run summary.
std::string why_no_profile(const format::Metadata& m);

// Reads DIR/profile.json of experiment `x` (its clock turns ticks into ns).
Result<ProfileModeData> read_profile_mode(const format::Experiment& x);

}  // namespace tasklens::analysis
