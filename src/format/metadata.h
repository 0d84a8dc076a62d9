// experiment.json as a typed struct (docs/FORMAT.md, "experiment.json"): what the tools after the
// run read of it, and what the test writer writes. The keys are named once, in metadata_keys.h;
// only format/ turns this struct into JSON and back. A member missing from the file reads as its
// default (0, "", empty); the optional ones say whether the file had them at all.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tasklens::format {

struct Metadata {
  struct Tool {
    std::string name, version, library;
  };
  struct Program {
    int64_t pid = 0;
    std::vector<std::string> args;  // argv, argv[0] first
    std::string path;               // the executable
  };
  // Set when the process was started, directly or not, by the process of the directory above.
  struct Parent {
    int64_t ppid = 0, top_pid = 0;
    std::string experiment;
  };
  struct ChildProcess {  // processes[]: a pid-N folder of a descendant process
    int64_t pid = 0;
    std::string dir;
  };
  struct Process {
    uint64_t start_ns = 0;  // CLOCK_MONOTONIC; 0: unknown (the run starts with the recorder)
    std::string start_source;
  };
  struct Machine {
    uint64_t affinity_cpus = 0, online_cpus = 0;
  };
  struct Preemption {
    std::string source, error;
    int64_t perf_event_paranoid = 0;
    uint64_t records = 0, lost = 0;
  };
  struct Runtime {
    std::string version;
    std::optional<std::pair<uint64_t, uint64_t>> code;  // the runtime's code span [begin, end)
    std::map<std::string, std::string> callbacks;      // OMPT callback -> registration result
  };
  struct ClockSample {
    uint64_t ticks = 0, ns = 0;
    bool operator==(const ClockSample& o) const { return ticks == o.ticks && ns == o.ns; }
  };
  struct ClockInfo {
    std::string source;  // "tsc" or "monotonic"; "" when absent
    bool invariant_tsc = false;
    ClockSample start, end;
    bool end_is_final = false;
  };
  struct Thread {
    uint64_t index = 0;
    int64_t os_tid = 0;
    uint64_t events = 0, chunks = 0, bytes = 0, lost = 0;
    std::optional<uint64_t> cpu_ns, involuntary_switches;  // taken by the thread at its end
    // Its wait on a run queue while runnable (the kernel's schedstat), at its end or the run's.
    std::optional<uint64_t> run_delay_ns;
  };
  struct Recorder {
    uint64_t buffer_bytes = 0, chunk_bytes = 0, chunk_events = 0, peak_chunks_in_use = 0;
    std::string overflow;  // "block" or "drop"
    uint64_t events_written = 0, events_lost = 0, threads_refused = 0, stall_ticks = 0;
    uint64_t times_clamped = 0, writer_cpu_ns = 0;
    std::string write_error;
    bool disk_full = false;
    // The run-queue wait of the thread that started the recorder, before it started (the
    // kernel's schedstat then): a wait that neither the writer nor the switch records saw.
    std::optional<uint64_t> run_delay_before_ns;
  };
  struct Mpi {  // the MPI rank this process was (docs/MPI.md); absent outside MPI
    int64_t rank = 0, size = 0;  // size 0: the launcher did not say
  };
  struct LoadedObject {  // objects[]: where each object of the process was loaded
    std::string path;
    uint64_t base = 0;
  };

  std::string format;  // key::kFormatMarker
  uint64_t format_version = 0;
  Tool tool;
  std::string status;      // running, complete, crashed, interrupted; "" when absent
  std::string end_reason;  // "exit", "signal 11 (SEGV)"; "" when absent
  // "trace", or "profile" for `tasklens run --mode profile` (profile.json, no streams); "" when
  // absent (older recorders: a trace).
  std::string mode;
  bool profile_mode() const { return mode == "profile"; }
  // What every reader of events (replays, commands, report sections) says of a profile-mode
  // experiment.
  static constexpr char kNeedsTrace[] = "needs a trace: run without --mode profile";
  Program program;
  std::optional<Parent> parent;
  std::vector<ChildProcess> processes;
  std::string host;
  uint64_t start_unix_ns = 0;
  Process process;
  Machine machine;
  std::optional<Preemption> preemption;
  Runtime runtime;
  ClockInfo clock;
  std::vector<Thread> threads;
  Recorder recorder;
  // Explicit tasks created, as the recorder counted them (task_flag::kExplicit task_create
  // events: format::creates_explicit_task); absent in files of older recorders.
  std::optional<uint64_t> explicit_tasks;
  // Events per kind name (layout(kind).name); absent in files of older recorders.
  std::optional<std::map<std::string, uint64_t>> counts;
  std::optional<Mpi> mpi;
  std::vector<LoadedObject> objects;
  std::vector<std::string> strings;  // user-API names; id i is strings[i - 1]
  // The counters of the trace's `counters` events, by index (at most kMaxCounters kept).
  std::vector<std::string> counters;

  // counts[kind], 0 when absent.
  uint64_t count(const char* kind) const;
  // The program's name: the basename of program.path ("?" when unknown).
  std::string program_name() const;
};

// Reads the struct from parsed experiment.json. Members of another type than the struct's read
// as absent (open_experiment has said and dropped the ones the tools depend on).
Metadata metadata_from_json(const nlohmann::json& j);
// The JSON of `m`, as the recorder writes it (members absent in `m` are left out).
nlohmann::json metadata_to_json(const Metadata& m);

// A code address as the metadata writes it: a hex string ("0x7f12..."); 0 when it is not one.
uint64_t hex_address(const nlohmann::json& v);

}  // namespace tasklens::format
