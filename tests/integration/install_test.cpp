// `cmake --install` gives a working tool: the installed tasklens finds the installed recorder
// (bin/ and lib/ side by side, not the build tree's) and records a real program.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "integration/trace_facts.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

TEST(Install, InstalledToolRecordsWithTheInstalledRecorder) {
  std::string prefix = scratch_dir("install") + "/prefix";
  CommandResult install =
      run_command({TASKLENS_CMAKE_COMMAND, "--install", TASKLENS_BUILD_DIR, "--prefix", prefix});
  ASSERT_EQ(install.status, 0) << install.out << install.err;
  std::string bin = prefix + "/bin/tasklens";
  ASSERT_TRUE(fs::exists(bin));
  ASSERT_TRUE(fs::exists(prefix + "/include/tasklens/tasklens.h"));

  std::string exp = scratch_dir("install") + "/exp";
  CommandResult run = run_command({bin, "run", "-q", "-n", "2", "-o", exp, "--", example("fib"), "15"});
  ASSERT_EQ(run.status, 0) << run.err;
  TraceFacts facts = read_trace(exp);
  ASSERT_TRUE(facts.error.empty()) << facts.error;
  // fib(15) makes a task per call but the root's: fib calls(15) - 1 = 1972.
  EXPECT_EQ(facts.explicit_created, uint64_t(printed_value(run.out, "tasks")));
  EXPECT_EQ(facts.explicit_created, 1972u);
  EXPECT_EQ(facts.explicit_not_once(), 0u) << facts.summary();
  // The program loaded the installed recorder, not the build tree's.
  std::string library = facts.x.meta.value("/tool/library"_json_pointer, std::string());
  EXPECT_EQ(fs::weakly_canonical(library), fs::weakly_canonical(prefix + "/lib/libtasklens.so"));
  EXPECT_EQ(run_command({bin, "check", exp}).status, 0);
}

}  // namespace
}  // namespace tasklens::testing
