// Test program paths, the recorder's environment, `tasklens check` expectations.
#include "integration/recorder_runs.h"

#include <gtest/gtest.h>

#include "support/test_paths.h"

namespace tasklens::testing {

std::string test_program(const std::string& name) {
  return std::string(TASKLENS_TEST_PROGRAMS_DIR) + "/" + name;
}

std::vector<std::string> recorder_env(const std::string& dir, int threads) {
  return {"OMP_TOOL_LIBRARIES=" TASKLENS_RECORDER_LIBRARY, "TASKLENS_OUTPUT=" + dir,
          "OMP_NUM_THREADS=" + std::to_string(threads)};
}

void expect_check(const std::string& dir, int status, const std::vector<std::string>& says) {
  CommandResult check = run_command({tasklens_bin(), "check", dir});
  EXPECT_EQ(check.status, status) << check.out << check.err;
  for (const std::string& s : says) {
    EXPECT_NE(check.out.find(s), std::string::npos) << "no \"" << s << "\" in:\n" << check.out;
  }
}

}  // namespace tasklens::testing
