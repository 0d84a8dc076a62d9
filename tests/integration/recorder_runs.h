// Running test programs with the recorder: through `tasklens run`, or with the recorder loaded
// directly by the OpenMP runtime (OMP_TOOL_LIBRARIES), as a user may do without the CLI.
#pragma once

#include <string>
#include <vector>

#include "integration/trace_facts.h"
#include "support/test_paths.h"

namespace tasklens::testing {

// build/tests/integration/programs/<name>
std::string test_program(const std::string& name);
// The environment that loads the recorder into an OpenMP program writing into `dir`.
std::vector<std::string> recorder_env(const std::string& dir, int threads);
// Runs `tasklens check dir` and expects its exit status and every line part in `says`.
void expect_check(const std::string& dir, int status, const std::vector<std::string>& says);

// A program recorded by `tasklens run -q -n THREADS`, its output and the facts of its trace.
struct Recorded {
  CommandResult run;
  std::string dir;
  TraceFacts facts;
  long long printed(const std::string& key) const { return printed_value(run.out, key); }
};

// `env`: extra environment entries ("NAME=value").
Recorded record_run(const std::string& program, const std::vector<std::string>& args, int threads,
                    const std::vector<std::string>& env = {});

// What every recorded program must satisfy: it ran and printed OK, nothing lost or malformed,
// every explicit task created, started and completed once under a parent chain that reaches an
// implicit task, times never decreasing, and `tasklens check` sound. `threads`: the team size
// the program reports (its printed threads=, when it prints one).
void expect_sound(const Recorded& r, int threads);
// The explicit tasks recorded (created and completed) are exactly the program's printed tasks=.
void tasks_as_printed(const Recorded& r, int threads);

}  // namespace tasklens::testing
