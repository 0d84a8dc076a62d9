// Readers that check what the exports wrote, independently of the exporters' code:
//   * Paraver: a syntax check of .prv/.pcf/.row written from the format's description (header,
//     record syntax, time order, object ids in range, every state and event value named);
//   * Perfetto JSON: it parses, every B is closed by an E on its track in order, flows pair up;
//   * Perfetto protobuf: decoded by a reader of the fields the export writes, written from
//     Perfetto's protos (perfetto_proto_check.cpp), with the same checks and the same facts;
//   * OTF2: the archive read back by otf2-print, its records parsed, enter/leave nesting checked.
// Each check returns the problems it found (empty: fine) and the facts tests compare.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tasklens::testing {

struct ParaverFacts {
  uint64_t end_ns = 0;  // the header's final time
  uint32_t cpus = 0;
  std::vector<uint32_t> threads_per_appl;  // rows of each application (one task each)
  uint64_t states = 0, events = 0, comms = 0;
  std::map<uint64_t, uint64_t> comm_tags;    // tag -> communications
  std::map<uint64_t, uint64_t> state_time;   // state -> total ns (all rows)
  std::map<uint64_t, uint64_t> event_types;  // type -> values written
  std::vector<std::string> lines;            // the .prv records (without the header)
  // Event lines of an object and time that an earlier line of that time already has (the
  // export writes the events of one object at one time on one line).
  uint64_t split_event_lines = 0;
};
std::vector<std::string> check_paraver(const std::string& base, ParaverFacts* facts = nullptr);

// A slice as both Perfetto encodings say it, for comparing them.
struct PerfettoSlice {
  std::string track;  // "process name / thread or lane name"
  std::string name;
  uint64_t begin_ns = 0, end_ns = 0;
  std::string args;  // "task=T0#3 parent=T0#2" (in the order written)
  auto key() const { return std::tie(track, begin_ns, end_ns, name, args); }
  bool operator<(const PerfettoSlice& o) const { return key() < o.key(); }
  bool operator==(const PerfettoSlice& o) const { return key() == o.key(); }
};
// A flow arrow: from a point on a track to the slice beginning at `to_ns` on another.
struct PerfettoFlow {
  std::string kind;  // "create", "dependence", "migration"
  std::string from_track;
  uint64_t from_ns = 0;
  std::string to_track;
  uint64_t to_ns = 0;
  auto key() const { return std::tie(kind, from_track, from_ns, to_track, to_ns); }
  bool operator<(const PerfettoFlow& o) const { return key() < o.key(); }
  bool operator==(const PerfettoFlow& o) const { return key() == o.key(); }
};

struct PerfettoFacts {
  uint64_t events = 0;  // trace events (metadata included); protobuf: trace packets
  uint64_t slices = 0;  // B/E pairs
  uint64_t counters = 0;
  std::map<std::string, uint64_t> flows;  // category -> paired flows
  uint64_t unended_creations = 0;         // creation arrows whose task did not start where shown
  uint64_t interned_values = 0;           // protobuf: annotation values interned (task ids)
  uint64_t counter_packets = 0;           // protobuf: counter values in packets of their own
  std::map<std::string, uint64_t> slice_names;   // name -> slices
  std::set<std::pair<int64_t, int64_t>> tracks;  // (pid, tid) with slices (protobuf: lanes are
                                                 // numbered 1, 2, ... in their process)
  std::vector<PerfettoSlice> slice_list;         // sorted
  std::vector<PerfettoFlow> flow_list;           // sorted
  uint64_t bytes = 0;                            // the file's size
};
std::vector<std::string> check_perfetto(const std::string& path, PerfettoFacts* facts = nullptr);
std::vector<std::string> check_perfetto_proto(const std::string& path,
                                              PerfettoFacts* facts = nullptr);

struct Otf2Record {
  std::string kind;  // ENTER, LEAVE, THREAD_TASK_SWITCH, ...
  uint32_t location = 0;
  uint64_t time = 0;
  std::string region;  // ENTER/LEAVE: the region's name
  std::string task;    // THREAD_TASK_*: "T<creating thread>#<generation>"
};
struct Otf2Print {
  int status = -1;
  std::string err;
  std::vector<Otf2Record> records;
  std::map<std::string, uint64_t> counts;  // kind -> records
};
// Runs otf2-print on the anchor file and parses its event lines.
Otf2Print read_otf2(const std::string& anchor);
// Enter/leave nested per location, times not decreasing per location.
std::vector<std::string> check_otf2_nesting(const Otf2Print& p);
// "ENTER 0 50 task 0x2000", "THREAD_TASK_SWITCH 1 70 T0#3", ... without METRIC records.
std::vector<std::string> otf2_lines(const Otf2Print& p);

// The checks as test expectations (a failure lists the problems); the facts for more.
ParaverFacts expect_valid_paraver(const std::string& base);
PerfettoFacts expect_valid_perfetto(const std::string& path);
PerfettoFacts expect_valid_perfetto_proto(const std::string& path);
Otf2Print expect_valid_otf2(const std::string& anchor);  // otf2-print succeeds, nesting holds

std::string otf2_print_bin();
std::string dot_bin();
std::string protoc_bin();  // "" when protoc was not found at configure time

// Counts of the experiment's events by kind name (dump's names), and of task_schedule statuses
// ("task_schedule:complete"), from `tasklens dump --json`.
std::map<std::string, uint64_t> dumped_counts(const std::string& dir);

}  // namespace tasklens::testing
