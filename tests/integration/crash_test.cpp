// Runs that end badly: a crash (SIGABRT, SIGSEGV) or a stop request (SIGINT, SIGTERM) mid-run
// leaves a readable trace with everything the threads had recorded, whose metadata says how the
// run ended; after SIGKILL every chunk written before the kill is readable; a full disk (here a
// file size limit) is reported in the metadata and the summary, loses nothing already written and
// never breaks the program.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "format/stream_reader.h"
#include "integration/child_process.h"
#include "integration/recorder_runs.h"
#include "integration/trace_facts.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

// Facts every partial trace must have: readable without damage, consistent as far as it goes.
void expect_partial_but_sound(const TraceFacts& f) {
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_TRUE(f.problems.empty()) << f.summary();
  EXPECT_EQ(f.times_backwards, 0u);
  EXPECT_EQ(f.orphans, 0u);
  for (const auto& [id, t] : f.tasks) {
    if (t.implicit) continue;
    EXPECT_EQ(t.creates, 1u);
    EXPECT_LE(t.starts, 1u);
    EXPECT_LE(t.completions, t.starts);
  }
}

uint64_t started_not_completed(const TraceFacts& f) {
  uint64_t n = 0;
  for (const auto& [id, t] : f.tasks) n += !t.implicit && t.starts == 1 && t.completions == 0;
  return n;
}

class FatalSignal : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(FatalSignal, LeavesAReadableTraceThatSaysCrashed) {
  const auto& [mode, sig] = GetParam();
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_command(
      {tasklens_bin(), "run", "-n", "2", "-o", dir, "--", test_program("crash"), mode, "1000"});
  EXPECT_EQ(r.status, 128 + sig) << r.err;
  EXPECT_EQ(r.out, "phase1 tasks=1000\n");
  std::string how = "signal " + std::to_string(sig) + " (" + sigabbrev_np(sig) + ")";
  EXPECT_NE(r.err.find("tasklens: recorded crash (killed by " + how + ")"), std::string::npos)
      << r.err;

  TraceFacts f = read_trace(dir);
  expect_partial_but_sound(f);
  EXPECT_EQ(f.x.status, "crashed");
  EXPECT_EQ(f.x.meta["end_reason"], how);
  EXPECT_EQ(f.x.meta["recorder"]["events_lost"], 0);
  // Every task of both phases was created before the crash, and all of phase 1 completed: the
  // crash handler flushed what every thread held.
  EXPECT_EQ(f.explicit_created, 1020u);
  EXPECT_GE(f.explicit_completed(), 1000u);
  EXPECT_LE(f.explicit_completed(), 1019u);
  EXPECT_GE(started_not_completed(f), 1u);  // the task that crashed

  expect_check(dir, 1,
               {"note: the run ended on " + how + "; the trace holds what was flushed then",
                "explicit tasks had not completed when the run ended",
                "not sound: the run did not complete (crashed)"});
}

INSTANTIATE_TEST_SUITE_P(Crashes, FatalSignal,
                         ::testing::Values(std::make_tuple("abort", SIGABRT),
                                           std::make_tuple("segv", SIGSEGV)),
                         [](const auto& info) { return std::get<0>(info.param); });

// A profile-mode run that crashes writes no profile: the summary says why and does not send the
// user to a report that has nothing to read.
TEST(FatalSignal, AProfileModeRunSaysItsProfileIsMissing) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_command({tasklens_bin(), "run", "-n", "2", "--mode", "profile", "-o", dir,
                                 "--", test_program("crash"), "abort", "1000"});
  EXPECT_EQ(r.status, 128 + SIGABRT) << r.err;
  EXPECT_NE(r.err.find("profile            not written: the run ended by signal 6 (ABRT)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("next: tasklens report"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("next: run without --mode profile to keep the events up to the end"),
            std::string::npos)
      << r.err;
}

// Every thread of the team faults at once: the second fatal signal must not end the process
// before the first handler has flushed the trace (it did: no stream, status "running").
TEST(FatalSignal, EveryThreadFaultingAtOnceStillLeavesTheTrace) {
  for (int round = 0; round < 3; ++round) {
    std::string dir = scratch_dir() + "/exp" + std::to_string(round);
    CommandResult r = run_command({tasklens_bin(), "run", "-n", "2", "-o", dir, "--",
                                   test_program("crash"), "segv-all", "1000"});
    EXPECT_EQ(r.status, 128 + SIGSEGV) << r.err;
    TraceFacts f = read_trace(dir);
    EXPECT_EQ(f.x.status, "crashed") << round;
    EXPECT_EQ(f.x.streams.size(), 2u) << round;
    EXPECT_EQ(f.explicit_created, 1000u) << round;  // phase 1, every task flushed
    EXPECT_EQ(f.explicit_completed(), 1000u) << round;
  }
}

// The exact facts of `crash wait 1000` ended by a signal while its last task sleeps.
void expect_interrupted(const std::string& dir, int sig) {
  TraceFacts f = read_trace(dir);
  expect_partial_but_sound(f);
  EXPECT_EQ(f.x.status, "interrupted");
  EXPECT_EQ(f.x.meta["end_reason"],
            "signal " + std::to_string(sig) + " (" + sigabbrev_np(sig) + ")");
  EXPECT_EQ(f.explicit_created, 1001u);
  EXPECT_EQ(f.explicit_completed(), 1000u);
  EXPECT_EQ(started_not_completed(f), 1u);
  expect_check(dir, 1,
               {"1 explicit tasks had not completed when the run ended (1 had started)",
                "not sound: the run did not complete (interrupted)"});
}

TEST(StopSignal, SigtermToTasklensRunIsForwardedAndTheTraceFlushed) {
  std::string dir = scratch_dir() + "/exp";
  ChildProcess p({tasklens_bin(), "run", "-n", "2", "-o", dir, "--", test_program("crash"), "wait",
                  "1000"});
  ASSERT_TRUE(p.started());
  ASSERT_EQ(p.wait_for_line("ready"), "ready");
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait(), 128 + SIGTERM) << p.err();
  EXPECT_NE(p.err().find("killed by signal 15 (TERM)"), std::string::npos) << p.err();
  expect_interrupted(dir, SIGTERM);
}

TEST(StopSignal, SigintToTheProgramFlushesTheTrace) {
  std::string dir = scratch_dir() + "/exp";
  ChildProcess p({test_program("crash"), "wait", "1000"}, recorder_env(dir, 2));
  ASSERT_TRUE(p.started());
  ASSERT_EQ(p.wait_for_line("ready"), "ready");
  p.signal(SIGINT);
  EXPECT_EQ(p.wait(), 128 + SIGINT) << p.err();
  EXPECT_EQ(p.err(), "");  // the recorder prints nothing in the program
  expect_interrupted(dir, SIGINT);
}

// Complete chunks of a stream file as a reader sees them now.
std::vector<format::ChunkHeader> chunks_on_disk(const std::string& path) {
  auto r = format::StreamReader::open(path);
  return r ? (*r)->scan_headers() : std::vector<format::ChunkHeader>();
}

TEST(Sigkill, EveryChunkWrittenBeforeTheKillIsReadable) {
  std::string dir = scratch_dir() + "/exp";
  ChildProcess p({test_program("crash"), "loop", "1000"}, recorder_env(dir, 2));
  ASSERT_TRUE(p.started());
  ASSERT_EQ(p.wait_for_line("ready"), "ready");
  // Wait (for a condition, not a time) until thread 0 has written a few chunks.
  std::string stream = dir + "/thread-0000.tlt";
  std::vector<format::ChunkHeader> before;
  for (int i = 0; i < 6000 && before.size() < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    before = chunks_on_disk(stream);
  }
  ASSERT_GE(before.size(), 3u) << "the recorder wrote no chunk in a minute";
  p.signal(SIGKILL);
  EXPECT_EQ(p.wait(), 128 + SIGKILL);

  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.x.status, "running");  // nobody could say otherwise
  // The chunks seen before the kill are all read back, identical.
  std::vector<format::ChunkHeader> thread0;
  for (const auto& h : f.headers) {
    if (h.thread == 0) thread0.push_back(h);
  }
  ASSERT_GE(thread0.size(), before.size());
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(thread0[i].seq, before[i].seq);
    EXPECT_EQ(thread0[i].event_count, before[i].event_count);
    EXPECT_EQ(thread0[i].checksum, before[i].checksum);
  }
  // At worst the kill tore the chunk being written: a truncated tail, never a corrupt chunk; or
  // it came between a stream's creation and its header's write (one run in about 150 here):
  // an empty stream, "nothing of this thread was written".
  for (const auto& problem : f.problems) {
    bool torn_tail = problem.message.find(": truncated at byte") != std::string::npos;
    bool empty = problem.message.find("(0 of 32 bytes): nothing of this thread was written") !=
                 std::string::npos;
    EXPECT_TRUE(torn_tail || empty) << problem.message;
  }
  EXPECT_EQ(f.times_backwards, 0u);
  EXPECT_GE(f.explicit_created, 1000u);
  for (const auto& [id, t] : f.tasks) {
    EXPECT_LE(t.creates, 1u);
    EXPECT_LE(t.completions, 1u);
  }
  expect_check(dir, 1,
               {"lost: what the threads held in memory when the run was killed (up to one chunk",
                "not sound: the run did not complete (running)"});
}

// Runs argv with a file size limit and SIGXFSZ ignored, so that writes beyond the limit fail with
// EFBIG as on a full disk, without root. Returns the exit status; stdout/stderr in *out/*err.
int run_with_file_size_limit(const std::vector<std::string>& argv, rlim_t bytes, std::string* out,
                             std::string* err) {
  std::string tmp = scratch_dir("limited");
  std::string out_path = tmp + "/stdout", err_path = tmp + "/stderr";
  std::vector<char*> args;
  std::vector<std::string> copy = argv;
  for (auto& a : copy) args.push_back(a.data());
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(o, 1);
    dup2(e, 2);
    rlimit lim{bytes, bytes};
    setrlimit(RLIMIT_FSIZE, &lim);
    signal(SIGXFSZ, SIG_IGN);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  *out = read_file(out_path);
  *err = read_file(err_path);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

TEST(FullDisk, WriteErrorIsReportedAndWhatWasWrittenKept) {
  // The same deterministic one-thread run, first without a limit.
  Recording ref_run = record_run({example("fib"), "18"}, 1);
  ASSERT_EQ(ref_run.run.status, 0);
  TraceFacts ref = read_trace(ref_run.dir);
  ASSERT_GT(ref.events, 40000u);

  std::string dir = scratch_dir() + "/exp";
  const rlim_t limit = 64 * 1024;
  std::string out, err;
  int status = run_with_file_size_limit(
      {tasklens_bin(), "run", "-n", "1", "-o", dir, "--", example("fib"), "18"}, limit, &out,
      &err);
  EXPECT_EQ(status, 0) << err;  // the program is not disturbed
  EXPECT_NE(out.find("tasks=8360 OK"), std::string::npos) << out;
  std::string error = "writing the stream of thread 0: File too large";
  EXPECT_NE(err.find("note: write error during the run: " + error), std::string::npos) << err;

  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.x.status, "complete");
  EXPECT_EQ(f.x.meta["recorder"]["write_error"], error);
  uint64_t lost = f.x.meta["recorder"]["events_lost"];
  EXPECT_GT(lost, 0u);
  EXPECT_EQ(f.x.meta["recorder"]["disk_full"], true);
  EXPECT_NE(err.find("events lost        " + std::to_string(lost) + " (disk full: "),
            std::string::npos)
      << err;
  // The chunks written before the failure are intact and nothing is written after it: the
  // stream is a clean prefix, the rest is counted as lost.
  EXPECT_LE(fs::file_size(dir + "/thread-0000.tlt"), limit);
  EXPECT_TRUE(f.problems.empty()) << f.summary();
  EXPECT_GT(f.events, 0u);
  EXPECT_EQ(f.events + lost, ref.events);
  EXPECT_EQ(f.x.meta["recorder"]["events_written"], f.events);

  expect_check(dir, 1,
               {"note: write error during the run: " + error, "not sound: data was lost"});
}

}  // namespace
}  // namespace tasklens::testing
