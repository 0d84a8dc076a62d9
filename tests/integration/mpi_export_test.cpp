// The exports of an MPI run (issue 21, docs/MPI.md "Exports"): the recording of mpi_test.cpp
// (2 ranks x 2 threads) exported whole, each rank a process with its threads, MPI calls drawn as
// regions of their own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "export/export_checks.h"
#include "mpi_recording.h"
#include "support/test_paths.h"
#include "support/trace_builder.h"

namespace tasklens::testing {
namespace {

// What otf2-print -G says of an archive: location groups, locations, regions entered.
struct Otf2Facts {
  std::map<uint64_t, std::string> groups;        // location group -> name
  std::map<uint64_t, uint64_t> location_group;   // location -> its group
  std::map<uint64_t, std::string> group_type;    // location group -> PROCESS, ...
  std::map<uint64_t, std::set<std::string>> entered;  // location -> regions entered there
  std::map<std::string, std::string> region_paradigm;  // region name -> paradigm
};

Otf2Facts otf2_facts(const std::string& text) {
  Otf2Facts f;
  std::istringstream in(text);
  std::string line;
  static const std::regex group(R"re(^LOCATION_GROUP\s+(\d+)\s+Name: "([^"]*)" <\d+>, Type: (\w+))re");
  static const std::regex location(
      R"re(^LOCATION\s+(\d+)\s+Name: "[^"]*" <\d+>, Type: \w+, # Events: \d+, Group: "[^"]*" <(\d+)>)re");
  static const std::regex enter(R"re(^ENTER\s+(\d+)\s+\d+\s+Region: "([^"]*)")re");
  static const std::regex region(R"re(^REGION\s+\d+\s+Name: "([^"]*)".*Paradigm: "(\w+)")re");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, group)) {
      f.groups[std::stoull(m[1])] = m[2];
      f.group_type[std::stoull(m[1])] = m[3];
    } else if (std::regex_search(line, m, location)) {
      f.location_group[std::stoull(m[1])] = std::stoull(m[2]);
    } else if (std::regex_search(line, m, enter)) {
      f.entered[std::stoull(m[1])].insert(m[2]);
    } else if (std::regex_search(line, m, region)) {
      f.region_paradigm[m[1]] = m[2];
    }
  }
  return f;
}

TEST(MpiExport, Otf2HasAProcessPerRankWithItsThreadsAndItsBarrier) {
  const MpiRecording& rec = mpi_recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  std::string anchor = scratch_dir("mpi-otf2") + "/run.otf2";
  CommandResult ex = run_command({tasklens_bin(), "export", rec.dir, "--to", "otf2", "-o", anchor});
  ASSERT_EQ(ex.status, 0) << ex.out << ex.err;
  EXPECT_NE(ex.out.find("2 ranks, a process each"), std::string::npos) << ex.out;
  CommandResult print = run_command({TASKLENS_OTF2_PRINT, "-G", anchor});  // definitions
  ASSERT_EQ(print.status, 0) << print.err;
  CommandResult events = run_command({TASKLENS_OTF2_PRINT, anchor});
  ASSERT_EQ(events.status, 0) << events.err;
  Otf2Facts f = otf2_facts(print.out + events.out);
  // Exactly one location group per rank, a process each, named after its rank.
  ASSERT_EQ(f.groups.size(), 2u) << print.out.substr(0, 4000);
  for (const auto& [g, name] : f.groups) {
    EXPECT_EQ(name.rfind("rank " + std::to_string(g) + ": ", 0), 0u) << name;
    EXPECT_EQ(f.group_type[g], "PROCESS");
  }
  // Each rank's two threads are its locations.
  std::map<uint64_t, int> threads;
  for (const auto& [loc, g] : f.location_group) ++threads[g];
  EXPECT_EQ(threads[0], 2);
  EXPECT_EQ(threads[1], 2);
  // The MPI_Barrier of each rank, entered on one of its threads; a region of paradigm MPI.
  std::set<uint64_t> barrier_groups;
  for (const auto& [loc, regions] : f.entered) {
    if (regions.count("MPI_Barrier")) barrier_groups.insert(f.location_group.at(loc));
  }
  EXPECT_EQ(barrier_groups, (std::set<uint64_t>{0, 1})) << print.out.substr(0, 4000);
  EXPECT_EQ(f.region_paradigm["MPI_Barrier"], "MPI");
}

// `protoc --decode_raw` of the Perfetto protobuf export: per rank a packet sequence of its own,
// its threads' process (pid rank * 1000 + 1, named "rank R: ... threads") with thread tracks
// (tid rank * 1000000 + thread + 1), and the MPI_Barrier slice's name interned in each sequence.
TEST(MpiExport, PerfettoProtobufHasAProcessPerRank) {
  const MpiRecording& rec = mpi_recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  if (std::string(TASKLENS_PROTOC).empty()) GTEST_SKIP() << "no protoc to decode the trace";
  std::string out = scratch_dir("mpi-pftrace") + "/run.pftrace";
  CommandResult ex = run_command({tasklens_bin(), "export", rec.dir, "--to", "perfetto", "-o", out});
  ASSERT_EQ(ex.status, 0) << ex.out << ex.err;
  CommandResult raw = run_command({"/bin/sh", "-c",
                                   std::string(TASKLENS_PROTOC) + " --decode_raw < '" + out + "'"});
  ASSERT_EQ(raw.status, 0) << raw.err;
  std::istringstream in(raw.out);
  std::string line, previous;
  std::set<std::string> sequences;
  std::map<std::string, std::string> process_pid;  // process name -> pid
  std::map<std::string, std::string> last_one;     // indentation -> the last field 1 there
  std::set<std::string> thread_ids;                 // "pid/tid"
  int barriers = 0;
  static const std::regex field(R"re(^(\s*)(\d+): (.*)$)re");
  std::smatch m, p;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, field)) {
      std::string indent = m[1], number = m[2], value = m[3];
      if (indent == "  " && number == "10") sequences.insert(value);
      if (number == "1") last_one[indent] = value;  // a descriptor's pid comes first
      if (number == "6" && value.rfind("\"rank ", 0) == 0) {
        process_pid[value.substr(1, value.size() - 2)] = last_one[indent];
      }
      if (number == "2" && std::regex_match(previous, p, field) && p[2] == "1") {
        thread_ids.insert(std::string(p[3]) + "/" + value);
      }
      if (value == "\"MPI_Barrier\"") ++barriers;
    }
    previous = line;
  }
  EXPECT_EQ(sequences, (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(process_pid["rank 0: mpi_tasks threads"], "1") << raw.out.substr(0, 3000);
  EXPECT_EQ(process_pid["rank 1: mpi_tasks threads"], "1001");
  for (const char* t : {"1/1", "1/2", "1001/1000001", "1001/1000002"}) {
    EXPECT_TRUE(thread_ids.count(t)) << t;
  }
  EXPECT_EQ(barriers, 2);  // interned once in each rank's sequence: a slice on each rank
}

// Paraver (docs/EXPORTS.md, "MPI runs"): one trace for the run, a Paraver task per rank in each
// application, each rank's two threads as its threads; a region has one value for the whole run;
// the MPI calls are Extrae's event types and states; rank 0's wait in the barrier is its MPI
// collective state.
TEST(MpiExport, ParaverHasATaskPerRankAndOneValuePerRegion) {
  const MpiRecording& rec = mpi_recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  std::string base = scratch_dir("mpi-paraver") + "/run";
  CommandResult ex =
      run_command({tasklens_bin(), "export", rec.dir, "--to", "paraver", "-o", base + ".prv"});
  ASSERT_EQ(ex.status, 0) << ex.out << ex.err;
  EXPECT_NE(ex.out.find("2 ranks, a process each"), std::string::npos) << ex.out;
  ParaverFacts f;
  std::vector<std::string> bad = check_paraver(base, &f);
  EXPECT_TRUE(bad.empty()) << ::testing::PrintToString(bad);
  std::ifstream prv(base + ".prv");
  std::string header;
  std::getline(prv, header);
  // Application 1: two tasks (ranks) of two threads on node 1; application 2: their task rows.
  static const std::regex form(R"(#Paraver \(.*\):\d+_ns:1\(4\):2:2\(2:1,2:1\):2\((\d+):1,(\d+):1\))");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(header, m, form)) << header;
  // Each rank's 20 tasks, its initial and 2 implicit tasks have a task-view row.
  EXPECT_EQ(m[1], "23");
  EXPECT_EQ(m[2], "23");
  // Every record of application 1 belongs to task 1 or 2; both ranks' threads have records.
  std::set<std::string> objects;
  for (const std::string& line : f.lines) {
    std::vector<std::string> v;
    std::stringstream in(line);
    for (std::string p; std::getline(in, p, ':');) v.push_back(p);
    if (v.size() > 4 && v[2] == "1") objects.insert(v[3] + "." + v[4]);
  }
  EXPECT_EQ(objects, (std::set<std::string>{"1.1", "1.2", "2.1", "2.2"}));
  // The .pcf names each region once: the task construct of both ranks is one value.
  std::ifstream pcf(base + ".pcf");
  std::string text((std::istreambuf_iterator<char>(pcf)), std::istreambuf_iterator<char>());
  size_t regions_at = text.find("60000001");
  ASSERT_NE(regions_at, std::string::npos);
  std::string regions = text.substr(regions_at, text.find("EVENT_TYPE", regions_at) - regions_at);
  std::regex task_value(R"(\n\d+ +task mpi_tasks\.c:\d+\n)");
  EXPECT_EQ(std::distance(std::sregex_iterator(regions.begin(), regions.end(), task_value),
                          std::sregex_iterator()),
            1)
      << regions;
  // Extrae's MPI types: the barrier (8) and the allreduce (10) collectives, Init and Finalize.
  EXPECT_NE(text.find("50000002    MPI Collective Comm"), std::string::npos);
  EXPECT_NE(text.find("8      MPI_Barrier"), std::string::npos);
  EXPECT_NE(text.find("31     MPI_Init"), std::string::npos);
  EXPECT_GE(f.event_types[50000002], 8u);  // 2 collectives x (enter, leave) x 2 ranks
  // Rank 0 waits in the barrier: its MPI collective state (14) lasts about as long as the wait
  // the program measured (the whole time of both collectives: at least the barrier).
  uint64_t collective_ns = 0;
  for (const std::string& line : f.lines) {
    std::vector<std::string> v;
    std::stringstream in(line);
    for (std::string p; std::getline(in, p, ':');) v.push_back(p);
    if (v.size() == 8 && v[0] == "1" && v[2] == "1" && v[3] == "1" && v[7] == "14") {
      collective_ns += std::stoull(v[6]) - std::stoull(v[5]);
    }
  }
  std::smatch b;
  static const std::regex barrier(R"(rank=0 .*barrier_ns=(\d+))");
  ASSERT_TRUE(std::regex_search(rec.run.out, b, barrier)) << rec.run.out;
  EXPECT_GE(collective_ns, std::stoull(b[1])) << "rank 0's barrier: " << b[1];
}

// A format that exports one rank says so and names those that export the run; a whole-run
// export refuses standard output.
TEST(MpiExport, OneRankFormatsAndStdoutAreRefusedWithTheWayOut) {
  const MpiRecording& rec = mpi_recording();
  ASSERT_EQ(rec.run.status, 0) << rec.run.err;
  std::string dir = scratch_dir("mpi-refused");
  CommandResult dot = run_command({tasklens_bin(), "export", rec.dir, "--to", "dot", "-o",
                                   dir + "/run.dot"});
  EXPECT_EQ(dot.status, 2);
  EXPECT_NE(dot.err.find("--to dot exports one rank, give its folder"), std::string::npos)
      << dot.err;
  EXPECT_NE(dot.err.find("otf2, paraver, perfetto and perfetto-json (to a file) export every rank"),
            std::string::npos)
      << dot.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/run.dot"));
  CommandResult out = run_command({tasklens_bin(), "export", rec.dir, "--to", "perfetto", "-o", "-"});
  EXPECT_EQ(out.status, 2);
  EXPECT_TRUE(out.out.empty());
  EXPECT_NE(out.err.find("not to standard output"), std::string::npos) << out.err;
}

}  // namespace
}  // namespace tasklens::testing
