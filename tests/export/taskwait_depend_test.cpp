// `taskwait depend(...)` in the timeline exports. libomp reports it as a task flagged taskwait
// that never runs and ends with taskwait_complete (docs/LIBOMP.md); every timeline export shows
// its creator in a taskwait instead, as a plain taskwait looks there, and nothing of the task (no
// creation arrow or record, slice, row, or count). The golden trace
// taskwait_depend_on_other_thread against its plain twin (analysis/two_thread_team.h): OTF2 and
// both Perfetto encodings write the same; Paraver the same but for the clause's dependence, a
// communication to where the wait ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/two_thread_team.h"
#include "export/export_checks.h"
#include "export/export_to.h"
#include "support/test_paths.h"

namespace tasklens::testing {
namespace {

struct Twins {
  std::string plain, depend;  // the experiments' directories
};

Twins write_twins() {
  TraceBuilder a, b;
  analysis::plain_twin_of_taskwait_depend(a);
  analysis::taskwait_depend_on_other_thread(b);
  return {a.write(), b.write()};
}

// Both experiments exported to `name` in their directory; the outputs' paths (plain, depend).
std::pair<std::string, std::string> export_twins(const Twins& d, const char* format,
                                                 const std::string& name) {
  for (const std::string& dir : {d.plain, d.depend}) {
    export_to(dir, *exports::find_export_format(format), dir + "/" + name);
  }
  return {d.plain + "/" + name, d.depend + "/" + name};
}

// Thread 0's taskwait 20..140 (Enter/Leave of a TASK_WAIT region named after 0x5000) and one task
// creation (task 10's); the ready-tasks metric's values too (otf2-print's whole output).
TEST(TaskwaitDependExport, Otf2WritesThePlainTaskwaitsRecords) {
  Twins d = write_twins();
  auto [plain, depend] = export_twins(d, "otf2", "out.otf2");
  Otf2Print a = expect_valid_otf2(plain), b = expect_valid_otf2(depend);
  std::vector<std::string> lines = otf2_lines(b);
  EXPECT_EQ(lines, otf2_lines(a));
  EXPECT_TRUE(has_line(lines, "ENTER 0 20 taskwait 0x5000"));
  EXPECT_TRUE(has_line(lines, "LEAVE 0 140 taskwait 0x5000"));
  EXPECT_EQ(b.counts["THREAD_TASK_CREATE"], 1u);
  EXPECT_EQ(b.counts["METRIC"], a.counts["METRIC"]);
  CommandResult pa = run_command({otf2_print_bin(), plain}),
                pb = run_command({otf2_print_bin(), depend});
  ASSERT_EQ(pb.status, 0) << pb.err;
  EXPECT_EQ(pb.out, pa.out);
  CommandResult defs = run_command({otf2_print_bin(), "-G", depend});
  EXPECT_NE(defs.out.find("\"taskwait 0x5000\""), std::string::npos) << defs.out;
  EXPECT_EQ(defs.out.find("\"task 0x5000\""), std::string::npos) << defs.out;
}

// Byte for byte the plain twin's trace, in both encodings: the taskwait slice 20..140 on thread
// 0's track, one creation arrow (task 10's, ended), no lane or slice for task 11, the same ready
// tasks counter.
TEST(TaskwaitDependExport, PerfettoWritesThePlainTaskwaitsTrace) {
  Twins d = write_twins();
  auto [plain, depend] = export_twins(d, "perfetto-json", "trace.json");
  PerfettoFacts j = expect_valid_perfetto(depend);
  EXPECT_EQ(read_file(depend), read_file(plain));
  PerfettoSlice wait{"golden threads / thread 0", "taskwait 0x5000", 20, 140, ""};
  EXPECT_NE(std::find(j.slice_list.begin(), j.slice_list.end(), wait), j.slice_list.end());
  EXPECT_EQ(j.slice_names["task 0x5000"], 0u);
  EXPECT_EQ(j.flows["create"], 1u);
  EXPECT_EQ(j.unended_creations, 0u);
  EXPECT_EQ(j.flows["dependence"], 0u);  // a flow ends at a slice's start: the wait's is earlier
  auto [plain_pb, depend_pb] = export_twins(d, "perfetto", "trace.pftrace");
  PerfettoFacts p = expect_valid_perfetto_proto(depend_pb);
  EXPECT_EQ(read_file(depend_pb), read_file(plain_pb));
  EXPECT_EQ(p.slice_list, j.slice_list);
  EXPECT_EQ(p.unended_creations, 0u);
}

// The plain twin's records, rows and names, and the clause's dependence: task 10 (done on thread
// 1 at 130; task row 3) reaches the wait's end on thread 0 at 140 (task row 1, the waiting
// implicit task), as DOT joins it to the taskwait.
TEST(TaskwaitDependExport, ParaverShowsThePlainTaskwaitAndItsDependence) {
  Twins d = write_twins();
  auto [plain, depend] = export_twins(d, "paraver", "trace.prv");
  const std::string plain_base = plain.substr(0, plain.size() - 4);
  const std::string depend_base = depend.substr(0, depend.size() - 4);
  ParaverFacts a = expect_valid_paraver(plain_base), b = expect_valid_paraver(depend_base);
  EXPECT_EQ(b.threads_per_appl, (std::vector<uint32_t>{2, 3}));  // no row for task 11
  EXPECT_EQ(read_file(depend_base + ".row"), read_file(plain_base + ".row"));
  EXPECT_EQ(read_file(depend_base + ".pcf"), read_file(plain_base + ".pcf"));
  std::vector<std::string> waited = {"3:2:1:1:2:130:130:1:1:1:1:140:140:0:2",
                                     "3:0:2:1:3:130:130:0:2:1:1:140:140:0:2"};
  std::vector<std::string> rest;
  for (const std::string& line : b.lines) {
    if (!has_line(waited, line)) rest.push_back(line);
  }
  EXPECT_EQ(rest, a.lines);
  EXPECT_EQ(b.lines.size(), a.lines.size() + 2);
  EXPECT_EQ(b.comm_tags[2], 2u);
}

}  // namespace
}  // namespace tasklens::testing
