// Bad command lines, and programs `tasklens run` cannot run: a clear line and an exit status
// that says whose failure it is (127/126: the program cannot be found or run, as a shell says;
// 125: tasklens's own; 2: a usage error of another command; docs/ROBUSTNESS.md).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "integration/trace_facts.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

TEST(RunBadInput, MissingProgramExits127) {
  std::string missing = scratch_dir() + "/no-such-app";
  CommandResult r = run_tasklens({"run", "-o", scratch_dir() + "/exp", "--", missing});
  EXPECT_EQ(r.status, 127);
  EXPECT_EQ(r.err, "tasklens run: " + missing + ": No such file or directory\n");
}

TEST(RunBadInput, CommandNotOnPathExits127) {
  CommandResult r =
      run_tasklens({"run", "-o", scratch_dir() + "/exp", "--", "no-such-command-xyz"});
  EXPECT_EQ(r.status, 127);
  EXPECT_EQ(r.err,
            "tasklens run: no-such-command-xyz: command not found (not a path, and not on "
            "PATH)\n");
}

TEST(RunBadInput, NonExecutableExits126) {
  std::string path = scratch_dir() + "/app.c";
  write_file(path, "int main(void) { return 0; }\n");
  chmod(path.c_str(), 0644);
  CommandResult r = run_tasklens({"run", "-o", scratch_dir() + "/exp", "--", path});
  EXPECT_EQ(r.status, 126);
  EXPECT_EQ(r.err.rfind("tasklens run: " + path + ": not executable", 0), 0u) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u);
}

TEST(RunBadInput, DirectoryAsProgramExits126) {
  std::string dir = scratch_dir();
  CommandResult r = run_tasklens({"run", "-o", scratch_dir() + "/exp", "--", dir});
  EXPECT_EQ(r.status, 126);
  EXPECT_EQ(r.err, "tasklens run: " + dir + ": is a directory\n");
}

// The output folder cannot be made (its parent is a file: unwritable even for root).
TEST(RunBadInput, UnwritableOutputFolderExits125AndNamesIt) {
  std::string file = scratch_dir() + "/a-file";
  write_file(file, "x");
  std::string out = file + "/exp";
  CommandResult r = run_tasklens({"run", "-o", out, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");  // the program did not run
  EXPECT_EQ(r.err.rfind("tasklens run: cannot write the output directory " + out + ": ", 0), 0u)
      << r.err;
  EXPECT_EQ(count_lines(r.err), 1u);
}

TEST(RunBadInput, OutputFolderHoldingAnExperimentIsNotOverwritten) {
  std::string dir = scratch_dir() + "/exp";
  ASSERT_EQ(run_tasklens({"run", "-q", "-o", dir, "--", example("fib"), "5"}).status, 0);
  CommandResult r = run_tasklens({"run", "-o", dir, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "tasklens run: " + dir +
                       " already holds an experiment; choose another -o, or --force to replace "
                       "it\n");
}

TEST(RunBadInput, ProgramWithoutOpenMPRecordsNothingAndSaysWhy) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_tasklens({"run", "-o", dir, "--", "/bin/true"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err,
            "tasklens run: nothing was recorded from /bin/true: no OpenMP runtime was "
            "loaded (the program does not link one, or loads one in a way tasklens cannot "
            "see); nothing was left behind\n");
  EXPECT_FALSE(std::filesystem::exists(dir));
}

// A bad option of `run` is tasklens's failure (125), never a status the program could exit with.
TEST(RunBadInput, BadOptionExits125) {
  for (std::vector<std::string> args : {std::vector<std::string>{"run", "--bogus", "--", "true"},
                                        {"run", "-n", "abc", "--", "true"}}) {
    CommandResult r = run_tasklens(args);
    EXPECT_EQ(r.status, 125) << args[1] << "\n" << r.err;
    EXPECT_NE(r.err.find("Run with --help"), std::string::npos) << r.err;
  }
}

// Every other command answers a bad command line with the usage status 2.
TEST(CommandLine, BadOptionOfAnyOtherCommandExits2) {
  for (const char* command : {"dump", "check", "report", "compare", "export"}) {
    CommandResult r = run_tasklens({command, "--bogus"});
    EXPECT_EQ(r.status, 2) << command << "\n" << r.err;
  }
  EXPECT_EQ(run_tasklens({"--help"}).status, 0);
  EXPECT_EQ(run_tasklens({"report", "--help"}).status, 0);
}

// A thread count or cut-off depth of 0 is a usage error, not an empty what-if table.
TEST(CommandLine, WhatIfCountsStartAtOne) {
  const std::string fixture = source_dir() + "/tests/format/fixtures/v1-two-threads";
  for (const char* option : {"--what-if-threads", "--what-if-cutoffs"}) {
    CommandResult r = run_tasklens({"report", fixture, option, "2,0"});
    EXPECT_EQ(r.status, 2) << option << "\n" << r.out;
    EXPECT_EQ(r.err.rfind(std::string(option) + ": Value 0 not in range 1 to 4294967295", 0), 0u)
        << r.err;
    EXPECT_EQ(r.out, "");
  }
}

// A misspelt counter name is refused before the program runs (it ran the whole program and
// counted nothing before); a hardware counter this machine lacks is said and left out instead.
TEST(RunBadInput, UnknownCounterIsRefusedBeforeTheProgramRuns) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_tasklens(
      {"run", "--counters", "task-clock,task_clock", "-o", dir, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");  // fib prints a line when it runs
  EXPECT_EQ(r.err.rfind("--counters: unknown counter 'task_clock' (known: task-clock, "
                        "page-faults, context-switches, cpu-migrations, instructions, cycles, ",
                        0),
            0u)
      << r.err;
  EXPECT_FALSE(fs::exists(dir));
}

TEST(RunBadInput, ProgramStatusIsForwarded) {
  CommandResult r = run_tasklens(
      {"run", "-q", "-o", scratch_dir() + "/exp", "--", example("fib"), "not-a-number"});
  EXPECT_EQ(r.status, 2);  // fib's usage error
}

}  // namespace
}  // namespace tasklens::testing
