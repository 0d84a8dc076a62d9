// End to end: the examples (fib, the dependence chain, the wavefront, untied tasks that migrate)
// recorded by `tasklens run`, exported by `tasklens export` to every format, each output read by a
// real reader: otf2-print, the Paraver syntax check, the JSON check, the protobuf decoder, Graphviz. Counts are
// compared with the trace's own (`tasklens dump`) and with what the programs print.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "export/export_checks.h"
#include "support/recording.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

struct Case {
  std::string name;
  std::vector<std::string> args;
  int threads;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << c.name << " -n " << c.threads;
}

struct Recorded {
  std::string dir;
  std::string output;  // the program's line (tasks=, deps=)
  std::map<std::string, uint64_t> counts;
};

Recorded record(const Case& c) {
  std::vector<std::string> program = {example(c.name)};
  program.insert(program.end(), c.args.begin(), c.args.end());
  Recording rec = record_run(program, c.threads);
  const CommandResult& run = rec.run;
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find(" OK"), std::string::npos) << run.out;
  Recorded r;
  r.dir = rec.dir;
  r.output = run.out;
  r.counts = dumped_counts(r.dir);
  return r;
}

CommandResult export_cli(const std::string& dir, const std::string& format,
                         const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {tasklens_bin(), "export", dir, "--to", format, "-o", out};
  argv.insert(argv.end(), extra.begin(), extra.end());
  CommandResult r = run_command(argv);
  EXPECT_EQ(r.status, 0) << r.err;
  return r;
}

long long deps_of(const Recorded& r) {
  long long deps = printed_value(r.output, "deps");
  return deps < 0 ? 0 : deps;
}

class ExportE2E : public ::testing::TestWithParam<Case> {};

TEST_P(ExportE2E, Otf2ReadByOtf2PrintWithTheTracesCounts) {
  Recorded rec = record(GetParam());
  export_cli(rec.dir, "otf2", rec.dir + "/../otf2");
  Otf2Print p = expect_valid_otf2(rec.dir + "/../otf2/traces.otf2");
  auto& c = rec.counts;
  EXPECT_EQ(p.counts["THREAD_TASK_CREATE"], c["task_create"]);
  EXPECT_EQ(p.counts["THREAD_TASK_COMPLETE"], c["task_schedule:complete"]);
  EXPECT_EQ(p.counts["THREAD_TEAM_BEGIN"], c["implicit_task:begin:implicit"]);
  EXPECT_EQ(p.counts["THREAD_TEAM_END"], c["implicit_task:begin:implicit"]);
  EXPECT_EQ(p.counts["THREAD_FORK"], c["parallel_begin"]);
  EXPECT_EQ(p.counts["THREAD_JOIN"], c["parallel_begin"]);
  EXPECT_EQ(p.counts["ENTER"], p.counts["LEAVE"]);
  EXPECT_EQ(uint64_t(printed_value(rec.output, "tasks")), c["task_create"]);
  // Constructs: one enter per begin (tied tasks never leave their regions; untied ones re-enter).
  std::map<std::string, uint64_t> enters;
  std::set<std::string> switched;
  for (const Otf2Record& r : p.records) {
    if (r.kind == "ENTER") ++enters[r.region.substr(0, r.region.find(' '))];
    if (r.kind == "THREAD_TASK_SWITCH") switched.insert(r.task);
  }
  EXPECT_EQ(enters["parallel"], c["parallel_begin"]);
  if (GetParam().name == "untied") {
    EXPECT_GE(enters["taskwait"], c["sync_region:begin:taskwait"]);
  } else {
    EXPECT_EQ(enters["taskwait"], c["sync_region:begin:taskwait"]);
  }
  // Every task ran: each shows up in a task switch (plus the implicit and initial tasks).
  EXPECT_EQ(switched.size(), c["task_create"] + c["implicit_task:begin"]);
}

TEST_P(ExportE2E, ParaverPassesTheSyntaxCheck) {
  Recorded rec = record(GetParam());
  export_cli(rec.dir, "paraver", rec.dir + "/../trace.prv");
  ParaverFacts f = expect_valid_paraver(rec.dir + "/../trace");
  ASSERT_EQ(f.threads_per_appl.size(), 2u);
  EXPECT_EQ(f.threads_per_appl[0], uint32_t(GetParam().threads));
  // One task-view row per task instance: explicit, implicit and initial tasks.
  EXPECT_EQ(f.threads_per_appl[1], rec.counts["task_create"] + rec.counts["implicit_task:begin"]);
  // Creation: one relation in each view per explicit task; dependences likewise.
  EXPECT_EQ(f.comm_tags[1], 2 * rec.counts["task_create"]);
  EXPECT_EQ(f.comm_tags[2], uint64_t(2 * deps_of(rec)));
  EXPECT_GT(f.state_time[1], 0u);  // running
  EXPECT_EQ(f.split_event_lines, 0u);  // a row's events of one time on one line
}

TEST_P(ExportE2E, PerfettoJsonIsValidWithPairedFlows) {
  Recorded rec = record(GetParam());
  export_cli(rec.dir, "perfetto-json", rec.dir + "/../trace.json");
  PerfettoFacts f = expect_valid_perfetto(rec.dir + "/../trace.json");
  EXPECT_EQ(f.flows["create"], rec.counts["task_create"]);
  EXPECT_EQ(f.flows["dependence"], uint64_t(deps_of(rec)));
  EXPECT_GT(f.counters, 0u);
  // Thread tracks plus one lane or more per task construct.
  EXPECT_GT(f.tracks.size(), size_t(GetParam().threads));
}

// The protobuf trace of a real run, decoded: the same slices and arrows as the JSON, an arrow per
// task created and per dependence, and a fraction of the JSON's size.
TEST_P(ExportE2E, PerfettoProtobufDecodesToTheJsonTrace) {
  Recorded rec = record(GetParam());
  std::string base = rec.dir + "/../trace";
  export_cli(rec.dir, "perfetto-json", base + ".json");
  export_cli(rec.dir, "perfetto", base + ".pftrace");
  PerfettoFacts j = expect_valid_perfetto(base + ".json");
  PerfettoFacts p = expect_valid_perfetto_proto(base + ".pftrace");
  EXPECT_EQ(p.flows["create"], rec.counts["task_create"]);
  EXPECT_EQ(p.flows["dependence"], uint64_t(deps_of(rec)));
  EXPECT_EQ(p.slice_list.size(), j.slice_list.size());
  EXPECT_TRUE(p.slice_list == j.slice_list);  // (not printed: thousands of slices)
  EXPECT_TRUE(p.flow_list == j.flow_list);
  EXPECT_EQ(p.counters, j.counters);
  EXPECT_LT(p.bytes * 3, j.bytes);
}

TEST_P(ExportE2E, DotRendersWithGraphviz) {
  Recorded rec = record(GetParam());
  std::string dot = rec.dir + "/../graph.dot";
  export_cli(rec.dir, "dot", dot);
  CommandResult r = run_command({dot_bin(), "-Tsvg", "-o", dot + ".svg", dot});
  EXPECT_EQ(r.status, 0) << r.err;
  std::ifstream in(dot);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t red = 0;
  for (size_t at = 0; (at = text.find("color=\"red3\"", at)) != std::string::npos; ++at) ++red;
  EXPECT_EQ(red, uint64_t(deps_of(rec)));
  // The collapsed graph renders too.
  export_cli(rec.dir, "dot", dot + ".c.dot", {"--graph", "constructs"});
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", dot + ".c.svg", dot + ".c.dot"}).status, 0);
}

INSTANTIATE_TEST_SUITE_P(Examples, ExportE2E,
                         ::testing::Values(Case{"fib", {"15"}, 2}, Case{"dep_chain", {"20", "10"}, 2},
                                           Case{"wavefront", {"4", "10"}, 2},
                                           Case{"untied", {"8"}, 2}, Case{"untied", {"8"}, 4}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name + "_" + std::to_string(info.param.threads) +
                                  "threads";
                         });

// ---- every example, each format valid --------------------------------------------------------------

struct AnyCase {
  std::string name;
  std::string program;  // under the examples directory (gcc/ for GCC builds)
  std::vector<std::string> args;
  std::vector<std::string> env;
};

class EveryExample : public ::testing::TestWithParam<AnyCase> {};

TEST_P(EveryExample, ExportsAreValidInEveryFormat) {
  const AnyCase& c = GetParam();
  std::vector<std::string> program = {example(c.program)};
  program.insert(program.end(), c.args.begin(), c.args.end());
  Recording rec = record_run(program, 2, c.env);
  const CommandResult& run = rec.run;
  ASSERT_EQ(run.status, 0) << run.err;
  std::string dir = rec.dir;
  std::string base = std::filesystem::path(dir).parent_path().string();  // the test's scratch
  export_cli(dir, "otf2", base + "/t.otf2");
  Otf2Print p = expect_valid_otf2(base + "/t.otf2");
  EXPECT_EQ(p.counts["ENTER"], p.counts["LEAVE"]);
  export_cli(dir, "paraver", base + "/t");
  expect_valid_paraver(base + "/t");
  export_cli(dir, "perfetto-json", base + "/t.json");
  expect_valid_perfetto(base + "/t.json");
  export_cli(dir, "perfetto", base + "/t.pftrace");
  expect_valid_perfetto_proto(base + "/t.pftrace");
  export_cli(dir, "dot", base + "/t.dot");
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", base + "/t.svg", base + "/t.dot"}).status, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, EveryExample,
    ::testing::Values(
        AnyCase{"nqueens", "nqueens", {"6"}, {}},
        AnyCase{"imbalance", "imbalance", {"1000", "100"}, {}},
        AnyCase{"taskloop", "taskloop", {"1000", "10"}, {}},
        AnyCase{"taskgroup", "taskgroup", {"10"}, {}},
        AnyCase{"skewed_loop", "skewed_loop", {"20"}, {}},
        AnyCase{"critical", "critical", {"1000"}, {}}, AnyCase{"single", "single", {"5"}, {}},
        AnyCase{"fork_join", "fork_join", {"100"}, {}}, AnyCase{"detach", "detach", {"8"}, {}},
        AnyCase{"cancel", "cancel", {"8"}, {"OMP_CANCELLATION=true"}},
        AnyCase{"gcc_dep_chain", "gcc/dep_chain", {"20", "10"}, {}},
        AnyCase{"taskwait_depend", "taskwait_depend", {"4", "1000", "100"}, {}},
        AnyCase{"gcc_taskwait_depend", "gcc/taskwait_depend", {"4", "1000", "100"}, {}}),
    [](const ::testing::TestParamInfo<AnyCase>& info) { return info.param.name; });

// ---- the window and the thread filter through the CLI --------------------------------------------

TEST(ExportCli, WindowAndThreadsNarrowEveryFormat) {
  Recorded rec = record(Case{"fib", {"12"}, 2});
  // The middle third of the run, thread 1 only.
  CommandResult d = run_command({tasklens_bin(), "dump", "--json", rec.dir});
  uint64_t last = 0;
  for (size_t at = 0; (at = d.out.find("\"t\":", at)) != std::string::npos; at += 4) {
    last = std::max<uint64_t>(last, std::stoull(d.out.substr(at + 4)));
  }
  std::string from = std::to_string(last / 3), to = std::to_string(2 * last / 3);
  std::vector<std::string> window = {"--from", from, "--to", to, "--threads", "1"};
  std::string base = rec.dir + "/../w";
  export_cli(rec.dir, "otf2", base + ".otf2", window);
  Otf2Print p = expect_valid_otf2(base + ".otf2");
  for (const Otf2Record& r : p.records) {
    EXPECT_EQ(r.location, 1u);
    EXPECT_GE(r.time, last / 3);
    EXPECT_LE(r.time, 2 * last / 3);
  }
  export_cli(rec.dir, "paraver", base, window);
  ParaverFacts f = expect_valid_paraver(base);
  EXPECT_EQ(f.threads_per_appl[0], 1u);
  EXPECT_LE(f.end_ns, last / 3 + 1);  // times start at the window
  export_cli(rec.dir, "perfetto-json", base + ".json", window);
  PerfettoFacts j = expect_valid_perfetto(base + ".json");
  export_cli(rec.dir, "perfetto", base + ".pftrace", window);
  PerfettoFacts pf = expect_valid_perfetto_proto(base + ".pftrace");
  EXPECT_TRUE(pf.slice_list == j.slice_list);
  EXPECT_TRUE(pf.flow_list == j.flow_list);
  export_cli(rec.dir, "dot", base + ".dot", window);
  EXPECT_EQ(run_command({dot_bin(), "-Tsvg", "-o", base + ".svg", base + ".dot"}).status, 0);
}

// "... from N events)": how many events the export read.
uint64_t events_read(const CommandResult& r) {
  std::string text = r.out + r.err;
  size_t at = text.find(" from ");
  return at == std::string::npos ? 0 : std::stoull(text.substr(at + 6));
}

// A window that ends early stops the replay soon after its end (the timeline formats write
// nothing past it); a window past the run's end reads every event.
TEST(ExportCli, WindowEndStopsTheReplay) {
  Recorded rec = record(Case{"fib", {"18"}, 2});
  uint64_t total = 0;
  for (const auto& [key, n] : rec.counts) {
    if (key.find(':') == std::string::npos) total += n;  // per kind, not per kind:detail
  }
  ASSERT_GT(total, 40000u);
  for (const char* format : {"perfetto", "perfetto-json", "otf2", "paraver"}) {
    std::string out = rec.dir + "/../early-" + format;
    uint64_t early = events_read(export_cli(rec.dir, format, out, {"--to", "100us"}));
    EXPECT_GT(early, 0u) << format;
    EXPECT_LT(early, total / 2) << format;
    uint64_t all = events_read(export_cli(rec.dir, format, out + "-all", {"--to", "1000s"}));
    EXPECT_EQ(all, total) << format;
  }
  expect_valid_perfetto_proto(rec.dir + "/../early-perfetto");
  expect_valid_perfetto(rec.dir + "/../early-perfetto-json");
}

// A whole-trace Perfetto export above --browser-events is warned of once, before writing (it was
// warned of again at the end, with the packet count, for the same condition).
TEST(ExportCli, TheBrowserSizeWarningIsSaidOnce) {
  Recorded rec = record(Case{"fib", {"12"}, 2});
  for (const char* format : {"perfetto", "perfetto-json"}) {
    CommandResult r =
        export_cli(rec.dir, format, rec.dir + "/../big-" + format, {"--browser-events", "100"});
    size_t first = r.err.find("too big for a browser");
    EXPECT_NE(first, std::string::npos) << format << ": " << r.err;
    EXPECT_NE(r.err.find("open it with trace_processor"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("too much for a browser"), std::string::npos) << format << ": " << r.err;
  }
}

}  // namespace
}  // namespace tasklens::testing
