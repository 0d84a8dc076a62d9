// run_child and resolve_program: how `tasklens run` finds and starts the program, passes it the
// recorder's environment and reports how it ended.
#include "cli/launcher.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "support/trace_builder.h"

namespace tasklens::cli {
namespace {

std::string sh() {
  std::string path, error;
  EXPECT_TRUE(resolve_program("sh", &path, &error)) << error;
  return path;
}

TEST(Launcher, ResolvesANameOnPathAndKeepsAPathAsIs) {
  std::string path, error;
  ASSERT_TRUE(resolve_program("sh", &path, &error)) << error;
  EXPECT_EQ(path.front(), '/');
  EXPECT_NE(path.find("/sh"), std::string::npos);
  ASSERT_TRUE(resolve_program(path, &path, &error)) << error;
}

TEST(Launcher, NamesWhyAProgramCannotRun) {
  std::string dir = testing::scratch_dir("launch");
  std::string path, error;
  EXPECT_FALSE(resolve_program(dir + "/missing", &path, &error));
  EXPECT_NE(error.find("No such file"), std::string::npos) << error;
  std::string plain = dir + "/plain";
  std::ofstream(plain) << "not a program\n";
  ::chmod(plain.c_str(), 0644);
  error.clear();
  EXPECT_FALSE(resolve_program(plain, &path, &error));
  EXPECT_NE(error.find("not executable"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(resolve_program("tasklens-no-such-program-on-path", &path, &error));
  EXPECT_FALSE(error.empty());
}

TEST(Launcher, ReportsTheExitCode) {
  ChildExit e = run_child({sh(), "-c", "exit 3"}, {});
  ASSERT_TRUE(e.started) << e.error;
  EXPECT_FALSE(e.signaled);
  EXPECT_EQ(e.code, 3);
  EXPECT_GT(e.wall_ns, 0u);
}

TEST(Launcher, AddedVariablesReplaceThoseOfTheSameName) {
  ::setenv("TASKLENS_LAUNCHER_TEST", "parent", 1);
  ChildExit e = run_child({sh(), "-c", "test \"$TASKLENS_LAUNCHER_TEST\" = child && test \"$HOME\""},
                          {"TASKLENS_LAUNCHER_TEST=child"});
  ::unsetenv("TASKLENS_LAUNCHER_TEST");
  ASSERT_TRUE(e.started) << e.error;
  EXPECT_EQ(e.code, 0) << "the child saw the parent's value, or lost the rest of the environment";
}

TEST(Launcher, ReportsTheSignalThatEndedTheChild) {
  ChildExit e = run_child({sh(), "-c", "kill -TERM $$"}, {});
  ASSERT_TRUE(e.started) << e.error;
  EXPECT_TRUE(e.signaled);
  EXPECT_EQ(e.code, 15);
}

}  // namespace
}  // namespace tasklens::cli
