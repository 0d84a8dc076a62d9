// The short summary `tasklens run` prints when the program ends, and the counts behind it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/launcher.h"
#include "format/experiment.h"

namespace tasklens::cli {

struct RunCounts {
  uint64_t threads = 0;
  uint64_t parallel_regions = 0;
  uint64_t explicit_tasks = 0;
  uint64_t events = 0;
  uint64_t events_lost = 0;
  uint64_t trace_bytes = 0;  // the files of the experiment directory (not its pid-N folders)
  bool scanned = false;      // counted from the streams (the metadata was not final)
};

// From the metadata when the run completed, else by reading the streams.
RunCounts count_experiment(const format::Experiment& x);

// `descendants`: the experiments of processes started by the program (DIR/pid-N), listed.
void print_run_summary(FILE* out, const std::string& dir, const std::vector<std::string>& command,
                       const ChildExit& child, const std::vector<std::string>& descendants);

}  // namespace tasklens::cli
