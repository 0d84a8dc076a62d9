// parse_plain_run_args: the launcher's reading of `tasklens run`'s command line. What it accepts
// it must read as CLI11 does; everything else goes to the full CLI (false).
#include "cli/run_args.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tasklens::cli {
namespace {

// Parses `args` (after "tasklens"); *ok says whether the launcher took the command line.
RunOptions parse(std::vector<std::string> args, bool* ok) {
  args.insert(args.begin(), "tasklens");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  RunOptions o;
  *ok = parse_plain_run_args(int(argv.size()), argv.data(), &o);
  return o;
}

bool taken(std::vector<std::string> args) {
  bool ok = false;
  parse(std::move(args), &ok);
  return ok;
}

TEST(RunArgs, ReadsEveryOptionInItsPlainForm) {
  bool ok = false;
  RunOptions o = parse({"run", "-o", "dir", "-n", "4", "--buffer-mb", "16", "--overflow", "drop",
                        "--mode", "profile", "--counters", "task-clock,page-faults", "-q",
                        "--force", "--", "./app", "-n", "3"},
                       &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(o.output, "dir");
  EXPECT_EQ(o.threads, 4);
  EXPECT_EQ(o.buffer_mb, 16);
  EXPECT_EQ(o.overflow, "drop");
  EXPECT_EQ(o.mode, "profile");
  EXPECT_EQ(o.counters, "task-clock,page-faults");
  EXPECT_TRUE(o.quiet);
  EXPECT_TRUE(o.force);
  EXPECT_EQ(o.command, (std::vector<std::string>{"./app", "-n", "3"}));

  o = parse({"run", "--output", "d", "--threads", "4096", "--quiet", "prog", "--", "x"}, &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(o.output, "d");
  EXPECT_EQ(o.threads, 4096);
  EXPECT_TRUE(o.quiet);
  EXPECT_FALSE(o.force);
  // The program starts at the first argument that is not an option; its own -- stays.
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog", "--", "x"}));

  o = parse({"run", "prog"}, &ok);
  ASSERT_TRUE(ok);
  EXPECT_EQ(o.output, "");
  EXPECT_EQ(o.threads, 0);
  EXPECT_EQ(o.buffer_mb, 0);
  EXPECT_FALSE(o.quiet);
  EXPECT_EQ(o.command, (std::vector<std::string>{"prog"}));
}

TEST(RunArgs, LeavesEverythingElseToTheFullCli) {
  EXPECT_FALSE(taken({"report", "dir"}));
  EXPECT_FALSE(taken({"run"}));                       // no program
  EXPECT_FALSE(taken({"run", "-n", "2", "--"}));      // no program after --
  EXPECT_FALSE(taken({"run", "--", ""}));             // an empty program name
  EXPECT_FALSE(taken({"run", "--help"}));
  EXPECT_FALSE(taken({"run", "-h", "--", "p"}));
  EXPECT_FALSE(taken({"run", "--threads=2", "p"}));   // --opt=value
  EXPECT_FALSE(taken({"run", "-n2", "p"}));
  EXPECT_FALSE(taken({"run", "-qn", "2", "p"}));      // bundled flags
  EXPECT_FALSE(taken({"run", "--thread", "2", "p"}));  // a mistake: CLI11 says which option
  EXPECT_FALSE(taken({"run", "-n", "0", "p"}));       // out of range
  EXPECT_FALSE(taken({"run", "-n", "4097", "p"}));
  EXPECT_FALSE(taken({"run", "-n", "02", "p"}));      // leading zero, sign, not a number
  EXPECT_FALSE(taken({"run", "-n", "+2", "p"}));
  EXPECT_FALSE(taken({"run", "-n", "two", "p"}));
  EXPECT_FALSE(taken({"run", "--buffer-mb", "1048577", "p"}));
  EXPECT_FALSE(taken({"run", "--overflow", "wait", "p"}));
  EXPECT_FALSE(taken({"run", "--mode", "Trace", "p"}));
  EXPECT_FALSE(taken({"run", "-o", "-x", "p"}));      // a value that looks like an option
  EXPECT_FALSE(taken({"run", "-o", "", "p"}));
  EXPECT_FALSE(taken({"run", "-o"}));                 // a value missing
  EXPECT_FALSE(taken({"run", "-o", "a", "--output", "b", "p"}));  // given twice
  EXPECT_FALSE(taken({"run", "-n", "2", "--threads", "2", "p"}));
  EXPECT_FALSE(taken({"run", "-q", "--quiet", "p"}));
  EXPECT_FALSE(taken({"run", "--force", "--force", "p"}));
}

}  // namespace
}  // namespace tasklens::cli
