// Bad input to `tasklens run`, `dump` and `check`: each case gives one clear line naming the file
// and what is wrong, a non-zero exit status, and whatever valid data comes before the damage.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
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

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

size_t count_lines(const std::string& text) {
  return size_t(std::count(text.begin(), text.end(), '\n'));
}

CommandResult tasklens(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {tasklens_bin()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_command(argv);
}

TEST(RunBadInput, MissingProgramExits127) {
  std::string missing = scratch_dir() + "/no-such-app";
  CommandResult r = tasklens({"run", "-o", scratch_dir() + "/exp", "--", missing});
  EXPECT_EQ(r.status, 127);
  EXPECT_EQ(r.err, "tasklens run: " + missing + ": No such file or directory\n");
}

TEST(RunBadInput, CommandNotOnPathExits127) {
  CommandResult r = tasklens({"run", "-o", scratch_dir() + "/exp", "--", "no-such-command-xyz"});
  EXPECT_EQ(r.status, 127);
  EXPECT_EQ(r.err, "tasklens run: no-such-command-xyz: command not found (not a path, and not on "
                   "PATH)\n");
}

TEST(RunBadInput, NonExecutableExits126) {
  std::string path = scratch_dir() + "/app.c";
  write_text(path, "int main(void) { return 0; }\n");
  chmod(path.c_str(), 0644);
  CommandResult r = tasklens({"run", "-o", scratch_dir() + "/exp", "--", path});
  EXPECT_EQ(r.status, 126);
  EXPECT_EQ(r.err.rfind("tasklens run: " + path + ": not executable", 0), 0u) << r.err;
  EXPECT_EQ(count_lines(r.err), 1u);
}

TEST(RunBadInput, DirectoryAsProgramExits126) {
  std::string dir = scratch_dir();
  CommandResult r = tasklens({"run", "-o", scratch_dir() + "/exp", "--", dir});
  EXPECT_EQ(r.status, 126);
  EXPECT_EQ(r.err, "tasklens run: " + dir + ": is a directory\n");
}

// The output folder cannot be made (its parent is a file: unwritable even for root).
TEST(RunBadInput, UnwritableOutputFolderExits125AndNamesIt) {
  std::string file = scratch_dir() + "/a-file";
  write_text(file, "x");
  std::string out = file + "/exp";
  CommandResult r = tasklens({"run", "-o", out, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.out, "");  // the program did not run
  EXPECT_EQ(r.err.rfind("tasklens run: cannot write the output directory " + out + ": ", 0), 0u)
      << r.err;
  EXPECT_EQ(count_lines(r.err), 1u);
}

TEST(RunBadInput, OutputFolderHoldingAnExperimentIsNotOverwritten) {
  std::string dir = scratch_dir() + "/exp";
  ASSERT_EQ(tasklens({"run", "-q", "-o", dir, "--", example("fib"), "5"}).status, 0);
  CommandResult r = tasklens({"run", "-o", dir, "--", example("fib"), "5"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "tasklens run: " + dir +
                       " already holds an experiment; choose another -o, or --force to replace "
                       "it\n");
}

TEST(RunBadInput, ProgramWithoutOpenMPRecordsNothingAndSaysWhy) {
  std::string dir = scratch_dir() + "/exp";
  CommandResult r = tasklens({"run", "-o", dir, "--", "/bin/true"});
  EXPECT_EQ(r.status, 125);
  EXPECT_EQ(r.err, "tasklens run: nothing was recorded from /bin/true: no OpenMP runtime was "
                   "loaded (the program does not link one, or loads one in a way tasklens cannot "
                   "see); nothing was left behind\n");
  EXPECT_FALSE(std::filesystem::exists(dir));
}

// A bad option of `run` is tasklens's failure (125), never a status the program could exit with.
TEST(RunBadInput, BadOptionExits125) {
  for (std::vector<std::string> args : {std::vector<std::string>{"run", "--bogus", "--", "true"},
                                        {"run", "-n", "abc", "--", "true"}}) {
    CommandResult r = tasklens(args);
    EXPECT_EQ(r.status, 125) << args[1] << "\n" << r.err;
    EXPECT_NE(r.err.find("Run with --help"), std::string::npos) << r.err;
  }
}

// Every other command answers a bad command line with the usage status 2.
TEST(CommandLine, BadOptionOfAnyOtherCommandExits2) {
  for (const char* command : {"dump", "check", "report", "compare", "export"}) {
    CommandResult r = tasklens({command, "--bogus"});
    EXPECT_EQ(r.status, 2) << command << "\n" << r.err;
  }
  EXPECT_EQ(tasklens({"--help"}).status, 0);
  EXPECT_EQ(tasklens({"report", "--help"}).status, 0);
}

TEST(RunBadInput, ProgramStatusIsForwarded) {
  CommandResult r = tasklens({"run", "-q", "-o", scratch_dir() + "/exp", "--", example("fib"),
                              "not-a-number"});
  EXPECT_EQ(r.status, 2);  // fib's usage error
}

// dump and check on things that are not experiments: exit 2, one line naming the path.
class ReaderBadInput : public ::testing::TestWithParam<std::string> {};

TEST_P(ReaderBadInput, MissingFolder) {
  std::string dir = scratch_dir() + "/no-such-run";
  CommandResult r = tasklens({GetParam(), dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "tasklens " + GetParam() + ": " + dir + ": no such file or directory\n");
}

TEST_P(ReaderBadInput, FileInsteadOfFolder) {
  std::string file = scratch_dir() + "/trace.txt";
  write_text(file, "hello\n");
  CommandResult r = tasklens({GetParam(), file});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.rfind("tasklens " + GetParam() + ": " + file + ": not a directory", 0), 0u)
      << r.err;
  EXPECT_EQ(count_lines(r.err), 1u);
}

TEST_P(ReaderBadInput, FolderThatIsNotAnExperiment) {
  std::string dir = scratch_dir();
  write_text(dir + "/notes.txt", "hello\n");
  CommandResult r = tasklens({GetParam(), dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tasklens " + GetParam() + ": " + dir +
                       ": not a tasklens experiment (no experiment.json)\n");
}

TEST_P(ReaderBadInput, StreamThatIsNotATasklensTrace) {
  TraceBuilder t;
  t.initial_task(0, 10, format::make_id(0, 1));
  std::string dir = t.write();
  write_text(dir + "/thread-0000.tlt", "ELF? no, just text pretending to be a trace\n");
  CommandResult r = tasklens({GetParam(), dir});
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
  write_text(dir + "/experiment.json", meta.dump());
  CommandResult r = tasklens({GetParam(), dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tasklens " + GetParam() + ": " + dir +
                       "/experiment.json: written by a newer tasklens (format version " +
                       std::to_string(format::kFormatVersion + 1) +
                       "; this tasklens reads version " + std::to_string(format::kFormatVersion) +
                       ")\n");
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
  CommandResult r = tasklens({"run", "-q", "-n", "1", "-o", d.dir, "--", example("fib"), "17"});
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
  CommandResult dump = tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump_lines(dump.out), kept);  // no dependences here: one line per event
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream + ": truncated at byte " +
                          std::to_string(d.offsets[last]) + ": chunk " + std::to_string(last) +
                          " needs " + std::to_string(d.chunks[last].payload_bytes) +
                          " payload bytes, 36 are left; its " +
                          std::to_string(d.chunks[last].event_count) + " events were lost\n");
  CommandResult check = tasklens({"check", d.dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("  lost: " + d.stream + ": truncated at byte"), std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("not sound: data was lost"), std::string::npos) << check.out;
}

TEST(DamagedStream, TruncatedInsideAChunkHeader) {
  Damaged d = record_for_damage();
  fs::resize_file(d.stream, d.offsets[2] + 10);
  CommandResult dump = tasklens({"dump", d.dir});
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
  CommandResult dump = tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump.out, "");
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream +
                          ": truncated file header (20 of 32 bytes): nothing of this thread was "
                          "written\n");
  EXPECT_EQ(tasklens({"check", d.dir}).status, 1);
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
  CommandResult dump = tasklens({"dump", d.dir});
  EXPECT_EQ(dump.status, 1);
  EXPECT_EQ(dump_lines(dump.out), kept);
  EXPECT_EQ(dump.err, "tasklens dump: " + d.stream + ": chunk 1 at byte " +
                          std::to_string(d.offsets[1]) +
                          " is corrupt (checksum mismatch); its " +
                          std::to_string(d.chunks[1].event_count) + " events were skipped\n");
  CommandResult check = tasklens({"check", d.dir});
  EXPECT_EQ(check.status, 1);
  EXPECT_NE(check.out.find("checksum mismatch"), std::string::npos) << check.out;
}

TEST(DamagedStream, CorruptMetadataIsOneLine) {
  Damaged d = record_for_damage();
  write_text(d.dir + "/experiment.json", "{\"format\": \"tasklens-experiment\", \"threads\": [");
  CommandResult r = tasklens({"check", d.dir});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "tasklens check: " + d.dir + "/experiment.json: corrupt metadata (not valid "
                                                "JSON)\n");
}

}  // namespace
}  // namespace tasklens::testing
