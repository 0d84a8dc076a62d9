// Bad input to `tasklens dump`, `check`, `report` and `export`: each case gives one clear line
// naming the file and what is wrong, a non-zero exit status, and whatever valid data comes before
// the damage (docs/ROBUSTNESS.md lists every case and its test). Bad command lines and programs
// that `run` cannot run: bad_command_line_test.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "format/chunk.h"
#include "integration/trace_facts.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

// dump and check on things that are not experiments: exit 2, one line naming the path.
class ReaderBadInput : public ::testing::TestWithParam<std::string> {};

TEST_P(ReaderBadInput, MissingFolder) {
  std::string dir = scratch_dir() + "/no-such-run";
  CommandResult r = run_tasklens({GetParam(), dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "tasklens " + GetParam() + ": " + dir + ": no such file or directory\n");
}

TEST_P(ReaderBadInput, FileInsteadOfFolder) {
  std::string file = scratch_dir() + "/trace.txt";
  write_file(file, "hello\n");
  CommandResult r = run_tasklens({GetParam(), file});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("tasklens " + GetParam() + ": " + file + ": not a directory", 0), 0u)
      << r.err;
  EXPECT_EQ(count_lines(r.err), 1u);
}

TEST_P(ReaderBadInput, FolderThatIsNotAnExperiment) {
  std::string dir = scratch_dir();
  write_file(dir + "/notes.txt", "hello\n");
  CommandResult r = run_tasklens({GetParam(), dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tasklens " + GetParam() + ": " + dir +
                       ": not a tasklens experiment (no experiment.json)\n");
}

TEST_P(ReaderBadInput, StreamThatIsNotATasklensTrace) {
  TraceBuilder t;
  t.initial_task(0, 10, format::make_id(0, 1));
  std::string dir = t.write();
  write_file(dir + "/thread-0000.tlt", "ELF? no, just text pretending to be a trace\n");
  CommandResult r = run_tasklens({GetParam(), dir});
  EXPECT_NE(r.status, 0);
  // dump: an error line on stderr; check: a "lost:" line of its report.
  EXPECT_NE((r.err + r.out).find(dir + "/thread-0000.tlt: not a tasklens trace (bad magic)"),
            std::string::npos)
      << r.out << r.err;
}

TEST_P(ReaderBadInput, NewerVersion) {
  std::string dir = scratch_dir() + "/exp";
  fs::copy(source_dir() + "/tests/format/fixtures/v1-two-threads", dir);
  std::ifstream in(dir + "/experiment.json");
  nlohmann::json meta = nlohmann::json::parse(in);
  meta["format_version"] = format::kFormatVersion + 1;
  write_file(dir + "/experiment.json", meta.dump());
  CommandResult r = run_tasklens({GetParam(), dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tasklens " + GetParam() + ": " + dir +
                       "/experiment.json: written by a newer tasklens (format version " +
                       std::to_string(format::kFormatVersion + 1) +
                       "; this tasklens reads versions " +
                       std::to_string(format::kOldestReadVersion) + " to " +
                       std::to_string(format::kFormatVersion) + ")\n");
}

INSTANTIATE_TEST_SUITE_P(Commands, ReaderBadInput, ::testing::Values("dump", "check"));

// A real one-thread recording with several chunks, for damage tests.
struct Damaged {
  std::string dir, stream;
  std::vector<format::ChunkHeader> chunks;
  std::vector<uint64_t> offsets;  // where each chunk starts
  uint64_t events = 0;
};

Damaged record_for_damage() {
  Damaged d;
  d.dir = scratch_dir() + "/exp";
  CommandResult r = run_tasklens({"run", "-q", "-n", "1", "-o", d.dir, "--", example("fib"), "17"});
  EXPECT_EQ(r.status, 0) << r.err;
  d.stream = d.dir + "/thread-0000.tlt";
  TraceFacts f = read_trace(d.dir);
  d.chunks = f.headers;
  d.events = f.events;
  uint64_t off = sizeof(format::FileHeader);
  for (const auto& h : d.chunks) {
    d.offsets.push_back(off);
    off += sizeof h + h.payload_bytes;
  }
  EXPECT_EQ(off, fs::file_size(d.stream));
  EXPECT_GE(d.chunks.size(), 4u);
  return d;
}

uint64_t dump_lines(const std::string& out) { return count_lines(out); }

TEST(DamagedStream, TruncatedInsideTheLastChunk) {
  Damaged d = record_for_damage();
  ASSERT_GE(d.chunks.size(), 4u);
  size_t last = d.chunks.size() - 1;
  fs::resize_file(d.stream, d.offsets[last] + 100);
  uint64_t kept = d.events - d.chunks[last].event_count;

  TraceFacts f = read_trace(d.dir);
  EXPECT_EQ(f.events, kept);  // every whole chunk before the cut
  CommandResult dump = run_tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump_lines(dump.out), kept);  // no dependences here: one line per event
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream + ": truncated at byte " +
                          std::to_string(d.offsets[last]) + ": chunk " + std::to_string(last) +
                          " needs " + std::to_string(d.chunks[last].payload_bytes) +
                          " payload bytes, 36 are left; its " +
                          std::to_string(d.chunks[last].event_count) + " events were lost\n");
  CommandResult check = run_tasklens({"check", d.dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("  lost: " + d.stream + ": truncated at byte"), std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("not sound: data was lost"), std::string::npos) << check.out;
}

TEST(DamagedStream, TruncatedInsideAChunkHeader) {
  Damaged d = record_for_damage();
  fs::resize_file(d.stream, d.offsets[2] + 10);
  CommandResult dump = run_tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump_lines(dump.out), uint64_t(d.chunks[0].event_count + d.chunks[1].event_count));
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream + ": truncated at byte " +
                          std::to_string(d.offsets[2]) +
                          ": 10 bytes of an incomplete chunk header (chunk 2); what follows was "
                          "lost\n");
}

TEST(DamagedStream, TruncatedInsideTheFileHeader) {
  Damaged d = record_for_damage();
  fs::resize_file(d.stream, 20);
  CommandResult dump = run_tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump.out, "");
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream +
                          ": truncated file header (20 of 32 bytes): nothing of this thread was "
                          "written\n");
  EXPECT_EQ(run_tasklens({"check", d.dir}).status, 1);
}

TEST(DamagedStream, CorruptedChunkIsSkippedAndTheRestRead) {
  Damaged d = record_for_damage();
  {
    std::fstream f(d.stream, std::ios::in | std::ios::out | std::ios::binary);
    long at = long(d.offsets[1] + sizeof(format::ChunkHeader) + 40);
    char c;
    f.seekg(at);
    f.read(&c, 1);
    c ^= 0x55;
    f.seekp(at);
    f.write(&c, 1);
  }
  uint64_t kept = d.events - d.chunks[1].event_count;
  CommandResult dump = run_tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump_lines(dump.out), kept);
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream + ": chunk 1 at byte " +
                          std::to_string(d.offsets[1]) +
                          " is corrupt (checksum mismatch); its " +
                          std::to_string(d.chunks[1].event_count) + " events were skipped\n");
  CommandResult check = run_tasklens({"check", d.dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("checksum mismatch"), std::string::npos) << check.out;
}

TEST(DamagedStream, CorruptMetadataIsOneLine) {
  Damaged d = record_for_damage();
  write_file(d.dir + "/experiment.json", "{\"format\": \"tasklens-experiment\", \"threads\": [");
  CommandResult r = run_tasklens({"check", d.dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tasklens check: " + d.dir + "/experiment.json: corrupt metadata (not valid "
                                                "JSON)\n");
}


// ---- damage to a copy of the two-thread fixture (tests/format/fixtures/v1-two-threads) ------

std::string fixture_copy() {
  std::string dir = scratch_dir() + "/exp";
  fs::copy(source_dir() + "/tests/format/fixtures/v1-two-threads", dir);
  return dir;
}

template <class T>
void poke(const std::string& path, uint64_t offset, T value) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(long(offset));
  f.write(reinterpret_cast<const char*>(&value), sizeof value);
}

// The bytes of chunk `index` of a stream (header and payload).
std::string chunk_bytes(const std::string& stream, size_t index) {
  std::string bytes = read_file(stream);
  size_t off = sizeof(format::FileHeader);
  for (size_t i = 0;; ++i) {
    format::ChunkHeader h;
    std::memcpy(&h, bytes.data() + off, sizeof h);
    if (i == index) return bytes.substr(off, sizeof h + h.payload_bytes);
    off += sizeof h + h.payload_bytes;
  }
}

void append(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::app) << bytes;
}

nlohmann::json metadata(const std::string& dir) {
  return nlohmann::json::parse(read_file(dir + "/experiment.json"));
}

void set_metadata(const std::string& dir, const nlohmann::json& meta) {
  write_file(dir + "/experiment.json", meta.dump());
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

size_t lines_with(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(part, at)) != std::string::npos; at += part.size()) ++n;
  return n;
}

// `check` on a damaged experiment: not sound (exit 1), and `line` among what it says.
void expect_check_says(const std::string& dir, const std::string& line) {
  CommandResult check = run_tasklens({"check", dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find(line + "\n"), std::string::npos) << check.out;
}

TEST(DamagedExperiment, HugeThreadFieldIsRefusedAndTheOtherThreadRead) {
  std::string dir = fixture_copy();
  CommandResult whole = run_tasklens({"dump", "--no-symbols", dir});
  ASSERT_EQ(whole.status, 0) << whole.err;
  std::string stream = dir + "/thread-0001.tlt";
  poke<uint32_t>(stream, offsetof(format::FileHeader, thread), 0xfffffff0u);
  std::string line = stream + ": corrupt file header: thread field is 4294967280, beyond the " +
                     "4096 threads a recording holds; the stream is not read";
  CommandResult dump = run_tasklens({"dump", "--no-symbols", dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump.err, "tasklens dump: " + line + "\n");
  EXPECT_EQ(count_lines(dump.out), lines_with(whole.out, " T0 "));  // thread 0 whole
  EXPECT_EQ(lines_with(dump.out, " T1 "), 0u);
  CommandResult check = run_tasklens({"check", dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("  lost: " + line + "\n"), std::string::npos) << check.out;
  CommandResult report = run_tasklens({"report", "--all", "--no-symbols", dir});
  EXPECT_NE(report.out.find("  note: " + line + "\n"), std::string::npos) << report.out;
  CommandResult out = run_tasklens({"export", dir, "--to", "dot", "-o", scratch_dir() + "/g.dot"});
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.err, "tasklens export: " + stream + ": corrupt file header: thread field is " +
                         "4294967280, beyond the 4096 threads a recording holds; the stream is " +
                         "not read\n");
}

TEST(DamagedExperiment, ThreadFieldDisagreeingWithTheFileNameIsRefused) {
  std::string dir = fixture_copy();
  std::string stream = dir + "/thread-0000.tlt";
  poke<uint32_t>(stream, offsetof(format::FileHeader, thread), 1);
  expect_check_says(dir, "  lost: " + stream + ": corrupt file header: thread field is 1 but " +
                             "the file is named for thread 0; the stream is not read");
}

// A chunk written twice (a copied block, a replayed write): its events are read once.
TEST(DamagedExperiment, RepeatedChunkIsSkippedAndSaid) {
  std::string dir = fixture_copy();
  CommandResult whole = run_tasklens({"check", dir});
  std::string stream = dir + "/thread-0000.tlt";
  std::string chunk = chunk_bytes(stream, 0);
  uint64_t at = fs::file_size(stream);
  append(stream, chunk);
  format::ChunkHeader h;
  std::memcpy(&h, chunk.data(), sizeof h);
  CommandResult check = run_tasklens({"check", dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_EQ(first_line(check.out), first_line(whole.out));  // the same events, counted once
  EXPECT_NE(check.out.find("  lost: " + stream + ": chunk 0 at byte " + std::to_string(at) +
                           " comes after chunk 5 (sequence numbers go backwards: a duplicated " +
                           "or misplaced chunk); its " + std::to_string(h.event_count) +
                           " events were skipped\n"),
            std::string::npos)
      << check.out;
  EXPECT_EQ(check.out.find("4294967295"), std::string::npos) << check.out;
  EXPECT_EQ(run_tasklens({"report", "--all", "--no-symbols", dir}).status, 0);
}

TEST(DamagedExperiment, ChunkOfAnotherThreadIsSkippedAndSaid) {
  std::string dir = fixture_copy();
  std::string stream = dir + "/thread-0000.tlt";
  append(stream, chunk_bytes(dir + "/thread-0001.tlt", 0));
  format::ChunkHeader h;
  std::memcpy(&h, chunk_bytes(dir + "/thread-0001.tlt", 0).data(), sizeof h);
  expect_check_says(dir, "  lost: " + stream + ": chunk 0 at byte " +
                             std::to_string(fs::file_size(stream) - sizeof h - h.payload_bytes) +
                             " belongs to thread 1, not this stream's thread 0; its " +
                             std::to_string(h.event_count) + " events were skipped");
}

// A stream gone (deleted, never written) or holding only its header: each command says which
// thread lost how many events, reads the others, and exits 1.
void expect_lost_stream_said(const std::string& dir, const std::string& line) {
  CommandResult report = run_tasklens({"report", "--no-symbols", dir});
  EXPECT_EQ(report.status, 1);
  EXPECT_NE(report.out.find("  warning: " + line + "\n"), std::string::npos) << report.out;
  CommandResult json = run_tasklens({"report", "--json", "--no-symbols", dir});
  EXPECT_EQ(json.status, 1);
  nlohmann::json doc = nlohmann::json::parse(json.out);
  const auto& warnings = doc["run"]["warnings"];
  EXPECT_NE(std::find(warnings.begin(), warnings.end(), line), warnings.end()) << warnings;
  EXPECT_GT(doc["run"]["events"].get<uint64_t>(), 0u);  // thread 0 read
  // The HTML report: written all the same, the warning in its data, status 1.
  std::string page = scratch_dir() + "/report.html";
  CommandResult html = run_tasklens({"report", "--no-symbols", dir, "--html", page});
  EXPECT_EQ(html.status, 1) << html.err;
  EXPECT_NE(read_file(page).find(nlohmann::json(line).dump()), std::string::npos);
  CommandResult out =
      run_tasklens({"export", dir, "--to", "dot", "-q", "-o", scratch_dir() + "/g.dot"});
  EXPECT_EQ(out.status, 1);
  EXPECT_EQ(out.err, "tasklens export: warning: " + line + "\n");
  expect_check_says(dir, "  damaged: " + line);
}

TEST(DamagedExperiment, MissingStreamIsSaid) {
  std::string dir = fixture_copy();
  uint64_t events = metadata(dir)["threads"][1]["events"];
  fs::remove(dir + "/thread-0001.tlt");
  expect_lost_stream_said(dir, dir + "/thread-0001.tlt: missing: thread 1 lost all its " +
                                   std::to_string(events) + " recorded events");
}

TEST(DamagedExperiment, HeaderOnlyStreamIsSaid) {
  std::string dir = fixture_copy();
  uint64_t events = metadata(dir)["threads"][1]["events"];
  fs::resize_file(dir + "/thread-0001.tlt", sizeof(format::FileHeader));
  expect_lost_stream_said(dir, dir + "/thread-0001.tlt: holds no chunk: thread 1 lost all its " +
                                   std::to_string(events) + " recorded events");
}

// clock.end one tick after clock.start: a rate no clock has, said, and a guess used instead of
// a run of a million seconds.
TEST(DamagedExperiment, ImplausibleClockIsSaidAndNotUsed) {
  std::string dir = fixture_copy();
  nlohmann::json meta = metadata(dir);
  meta["clock"]["source"] = "tsc";
  meta["clock"]["start"] = {{"ticks", 0}, {"ns", 0}};
  meta["clock"]["end"] = {{"ticks", 1}, {"ns", 1000000000000ull}};
  set_metadata(dir, meta);
  std::string line = dir + "/experiment.json: clock.end against clock.start give a 1e-12 GHz " +
                     "clock, which no machine has; times assume a 2.5 GHz TSC";
  CommandResult report = run_tasklens({"report", "--json", "--no-symbols", dir});
  EXPECT_EQ(report.status, 1);
  nlohmann::json doc = nlohmann::json::parse(report.out);
  const auto& warnings = doc["run"]["warnings"];
  EXPECT_NE(std::find(warnings.begin(), warnings.end(), line), warnings.end()) << warnings;
  // The fixture's events span 10^12 ticks: 400 s at the guessed rate, not 10^24 ns.
  EXPECT_EQ(doc["run"]["run_ns"].get<uint64_t>(), 400000000000ull);
  CommandResult check = run_tasklens({"check", dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("  damaged: " + line + "\n"), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("  not sound: the experiment is damaged\n"), std::string::npos);
}

TEST(DamagedExperiment, MetadataThatIsADirectoryIsOneLine) {
  std::string dir = fixture_copy();
  fs::remove(dir + "/experiment.json");
  fs::create_directory(dir + "/experiment.json");
  for (const char* command : {"check", "dump", "report"}) {
    CommandResult r = run_tasklens({command, dir});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, std::string("tasklens ") + command + ": " + dir +
                         "/experiment.json: not a regular file (the experiment's metadata must "
                         "be the JSON file `tasklens run` wrote)\n");
  }
}

// A field of the wrong type: said, ignored, the rest read (never an exception's text).
TEST(DamagedExperiment, MistypedMetadataFieldIsSaidAndIgnored) {
  std::string dir = fixture_copy();
  nlohmann::json meta = metadata(dir);
  meta["status"] = 5;
  meta["program"]["args"] = {"fixture", 2};
  set_metadata(dir, meta);
  expect_check_says(dir, "  damaged: " + dir + "/experiment.json: status is not a string (5); " +
                             "ignored");
  CommandResult report = run_tasklens({"report", "--no-symbols", dir});
  EXPECT_EQ(report.status, 1);
  EXPECT_NE(report.out.find("  warning: " + dir + "/experiment.json: program.args is not an " +
                            "array (" + meta["program"]["args"].dump() + "); ignored\n"),
            std::string::npos)
      << report.out;
  EXPECT_EQ(report.err.find("json.exception"), std::string::npos) << report.err;
}

// Ids that a sound trace never repeats, repeated (as a duplicated chunk of another run would):
// a region id begun twice while its team runs (freed memory in the overheads pass once), an
// implicit-task id on two threads (an endless loop in the profile's end once).
TEST(DamagedExperiment, RepeatedRegionAndImplicitTaskIdsEndInTime) {
  TraceBuilder t;
  t.initial_task(0, 0, 1);
  t.parallel_begin(0, 10, 100, 1);
  t.implicit_begin(0, 11, 2, 100, 2, 0);
  t.implicit_begin(1, 12, 2, 100, 2, 1);
  t.create(0, 13, 7, 2);
  t.parallel_begin(0, 20, 100, 2);
  t.implicit_begin(0, 21, 3, 100, 1, 0);
  t.schedule(1, 22, 2, Status::kSwitch, 7);
  t.schedule(1, 23, 7, Status::kComplete, 2);
  t.implicit_end(0, 30, 3);
  t.parallel_end(0, 31, 100, 2);
  t.implicit_end(1, 32, 2);
  std::string dir = t.write();
  CommandResult report = run_tasklens({"report", "--all", "--json", "--no-symbols", dir});
  EXPECT_EQ(report.status, 0) << report.err;
  nlohmann::json doc = nlohmann::json::parse(report.out);
  EXPECT_EQ(doc["run"]["events"], 12);
  for (const char* format : {"otf2", "paraver", "perfetto", "perfetto-json", "dot"}) {
    CommandResult out =
        run_tasklens({"export", dir, "--to", format, "-q", "-o", scratch_dir() + "/out"});
    EXPECT_EQ(out.status, 0) << format << "\n" << out.err;
  }
}

TEST(RunBadInput, InvalidBufferSizeInTheEnvironmentIsRefused) {
  std::string dir = scratch_dir() + "/exp";
  for (const char* value : {"12abc", "0", "-5", "99999999999"}) {
    CommandResult r = run_command({tasklens_bin(), "run", "-o", dir, "--", example("fib"), "5"},
                                  {std::string("TASKLENS_BUFFER_MB=") + value});
    EXPECT_EQ(r.status, 125);
    EXPECT_EQ(r.err, std::string("tasklens run: TASKLENS_BUFFER_MB=") + value +
                         ": not a whole number of MiB from 1 to 1048576 (unset it, or give "
                         "--buffer-mb)\n");
    EXPECT_FALSE(fs::exists(dir));
  }
}

// The recorder loaded without `tasklens run`: it records with the default and says so once.
TEST(RunBadInput, RecorderSaysItIgnoredAnInvalidBufferSize) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = run_command({example("fib"), "10"},
                                {"OMP_TOOL_LIBRARIES=" + std::string(TASKLENS_RECORDER_LIBRARY),
                                 "TASKLENS_OUTPUT=" + dir, "TASKLENS_BUFFER_MB=lots",
                                 "TASKLENS_QUIET=1"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "tasklens: TASKLENS_BUFFER_MB=lots is not a whole number of MiB from 1 to "
                   "1048576; recording with the default 64 MiB\n");
  EXPECT_EQ(run_tasklens({"check", dir}).status, 0);
}

// `dump | head` and `export -o - | head`: the reader stops at the closed pipe as quietly as cat.
TEST(DamagedStream, OutputIntoAClosedPipeEndsQuietly) {
  Damaged d = record_for_damage();
  for (const std::string& command :
       {tasklens_bin() + " dump " + d.dir, tasklens_bin() + " dump --json " + d.dir,
        tasklens_bin() + " export " + d.dir + " --to perfetto -q -o -",
        tasklens_bin() + " export " + d.dir + " --to perfetto-json -q -o -"}) {
    CommandResult r = run_command({"/bin/sh", "-c", command + " | head -c 100 >/dev/null"});
    EXPECT_EQ(r.status, 0) << command;
    EXPECT_EQ(r.err, "") << command;
  }
}

}  // namespace
}  // namespace tasklens::testing
