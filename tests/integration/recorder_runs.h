// Running test programs with the recorder: through `tasklens run`, or with the recorder loaded
// directly by the OpenMP runtime (OMP_TOOL_LIBRARIES), as a user may do without the CLI.
#pragma once

#include <string>
#include <vector>

namespace tasklens::testing {

// build/tests/integration/programs/<name>
std::string test_program(const std::string& name);
// The environment that loads the recorder into an OpenMP program writing into `dir`.
std::vector<std::string> recorder_env(const std::string& dir, int threads);
// Runs `tasklens check dir` and expects its exit status and every line part in `says`.
void expect_check(const std::string& dir, int status, const std::vector<std::string>& says);

}  // namespace tasklens::testing
