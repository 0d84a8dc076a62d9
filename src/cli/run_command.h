// What `tasklens run` does once its options are parsed: check the environment, claim the
// experiment directory, start the program with the recorder attached, wait for it and say what
// was recorded. One flow for both of its front ends: the full CLI (CLI11, cmd_run.cpp) and the
// small launcher that starts `tasklens run` without loading the rest (run_launcher.cpp).
#pragma once

#include <string>
#include <vector>

#include "cli/launcher.h"
#include "cli/run_output.h"

namespace tasklens::cli {

struct RunOptions {
  std::string output;
  int threads = 0;
  int buffer_mb = 0;
  std::string overflow;
  std::string mode;      // "trace" (default) or "profile"
  std::string counters;  // perf_event counters per task, comma-separated
  bool quiet = false;
  bool force = false;
  std::vector<std::string> command;
};

// The parts of the flow that need more than the launcher links: an MPI rank's share of the
// directory (mpi_run_output.h) and the summary (run_summary.h).
struct RunSteps {
  // Names the MPI run's default directory ("" when it cannot), and claims the rank's folder.
  std::string (*mpi_default_dir)(const std::string& program);
  bool (*claim_mpi_rank)(const std::string& dir, long rank, long size, bool force,
                         const std::vector<std::string>& args, RunOutput* out, std::string* error);
  // Prints the summary of a run that recorded (not called with --quiet); `output.fd` is still
  // open and locked. May not return (the launcher hands the summary to the full CLI).
  void (*summarize)(const RunOutput& output, const std::vector<std::string>& command,
                    const ChildExit& child);
};

// Runs `o.command`; returns tasklens run's exit status (`tasklens run --help`).
int run_program(const RunOptions& o, const RunSteps& steps);

}  // namespace tasklens::cli
