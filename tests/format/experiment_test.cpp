// open_experiment: the errors for what is not a readable experiment (each a distinct one-line
// message naming the file), the clock that turns ticks into ns, and the warnings about how a run
// ended.
#include "format/experiment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "format/chunk_builder.h"
#include "format/json_in.h"
#include "format/stat.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::format {
namespace {

namespace fs = std::filesystem;
using testing::scratch_dir;
using testing::TraceBuilder;
using testing::write_file;

// A small valid experiment: the initial task on one thread.
std::string small_experiment(const nlohmann::json& meta = nlohmann::json::object()) {
  TraceBuilder t;
  t.thread_begin(0, 0, 1).initial_task(0, 10, make_id(0, 1)).thread_end(0, 100);
  t.writer().meta() = meta;
  return t.write();
}

// The "clock" member of experiment.json.
nlohmann::json clock_meta(const char* source, uint64_t start_ticks, uint64_t start_ns,
                          uint64_t end_ticks, uint64_t end_ns, bool end_is_final) {
  return {{"source", source},
          {"start", {{"ticks", start_ticks}, {"ns", start_ns}}},
          {"end", {{"ticks", end_ticks}, {"ns", end_ns}}},
          {"end_is_final", end_is_final}};
}

std::string open_error(const std::string& dir) {
  auto x = open_experiment(dir);
  EXPECT_FALSE(x.ok());
  return x.ok() ? std::string() : x.error().message;
}

TEST(OpenExperiment, MissingDirectory) {
  std::string dir = scratch_dir() + "/no-such-run";
  EXPECT_EQ(open_error(dir), dir + ": no such file or directory");
}

TEST(OpenExperiment, FileInsteadOfDirectory) {
  std::string path = scratch_dir() + "/file";
  write_file(path, "hello\n");
  EXPECT_EQ(open_error(path), path +
                                  ": not a directory (tasklens reads the experiment directory "
                                  "that `tasklens run` wrote)");
}

TEST(OpenExperiment, DirectoryWithoutMetadata) {
  std::string dir = scratch_dir();
  EXPECT_EQ(open_error(dir), dir + ": not a tasklens experiment (no experiment.json)");
}

TEST(OpenExperiment, InvalidJson) {
  std::string dir = scratch_dir();
  write_file(dir + "/experiment.json", "{\"format\": \"tasklens-experiment\", ");
  EXPECT_EQ(open_error(dir), dir + "/experiment.json: corrupt metadata (not valid JSON)");
}

TEST(OpenExperiment, JsonThatIsNotAnObject) {
  std::string dir = scratch_dir();
  write_file(dir + "/experiment.json", "[1, 2, 3]\n");
  EXPECT_EQ(open_error(dir), dir + "/experiment.json: corrupt metadata (not valid JSON)");
}

// A damaged or hostile experiment.json nested 10^6 deep (copying the value overflowed the stack).
TEST(OpenExperiment, JsonNestedTooDeepIsRefused) {
  std::string dir = scratch_dir();
  size_t n = 1'000'000;
  write_file(dir + "/experiment.json", "{\"format\": \"tasklens-experiment\", \"x\": " +
                                           std::string(n, '[') + std::string(n, ']') + "}");
  EXPECT_EQ(open_error(dir),
            dir + "/experiment.json: corrupt metadata (nested deeper than 100 levels)");
}

TEST(JsonDepth, CountsNestingOutsideStrings) {
  EXPECT_EQ(format::json_depth(R"({"a": [1, {"b": "[[[{"}], "c": "\"["})"), 3u);
  EXPECT_EQ(format::json_depth("[[[[[]]]]]", 3), 4u);  // stops counting past the limit
  EXPECT_EQ(format::json_depth("17"), 0u);
}

// The default limit (100) for the run's own files; a caller may allow more (a multi-process
// report's parts nest two levels per profile tree level).
TEST(JsonDepth, ParseRefusesDeeperThanItsLimit) {
  const std::string deep = std::string(150, '[') + std::string(150, ']');
  std::istringstream a(deep), b(deep);
  auto refused = format::parse_json(a);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "nested deeper than 100 levels");
  auto taken = format::parse_json(b, 200);
  ASSERT_TRUE(taken);
  EXPECT_TRUE(taken->is_array());
}

TEST(OpenExperiment, FormatMarkerMissing) {
  std::string dir = scratch_dir();
  write_file(dir + "/experiment.json", "{\"format_version\": 1}\n");
  EXPECT_EQ(open_error(dir),
            dir + "/experiment.json: not a tasklens experiment (no \"format\" marker)");
}

TEST(OpenExperiment, OlderNewerAndForeignAreThreeDistinctErrors) {
  std::string older = small_experiment({{"format_version", kOldestReadVersion - 1}});
  std::string newer = small_experiment({{"format_version", kFormatVersion + 1}});
  std::string foreign = small_experiment({{"format", "something-else"}});
  auto reads = [](uint64_t v) {
    return "(format version " + std::to_string(v) + "; this tasklens reads versions " +
           std::to_string(kOldestReadVersion) + " to " + std::to_string(kFormatVersion) + ")";
  };
  EXPECT_EQ(open_error(older), older + "/experiment.json: written by an older tasklens " +
                                   reads(kOldestReadVersion - 1));
  EXPECT_EQ(open_error(newer),
            newer + "/experiment.json: written by a newer tasklens " + reads(kFormatVersion + 1));
  EXPECT_EQ(open_error(foreign),
            foreign + "/experiment.json: not a tasklens experiment (no \"format\" marker)");
}

TEST(OpenExperiment, ReadsStreamsStringsAndProgramName) {
  TraceBuilder t;
  t.initial_task(0, 10, make_id(0, 1));
  t.implicit_begin(2, 20, make_id(2, 1), make_id(0, 2), 3, 2);
  t.implicit_begin(1, 20, make_id(1, 1), make_id(0, 2), 3, 1);
  t.user_param(0, 30, "depth", -3).user_region(0, 40, Endpoint::kBegin, "phase");
  t.writer().meta()["program"] = {{"path", "/opt/app/bin/solver"}, {"args", {"solver"}}};
  std::string dir = t.write();
  write_file(dir + "/notes.txt", "not a stream\n");
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok()) << x.error().message;
  EXPECT_EQ(x->status, "complete");
  ASSERT_EQ(x->streams.size(), 3u);
  EXPECT_EQ(fs::path(x->streams[0]).filename(), "thread-0000.tlt");
  EXPECT_EQ(fs::path(x->streams[2]).filename(), "thread-0002.tlt");
  EXPECT_EQ(x->string(1), "depth");
  EXPECT_EQ(x->string(2), "phase");
  EXPECT_EQ(x->string(3), "?");
  EXPECT_EQ(x->string(0), "?");
  EXPECT_EQ(x->program_name(), "solver");
  EXPECT_TRUE(x->warnings.empty());
}

TEST(Clock, CalibratedFromTheStartAndEndSamples) {
  // 3 GHz: 3000 ticks per microsecond.
  std::string dir =
      small_experiment({{"clock", clock_meta("tsc", 1000000, 5000, 1000000 + 3000000000ull,
                                             5000 + 1000000000ull, true)}});
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok()) << x.error().message;
  const Clock& c = x->clock;
  EXPECT_EQ(c.source, "tsc");
  EXPECT_TRUE(c.calibrated);
  EXPECT_DOUBLE_EQ(c.ns_per_tick, 1.0 / 3.0);
  EXPECT_EQ(c.to_ns(1000000), 0u);
  EXPECT_EQ(c.to_ns(999999), 0u);  // before the start: clamped to 0
  EXPECT_EQ(c.to_ns(1000000 + 3000), 1000u);
  EXPECT_EQ(c.to_ns(1000000 + 3000000000ull), 1000000000u);
  EXPECT_TRUE(x->warnings.empty());
}

TEST(Clock, MonotonicTicksAreNanoseconds) {
  std::string dir = small_experiment({{"clock", clock_meta("monotonic", 500, 500, 0, 0, true)}});
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok());
  EXPECT_TRUE(x->clock.calibrated);
  EXPECT_EQ(x->clock.to_ns(1500), 1000u);
}

// A damaged chunk can carry a time near 2^64 ticks: at 1 ns per tick or more its ns are past 2^64,
// which no conversion to uint64_t holds (it was undefined: 2^63 or 0 on x86, time jumping back).
// Times from 2^63 ns on (292 years) saturate at 2^63 - 1, and times stay in order.
TEST(Clock, TimesPast2To63NsSaturate) {
  constexpr uint64_t kLatest = uint64_t(INT64_MAX);
  Clock c;
  c.source = "monotonic";
  c.start_ticks = 100;
  c.ns_per_tick = 1.0;
  EXPECT_EQ(c.to_ns(~uint64_t(0)), kLatest);
  EXPECT_EQ(c.to_ns(100 + (uint64_t(1) << 62)), uint64_t(1) << 62);
  c.ns_per_tick = 2.0;  // a 0.5 GHz clock: plausible, not refused
  EXPECT_EQ(c.to_ns(100 + (uint64_t(1) << 61)), uint64_t(1) << 62);
  EXPECT_EQ(c.to_ns(100 + (uint64_t(1) << 62)), kLatest);
  EXPECT_EQ(c.to_ns(100 + (uint64_t(1) << 63)), kLatest);
  EXPECT_EQ(c.to_ns(~uint64_t(0)), kLatest);
}

// A mean or scaled time as uint64_t (format/stat.h): negative and NaN give 0, 2^64 and beyond
// UINT64_MAX (the conversion is undefined there), everything else truncated.
TEST(SaturatedU64, ClampsWhatNoUint64Holds) {
  EXPECT_EQ(format::saturated_u64(-1.0), 0u);
  EXPECT_EQ(format::saturated_u64(std::nan("")), 0u);
  EXPECT_EQ(format::saturated_u64(41.9), 41u);
  EXPECT_EQ(format::saturated_u64(0x1p63), uint64_t(1) << 63);
  EXPECT_EQ(format::saturated_u64(0x1p64), UINT64_MAX);
  EXPECT_EQ(format::saturated_u64(1e30), UINT64_MAX);
}

// A run killed before its final clock sample: the latest sample a chunk header carries is used.
TEST(Clock, CalibratedFromChunkSamplesWhenTheRunDidNotFinish) {
  std::string dir =
      small_experiment({{"status", "running"}, {"clock", clock_meta("tsc", 0, 0, 0, 0, false)}});
  // Replace thread 0's stream by one whose chunks carry samples at 2 ns per tick.
  std::vector<Event> events = {{100, Kind::kThreadBegin, 0, 1, 0, 0, 0, 0},
                               {400, Kind::kThreadEnd, 0, 0, 0, 0, 0, 0}};
  std::vector<uint8_t> bytes(sizeof(FileHeader));
  FileHeader fh = make_file_header(0, 1);
  std::memcpy(bytes.data(), &fh, sizeof fh);
  for (uint32_t i = 0; i < 2; ++i) {
    std::vector<uint8_t> buf(max_chunk_bytes(1));
    ChunkInfo info;
    info.seq = i;
    info.calib_ticks = events[i].time;
    info.calib_ns = events[i].time * 2;
    size_t n = build_chunk(&events[i], 1, info, buf.data());
    bytes.insert(bytes.end(), buf.begin(), buf.begin() + long(n));
  }
  std::ofstream(dir + "/thread-0000.tlt", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok());
  EXPECT_TRUE(x->clock.calibrated);
  EXPECT_DOUBLE_EQ(x->clock.ns_per_tick, 2.0);
  EXPECT_EQ(x->status, "running");
  ASSERT_EQ(x->warnings.size(), 1u);
  EXPECT_EQ(x->warnings[0],
            "the run did not finish (killed, or still running): the trace ends "
            "at the last chunk written");
}

TEST(Clock, UncalibratedFallsBackToAGuessAndSaysSo) {
  std::string dir = small_experiment({{"clock", clock_meta("tsc", 1000, 1000, 0, 0, false)}});
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok());
  EXPECT_FALSE(x->clock.calibrated);
  EXPECT_DOUBLE_EQ(x->clock.ns_per_tick, 0.4);
  EXPECT_EQ(x->clock.to_ns(1000 + 2500), 1000u);
  ASSERT_EQ(x->warnings.size(), 1u);
  EXPECT_EQ(x->warnings[0],
            "the run ended before its clock could be calibrated; times are "
            "approximate (assuming a 2.5 GHz TSC)");
}

TEST(OpenExperiment, WarnsAboutCrashesLossesAndWriteErrors) {
  std::string dir = small_experiment(
      {{"status", "crashed"},
       {"end_reason", "signal 11 (SEGV)"},
       {"recorder", {{"events_lost", 17}, {"write_error", "thread-0000.tlt: No space left"}}}});
  auto x = open_experiment(dir);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(x->status, "crashed");
  std::vector<std::string> want = {
      "the run ended on signal 11 (SEGV); the trace holds what was flushed then",
      "17 events were lost by the recorder",
      "write error during the run: thread-0000.tlt: No space left"};
  EXPECT_EQ(x->warnings, want);
}

}  // namespace
}  // namespace tasklens::format
