// The overflow policies with a tiny pool (1 MiB: 8 chunks). To make the writer fall behind for
// sure, without timing, the writer waits on a named pipe (TASKLENS_TEST_WRITER_GATE) that nobody
// opens while the program's first fib runs: the pool fills, and with policy "drop" the events
// that find no chunk are dropped and counted. Then the test opens the gate, waits until the
// writer has written the pool's chunks, and lets the program run its second fib, whose first
// chunk carries the `lost` marker.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "format/chunk.h"
#include "format/kinds.h"
#include "format/stream_reader.h"
#include "integration/child_process.h"
#include "integration/recorder_runs.h"
#include "integration/trace_facts.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;
using format::Kind;

const std::vector<std::string> kProgram = {"22", "12"};  // 57312 + 286 tasks

// Events of a run that are the program's, not the recorder's own markers.
uint64_t program_events(const TraceFacts& f) {
  return f.events - f.count(Kind::kLost) - f.count(Kind::kToolStall);
}

std::vector<std::string> run_args(const std::string& dir, const std::vector<std::string>& opts) {
  std::vector<std::string> argv = {tasklens_bin(), "run", "-n", "1", "-o", dir};
  argv.insert(argv.end(), opts.begin(), opts.end());
  argv.push_back("--");
  argv.push_back(test_program("fib_pause"));
  argv.insert(argv.end(), kProgram.begin(), kProgram.end());
  return argv;
}

// A one-thread run with the default pool: the events a run of the program has.
uint64_t reference_events() {
  std::string dir = scratch_dir() + "/ref";
  ChildProcess p(run_args(dir, {"-q"}));
  p.write_input("go\n");
  EXPECT_EQ(p.wait(), 0) << p.err();
  TraceFacts f = read_trace(dir);
  EXPECT_EQ(f.x.meta["recorder"]["events_lost"], 0);
  return program_events(f);
}

TEST(Overflow, DropPolicyCountsEveryLostEventEverywhere) {
  uint64_t reference = reference_events();
  ASSERT_GT(reference, 250000u);

  std::string dir = scratch_dir() + "/exp";
  std::string gate = scratch_dir("gate") + "/gate";
  ASSERT_EQ(mkfifo(gate.c_str(), 0644), 0);
  std::vector<std::string> argv = run_args(dir, {"--buffer-mb", "1", "--overflow", "drop"});
  ChildProcess p(argv, {"TASKLENS_TEST_WRITER_GATE=" + gate});
  ASSERT_TRUE(p.started());
  // The first fib ran while the writer waited at the gate.
  std::string first = p.wait_for_line("first");
  ASSERT_NE(first.find("tasks=57312"), std::string::npos) << first;
  std::ifstream meta_in(dir + "/experiment.json");
  auto meta = nlohmann::json::parse(meta_in);
  const size_t pool_chunks = meta["recorder"]["buffer_bytes"].get<size_t>() /
                             meta["recorder"]["chunk_bytes"].get<size_t>();
  ASSERT_EQ(pool_chunks, 8u);
  close(open(gate.c_str(), O_WRONLY));  // opens the gate
  // Once the writer has written the pool's chunks (and so given at least all but the last
  // back), the second fib finds free chunks again.
  std::string stream = dir + "/thread-0000.tlt";
  size_t written = 0;
  for (int i = 0; i < 6000 && written < pool_chunks; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    auto r = format::StreamReader::open(stream);
    written = r ? (*r)->scan_headers().size() : 0;
  }
  ASSERT_GE(written, pool_chunks) << "the writer wrote nothing in a minute";
  p.write_input("go\n");
  EXPECT_NE(p.wait_for_line("second").find(" OK"), std::string::npos);
  int status = p.wait();
  ASSERT_EQ(status, 0) << p.err();

  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.x.status, "complete");
  EXPECT_EQ(f.x.meta["recorder"]["overflow"], "drop");
  uint64_t lost = f.x.meta["recorder"]["events_lost"];
  EXPECT_GT(lost, 100000u);  // 8 chunks of 3276 events cannot hold the first fib
  // Counted alike in the metadata, the markers and the chunk headers...
  EXPECT_EQ(f.lost_marked, lost);
  uint64_t lost_before = 0;
  for (const auto& h : f.headers) lost_before += h.lost_before;
  EXPECT_EQ(lost_before, lost);
  // ...and exactly the events the program had.
  EXPECT_EQ(program_events(f) + lost, reference);
  EXPECT_EQ(f.count(Kind::kToolStall), 0u);  // "drop" never waits
  // The summary says so.
  EXPECT_NE(p.err().find("events lost        " + std::to_string(lost) +
                         " (the recorder's buffer overflowed"),
            std::string::npos)
      << p.err();
  // And check reports it.
  expect_check(dir, 1,
               {"note: " + std::to_string(lost) + " events were lost by the recorder",
                "the recorder dropped " + std::to_string(lost) + " events before chunk",
                "not sound: data was lost"});
}

TEST(Overflow, BlockPolicyLosesNothingWithATinyPool) {
  uint64_t reference = reference_events();
  std::string dir = scratch_dir() + "/exp";
  ChildProcess p(run_args(dir, {"--buffer-mb", "1"}));
  p.write_input("go\n");
  ASSERT_EQ(p.wait(), 0) << p.err();
  EXPECT_NE(p.err().find("events lost        0\n"), std::string::npos) << p.err();
  TraceFacts f = read_trace(dir);
  ASSERT_TRUE(f.error.empty()) << f.error;
  EXPECT_EQ(f.x.meta["recorder"]["overflow"], "block");
  EXPECT_EQ(f.x.meta["recorder"]["buffer_bytes"], 1u << 20);
  EXPECT_EQ(f.x.meta["recorder"]["events_lost"], 0);
  EXPECT_EQ(f.count(Kind::kLost), 0u);
  EXPECT_TRUE(f.problems.empty()) << f.summary();
  EXPECT_EQ(program_events(f), reference);
  // Waits for the writer, if any, are bracketed by tool_stall begin/end pairs.
  EXPECT_EQ(f.count(Kind::kToolStall, 1), f.count(Kind::kToolStall, 2));
  expect_check(dir, 0, {"sound: nothing lost"});
}

}  // namespace
}  // namespace tasklens::testing
