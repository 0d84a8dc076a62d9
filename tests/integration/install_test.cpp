// `cmake --install` gives a working tool: the installed tasklens finds the installed recorder
// (bin/ and lib/ side by side, not the build tree's) and records a real program, both through
// the launcher (bin/tasklens) and through the full CLI it hands other command lines to
// (libexec/tasklens/tasklens-cli).
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
  ASSERT_TRUE(fs::exists(prefix + "/libexec/tasklens/tasklens-cli"));

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

  // --threads=2 is not a form the launcher reads: the full CLI runs the program, with the
  // installed recorder found from the launcher's place, and prints the summary.
  std::string exp2 = scratch_dir("install") + "/exp2";
  CommandResult full =
      run_command({bin, "run", "--threads=2", "-o", exp2, "--", example("fib"), "15"});
  ASSERT_EQ(full.status, 0) << full.err;
  TraceFacts facts2 = read_trace(exp2);
  ASSERT_TRUE(facts2.error.empty()) << facts2.error;
  EXPECT_EQ(facts2.explicit_created, 1972u);
  library = facts2.x.meta.value("/tool/library"_json_pointer, std::string());
  EXPECT_EQ(fs::weakly_canonical(library), fs::weakly_canonical(prefix + "/lib/libtasklens.so"));
  // The launcher's own runs hand the summary to the full CLI: the same lines.
  EXPECT_NE(full.err.find("explicit tasks     1972"), std::string::npos) << full.err;
  std::string exp3 = scratch_dir("install") + "/exp3";
  CommandResult own = run_command({bin, "run", "-n", "2", "-o", exp3, "--", example("fib"), "15"});
  ASSERT_EQ(own.status, 0) << own.err;
  EXPECT_NE(own.err.find("explicit tasks     1972"), std::string::npos) << own.err;
  EXPECT_NE(own.err.find("next: tasklens report " + exp3), std::string::npos) << own.err;
}

}  // namespace
}  // namespace tasklens::testing
