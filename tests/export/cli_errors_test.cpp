// `tasklens export` on bad input: one line naming the problem, a non-zero exit status, and no
// partial output where the input was refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "export/golden_traces.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

namespace fs = std::filesystem;

CommandResult export_cli(std::vector<std::string> args) {
  args.insert(args.begin(), {tasklens_bin(), "export"});
  return run_command(args);
}

// One line on stderr, starting with "tasklens export: " and holding `what`.
void expect_one_line_error(const CommandResult& r, const std::string& what) {
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(r.err.rfind("tasklens export: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

std::string golden_dir() {
  static TraceBuilder t;
  static std::string dir = untied_migration_trace(t);
  return dir;
}

TEST(ExportErrors, MissingExperiment) {
  std::string out = scratch_dir() + "/x.json";
  expect_one_line_error(export_cli({"/nonexistent/exp", "--to", "perfetto", "-o", out}),
                        "no such file or directory");
  EXPECT_FALSE(fs::exists(out));
}

TEST(ExportErrors, CorruptExperiment) {
  std::string dir = scratch_dir();
  std::ofstream(dir + "/experiment.json") << "{ this is not json";
  expect_one_line_error(export_cli({dir, "--to", "otf2", "-o", dir + "/out"}), "corrupt metadata");
  // A stream file that is not a tasklens stream.
  std::string dir2 = scratch_dir();
  fs::copy(golden_dir(), dir2, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  std::ofstream(dir2 + "/thread-0001.tlt", std::ios::trunc) << "garbage, not a stream";
  CommandResult r = export_cli({dir2, "--to", "paraver", "-o", dir2 + "/t"});
  EXPECT_NE(r.status, 0);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("thread-0001.tlt"), std::string::npos) << r.err;
}

// Before writing more than --max-gb (events recorded x the format's bytes per event), the whole
// trace is refused with how to window it; --big, a window or a thread selection go on.
TEST(ExportErrors, TooBigWholeTraceStopsBeforeWriting) {
  std::string dir = golden_dir();
  for (std::string format : {"paraver", "perfetto", "perfetto-json", "otf2"}) {
    std::string out = scratch_dir() + "/big";
    CommandResult r = export_cli({dir, "--to", format, "-o", out, "--max-gb", "1e-9"});
    expect_one_line_error(r, format + " of the whole trace would be about 1 MB");
    EXPECT_NE(r.err.find("--from/--to"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--big"), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_empty(fs::path(out).parent_path())) << format;  // nothing written
    for (std::vector<std::string> more : {std::vector<std::string>{"--big"},
                                          {"--from", "0", "--to", "1s"},
                                          {"--threads", "0"}}) {
      std::vector<std::string> args = {dir, "--to", format, "-o", out, "--max-gb", "1e-9", "-q"};
      args.insert(args.end(), more.begin(), more.end());
      CommandResult ok = export_cli(args);
      EXPECT_EQ(ok.status, 0) << format << " " << more[0] << ": " << ok.err;
    }
  }
  // Under the limit nothing is said; DOT does not grow with events and is never stopped.
  CommandResult small = export_cli({dir, "--to", "paraver", "-o", scratch_dir() + "/s", "-q"});
  EXPECT_EQ(small.status, 0) << small.err;
  EXPECT_EQ(small.err, "");
  CommandResult dot = export_cli({dir, "--to", "dot", "-o", scratch_dir() + "/g.dot", "--max-gb",
                                  "1e-9", "-q"});
  EXPECT_EQ(dot.status, 0) << dot.err;
}

TEST(ExportErrors, UnwritableOutput) {
  std::string dir = golden_dir();
  // A path under a regular file cannot be created, whatever the user's rights.
  std::string file = scratch_dir() + "/plain-file";
  std::ofstream(file) << "x";
  for (const char* format : {"otf2", "paraver", "perfetto", "dot"}) {
    SCOPED_TRACE(format);
    CommandResult r = export_cli({dir, "--to", format, "-o", file + "/sub/out"});
    expect_one_line_error(r, file);
  }
}

TEST(ExportErrors, EmptyWindow) {
  expect_one_line_error(
      export_cli({golden_dir(), "--to", "perfetto", "--from", "2ms", "--to", "1ms", "-o", "-"}),
      "--from 2.000 ms is after --to 1.000 ms");
}

TEST(ExportErrors, WindowAfterTheRun) {
  expect_one_line_error(
      export_cli({golden_dir(), "--to", "otf2", "--from", "1s", "-o", scratch_dir() + "/o"}),
      "after the end of the run");
}

TEST(ExportErrors, UnknownThread) {
  expect_one_line_error(
      export_cli({golden_dir(), "--to", "dot", "--threads", "0,7", "-o", "-"}),
      "no thread 7 in ");
  expect_one_line_error(export_cli({golden_dir(), "--to", "dot", "--threads", "one", "-o", "-"}),
                        "not a list of thread numbers");
}

TEST(ExportErrors, UnknownFormatOrTime) {
  expect_one_line_error(export_cli({golden_dir(), "--to", "vampir", "-o", "-"}),
                        "not a format (otf2, paraver, perfetto, perfetto-json, dot) nor a time");
  expect_one_line_error(export_cli({golden_dir(), "-o", scratch_dir() + "/out.txt"}),
                        "which format?");
  expect_one_line_error(export_cli({golden_dir(), "--to", "dot", "--from", "soon", "-o", "-"}),
                        "--from soon: not a time");
  expect_one_line_error(export_cli({golden_dir(), "--to", "otf2", "-o", "-"}),
                        "only the perfetto, perfetto-json and dot exports can go to stdout");
}

TEST(ExportCli, FormatFromTheOutputNameAndStdout) {
  std::string out = scratch_dir() + "/graph.dot";
  CommandResult r = export_cli({golden_dir(), "-o", out, "--no-symbols"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(out));
  // "-o -": the graph on stdout, the summary on stderr.
  r = export_cli({golden_dir(), "--to", "dot", "-o", "-", "--no-symbols"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("digraph tasks", 0), 0u) << r.out;
  EXPECT_NE(r.err.find("tasklens export: wrote -"), std::string::npos) << r.err;
}

// --help lists every format of the registry with its line of help.
TEST(ExportCli, HelpListsTheRegisteredFormats) {
  CommandResult r = export_cli({"--help"});
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* name : {"otf2", "paraver (or prv)", "perfetto (or pftrace, protobuf)",
                           "perfetto-json (or chrome, json)", "dot (or graphviz)"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  }
  EXPECT_NE(r.out.find("Graphviz DOT"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tasklens::testing
