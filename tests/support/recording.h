// What the tests do before they check anything: record a program with the build tree's
// `tasklens run`, read a JSON report of it, replay an experiment through analysis passes.
// record_run and report_json check nothing themselves: the tests assert on what they return.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "replay/pass.h"
#include "support/test_paths.h"

namespace tasklens::testing {

struct Recording {
  std::string dir;    // the experiment directory
  CommandResult run;  // tasklens run's exit status and stderr; stdout is the program's
};

// `tasklens run -q -n threads -o <scratch>/exp -- program...` (program: path and arguments),
// with extra `env` entries ("NAME=value").
Recording record_run(const std::vector<std::string>& program, int threads,
                     const std::vector<std::string>& env = {});

// The same with `--mode profile` and `run_flags` before the `--`.
Recording record_profile(const std::vector<std::string>& program, int threads,
                         const std::vector<std::string>& run_flags = {});

struct JsonReport {
  CommandResult command;  // tasklens report's exit status and outputs
  nlohmann::json doc;     // its document; is_discarded() when the output is not JSON
};

// `tasklens report dir <options...> --json`, e.g. options {"--profile"}.
JsonReport report_json(const std::string& dir, const std::vector<std::string>& options);

// Opens the experiment at `dir` (recorded, or written by a TraceBuilder) and replays it through
// `passes`, expecting (EXPECT_TRUE) both to succeed; false when either failed.
bool replay_experiment(const std::string& dir, const std::vector<replay::Pass*>& passes);

}  // namespace tasklens::testing
