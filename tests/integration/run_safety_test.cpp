// `tasklens run` and the recorder in hostile or unusual surroundings (issue 15): the output
// directory (a planted symbolic link, a directory holding the user's files, --force, two runs
// into one directory at once), processes started by the program (each recorded apart, never
// mixed), the user's own OMP_TOOL settings, a program without OpenMP, a mistyped option, a
// full disk (tmpfs, as root), tasklens killed by SIGKILL, and a program built with
// AddressSanitizer whose leak check must find nothing of the recorder's.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "integration/child_process.h"
#include "integration/recorder_runs.h"
#include "integration/trace_facts.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

nlohmann::json metadata(const std::string& dir) {
  std::ifstream in(dir + "/experiment.json");
  return nlohmann::json::parse(in, nullptr, false);
}

TEST(RunOutput, SymbolicLinkIsRefusedAndNotFollowed) {
  std::string target = scratch_dir() + "/target";
  fs::create_directories(target);
  std::string link = scratch_dir() + "/exp";
  fs::create_directory_symlink(target, link);
  CommandResult r = run_tasklens({"run", "-o", link, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");  // the program did not run
  EXPECT_NE(r.err.find(link + " is a symbolic link"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_empty(target));
  // The recorder refuses it too when loaded without `tasklens run`.
  CommandResult raw = run_command({example("fib"), "5"}, recorder_env(link, 2));
  EXPECT_EQ(raw.status, 0);
  EXPECT_NE(raw.err.find("is a symbolic link"), std::string::npos) << raw.err;
  EXPECT_TRUE(fs::is_empty(target));
}

TEST(RunOutput, DirectoryHoldingOtherFilesIsRefusedEvenWithForce) {
  std::string dir = scratch_dir() + "/exp";
  fs::create_directories(dir);
  write_file(dir + "/notes.txt", "mine");
  for (bool force : {false, true}) {
    std::vector<std::string> args = {"run", "-o", dir, "--", example("fib"), "5"};
    if (force) args.insert(args.begin() + 1, "--force");
    CommandResult r = run_tasklens(args);
    EXPECT_EQ(r.status, 125);
    EXPECT_NE(r.err.find("it holds notes.txt, which tasklens did not write"), std::string::npos)
        << r.err;
  }
  EXPECT_EQ(read_file(dir + "/notes.txt"), "mine");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST(RunOutput, ForceReplacesAnExperimentAndNothingElse) {
  std::string dir = scratch_dir() + "/exp";
  ASSERT_EQ(run_tasklens({"run", "-q", "-n", "2", "-o", dir, "--", example("fib"), "12"}).status,
            0);
  ASSERT_EQ(metadata(dir)["explicit_tasks"], 464);
  CommandResult r =
      run_tasklens({"run", "-q", "--force", "-n", "1", "-o", dir, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 0) << r.err;
  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.explicit_created, 14u);  // the new run's tasks only
  EXPECT_EQ(f.x.streams.size(), 1u);   // the old run's second stream is gone
}

// A profile-mode experiment (profile.json, no streams) is tasklens's own: --force replaces it
// with a trace, which then holds no profile.json.
TEST(RunOutput, ForceReplacesAProfileModeExperiment) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult p = run_tasklens(
      {"run", "-q", "--mode", "profile", "-n", "2", "-o", dir, "--", example("fib"), "12"});
  ASSERT_EQ(p.status, 0) << p.err;
  ASSERT_TRUE(fs::exists(dir + "/profile.json"));
  CommandResult r =
      run_tasklens({"run", "-q", "--force", "-n", "1", "-o", dir, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/profile.json"));
  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.explicit_created, 14u);
}

// Two runs into one directory started at the same instant: exactly one records, the other
// refuses (the directory is locked, or already holds the first one's experiment).
TEST(RunOutput, TwoRunsIntoOneDirectoryNeverBothRecord) {
  for (int round = 0; round < 4; ++round) {
    std::string dir = scratch_dir() + "/exp";
    std::vector<std::string> argv = {tasklens_bin(), "run", "-q", "-n",           "2",
                                     "-o",           dir,   "--", example("fib"), "15"};
    ChildProcess a(argv), b(argv);
    int sa = a.wait(), sb = b.wait();
    EXPECT_EQ(std::min(sa, sb), 0) << a.err() << b.err();
    EXPECT_EQ(std::max(sa, sb), 125) << a.err() << b.err();
    const std::string& refused = sa == 125 ? a.err() : b.err();
    EXPECT_TRUE(refused.find("in use by another recording") != std::string::npos ||
                refused.find("already holds an experiment") != std::string::npos)
        << refused;
    TraceFacts f = read_trace(dir);
    ASSERT_TRUE(f.error.empty()) << f.error;
    EXPECT_EQ(f.explicit_created, 1972u);  // one program's tasks, not two
    EXPECT_TRUE(f.problems.empty()) << f.summary();
  }
}

// A program that starts another OpenMP program: each process writes its own experiment, the
// child's in DIR/pid-N, listed in the parent's metadata and the summary; nothing is mixed.
class Descendant : public ::testing::TestWithParam<std::string> {};

TEST_P(Descendant, IsRecordedInAnExperimentOfItsOwn) {
  const std::string& mode = GetParam();
  std::string dir = scratch_dir() + "/exp";
  CommandResult r =
      run_tasklens({"run", "-n", "2", "-o", dir, "--", test_program("spawn_child"), mode, "50"});
  ASSERT_EQ(r.status, 0) << r.err;
  long long top_pid = printed_value(r.out.substr(r.out.find("top pid=")), "pid");
  long long leaf_pid = printed_value(r.out.substr(r.out.find("leaf pid=")), "pid");
  // The first process to run OpenMP writes at the top: the leaf, in mode "first".
  long long first = mode == "first" ? leaf_pid : top_pid;
  long long second = mode == "first" ? top_pid : leaf_pid;
  std::string sub = dir + "/pid-" + std::to_string(second);

  nlohmann::json top = metadata(dir);
  EXPECT_EQ(top["program"]["pid"], first);
  // The top process lists the others it saw when it ended: in mode "first" it ended before the
  // other began (only the summary of `tasklens run` lists it then).
  ASSERT_EQ(top["processes"].size(), mode == "first" ? 0u : 1u) << top["processes"].dump();
  if (mode != "first") {
    EXPECT_EQ(top["processes"][0]["pid"], second);
    EXPECT_EQ(top["processes"][0]["dir"], "pid-" + std::to_string(second));
  }
  nlohmann::json child = metadata(sub);
  EXPECT_EQ(child["program"]["pid"], second);
  EXPECT_EQ(child["parent"]["top_pid"], first);
  EXPECT_EQ(child["status"], "complete");
  EXPECT_NE(r.err.find("processes started by the program, each recorded in its own experiment"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(sub + ": pid " + std::to_string(second)), std::string::npos) << r.err;

  for (const std::string& d : {dir, sub}) {
    TraceFacts f = read_trace(d);
    ASSERT_TRUE(f.error.empty()) << f.error;
    EXPECT_EQ(f.explicit_created, 50u) << d;  // one process's tasks each
    EXPECT_EQ(f.explicit_completed(), 50u) << d;
    EXPECT_EQ(f.x.streams.size(), 2u) << d;
    EXPECT_TRUE(f.problems.empty()) << f.summary();
  }
  expect_check(sub, 0, {"sound: nothing lost"});
  // Readers of the top experiment are told where the other process is.
  expect_check(dir, 0,
               {"1 other processes of this run were recorded in experiments of their "
                "own, not in this one: " +
                sub});
}

INSTANTIATE_TEST_SUITE_P(Modes, Descendant, ::testing::Values("fork", "system", "first"),
                         [](const auto& info) { return info.param; });

// A program that closes the descriptors it inherited (the directory's, passed by `tasklens
// run`) is still recorded at the top: the run holds the lock for its whole process tree.
TEST(RunOutput, ProgramClosingInheritedDescriptorsIsRecorded) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_tasklens(
      {"run", "-q", "-n", "2", "-o", dir, "--", test_program("spawn_child"), "closefds", "30"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.explicit_created, 30u);
  EXPECT_TRUE(f.x.meta["processes"].empty());
}

// Without `tasklens run`, a second program pointed at a finished experiment is not its
// descendant: it records nothing there and says so.
TEST(RunOutput, UnrelatedRawRunIntoAnExperimentIsRefused) {
  std::string dir = scratch_dir() + "/exp";
  ASSERT_EQ(run_tasklens({"run", "-q", "-n", "2", "-o", dir, "--", example("fib"), "10"}).status,
            0);
  CommandResult raw = run_command({example("fib"), "5"}, recorder_env(dir, 2));
  EXPECT_EQ(raw.status, 0);
  EXPECT_NE(raw.err.find(dir + " already holds an experiment"), std::string::npos) << raw.err;
  EXPECT_TRUE(metadata(dir)["processes"].empty());
  EXPECT_EQ(read_trace(dir).explicit_created, 176u);
}

TEST(RunEnvironment, OmpToolDisabledIsHonouredAndSaid) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r =
      run_tasklens({"run", "-o", dir, "--", example("fib"), "5"}, {"OMP_TOOL=disabled"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("OMP_TOOL=disabled is set in the environment"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir));
}

TEST(RunEnvironment, UserToolLibrariesAreKeptAndSaid) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_tasklens({"run", "-n", "2", "-o", dir, "--", example("fib"), "10"},
                                 {"OMP_TOOL_LIBRARIES=/nonexistent/libmytool.so"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("OMP_TOOL_LIBRARIES=/nonexistent/libmytool.so is set: the recorder goes "
                       "first"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(read_trace(dir).explicit_created, 176u);
}

TEST(RunCommandLine, MistypedOptionGetsASuggestion) {
  CommandResult r = run_tasklens({"run", "--thread", "4", "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "tasklens run: unknown option --thread; did you mean --threads?\n");
}

// A real full disk: a 512 KiB tmpfs (mounting needs root; skipped otherwise). The run ends
// normally, says "disk full", and what was written is a clean prefix that `check` reads.
TEST(DiskFull, TmpfsFullIsSaidAndTheWrittenPrefixIsClean) {
  std::string mnt = scratch_dir() + "/mnt";
  fs::create_directories(mnt);
  if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=512k") != 0) {
    GTEST_SKIP() << "cannot mount a tmpfs here (needs root): " << std::strerror(errno);
  }
  std::string dir = mnt + "/exp";
  CommandResult r = run_tasklens({"run", "-n", "2", "-o", dir, "--", example("fib"), "22"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("tasks=57312 OK"), std::string::npos);
  EXPECT_NE(r.err.find("(disk full: the trace holds every event written before the disk filled"),
            std::string::npos)
      << r.err;
  TraceFacts f = read_trace(dir);
  umount2(mnt.c_str(), MNT_DETACH);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.x.status, "complete");  // the final metadata was written (the reserve)
  EXPECT_EQ(f.x.meta["recorder"]["disk_full"], true);
  EXPECT_NE(f.x.meta["recorder"]["write_error"].get<std::string>().find("No space left on device"),
            std::string::npos);
  EXPECT_TRUE(f.problems.empty()) << f.summary();  // whole chunks only, no gap
  EXPECT_GT(f.events, 0u);
  EXPECT_GT(f.x.meta["recorder"]["events_lost"].get<uint64_t>(), 0u);
  EXPECT_EQ(f.x.meta["recorder"]["events_written"], f.events);
}

// SIGKILL of `tasklens run`: the program gets SIGTERM (PR_SET_PDEATHSIG), the recorder flushes,
// and the experiment says "interrupted"; the program does not go on recording.
TEST(RunKilled, SigkillOfTasklensEndsTheProgramWithItsTrace) {
  std::string dir = scratch_dir() + "/exp";
  ChildProcess p(
      {tasklens_bin(), "run", "-n", "2", "-o", dir, "--", test_program("crash"), "wait", "1000"});
  ASSERT_TRUE(p.started());
  ASSERT_EQ(p.wait_for_line("ready"), "ready");
  p.signal(SIGKILL);
  EXPECT_EQ(p.wait(), 128 + SIGKILL);
  std::string status;
  for (int i = 0; i < 1000 && status != "interrupted"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    nlohmann::json m = metadata(dir);
    if (m.is_object()) status = m.value("status", "");
  }
  EXPECT_EQ(status, "interrupted");
  nlohmann::json m = metadata(dir);
  EXPECT_EQ(m["end_reason"], "signal 15 (TERM)");
  EXPECT_EQ(read_trace(dir).explicit_created, 1001u);
}

// A program built with AddressSanitizer exits 1 when its leak check finds a leak: the recorder
// loaded into it must leave none (the user API's per-thread caches are freed with the threads).
TEST(RunSanitized, AddressSanitizerProgramFindsNoLeakOfTheRecorder) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r =
      run_tasklens({"run", "-q", "-n", "4", "-o", dir, "--", test_program("api_threads_asan")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "api_threads regions=60 OK\n");
  EXPECT_EQ(r.err.find("LeakSanitizer"), std::string::npos) << r.err;
  EXPECT_EQ(read_trace(dir).count(format::Kind::kUserRegion), 120u);
}

}  // namespace
}  // namespace tasklens::testing
