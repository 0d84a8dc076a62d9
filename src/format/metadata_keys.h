// The member names of experiment.json (docs/FORMAT.md, "experiment.json"), each named once here.
// The recorder writes them with JsonOut (session.cpp, loaded_objects.cpp), the reader and the
// test writer read and write them through format::Metadata (metadata.cpp). Plain constants: the
// recorder includes this header without linking anything.
#pragma once

namespace tasklens::format::key {

// The value of "format": what marks a directory as a tasklens experiment.
inline constexpr char kFormatMarker[] = "tasklens-experiment";
// The value of "format" in mpi-run.json: an MPI run's directory (docs/MPI.md).
inline constexpr char kMpiRunMarker[] = "tasklens-mpi-run";

// Top level.
inline constexpr char kFormat[] = "format";
inline constexpr char kFormatVersion[] = "format_version";
inline constexpr char kTool[] = "tool";
inline constexpr char kStatus[] = "status";
inline constexpr char kMode[] = "mode";  // "trace" or "profile" (format/profile_file.h)
inline constexpr char kEndReason[] = "end_reason";
inline constexpr char kProgram[] = "program";
inline constexpr char kParent[] = "parent";
inline constexpr char kProcesses[] = "processes";
inline constexpr char kHost[] = "host";
inline constexpr char kStartUnixNs[] = "start_unix_ns";
inline constexpr char kProcess[] = "process";
inline constexpr char kMachine[] = "machine";
inline constexpr char kPreemption[] = "preemption";
inline constexpr char kRuntime[] = "runtime";
inline constexpr char kClock[] = "clock";
inline constexpr char kThreads[] = "threads";
inline constexpr char kRecorder[] = "recorder";
inline constexpr char kExplicitTasks[] = "explicit_tasks";
inline constexpr char kCounts[] = "counts";
inline constexpr char kObjects[] = "objects";
inline constexpr char kStrings[] = "strings";
// The perf_event counters of `counters` events (`tasklens run --counters`), by index.
inline constexpr char kCounterNames[] = "counters";
inline constexpr char kMpi[] = "mpi";

// tool
inline constexpr char kName[] = "name";
inline constexpr char kVersion[] = "version";  // also runtime.version
inline constexpr char kLibrary[] = "library";

// program, parent, processes[]
inline constexpr char kPid[] = "pid";
inline constexpr char kArgs[] = "args";
inline constexpr char kPath[] = "path";  // also objects[].path
inline constexpr char kPpid[] = "ppid";
inline constexpr char kTopPid[] = "top_pid";
inline constexpr char kExperiment[] = "experiment";
inline constexpr char kDir[] = "dir";

// process
inline constexpr char kStartNs[] = "start_ns";
inline constexpr char kStartSource[] = "start_source";

// machine
inline constexpr char kAffinityCpus[] = "affinity_cpus";
inline constexpr char kOnlineCpus[] = "online_cpus";

// preemption
inline constexpr char kSource[] = "source";  // also clock.source
inline constexpr char kError[] = "error";
inline constexpr char kPerfEventParanoid[] = "perf_event_paranoid";
inline constexpr char kRecords[] = "records";
inline constexpr char kLost[] = "lost";  // also threads[].lost

// runtime
inline constexpr char kCode[] = "code";
inline constexpr char kCallbacks[] = "callbacks";

// clock
inline constexpr char kInvariantTsc[] = "invariant_tsc";
inline constexpr char kStart[] = "start";
inline constexpr char kEnd[] = "end";
inline constexpr char kTicks[] = "ticks";
inline constexpr char kNs[] = "ns";
inline constexpr char kEndIsFinal[] = "end_is_final";

// threads[]
inline constexpr char kIndex[] = "index";
inline constexpr char kOsTid[] = "os_tid";
inline constexpr char kEvents[] = "events";
inline constexpr char kChunks[] = "chunks";
inline constexpr char kBytes[] = "bytes";
inline constexpr char kCpuNs[] = "cpu_ns";
inline constexpr char kInvoluntarySwitches[] = "involuntary_switches";
inline constexpr char kRunDelayNs[] = "run_delay_ns";

// recorder
inline constexpr char kBufferBytes[] = "buffer_bytes";
inline constexpr char kChunkBytes[] = "chunk_bytes";
inline constexpr char kChunkEvents[] = "chunk_events";
inline constexpr char kPeakChunksInUse[] = "peak_chunks_in_use";
inline constexpr char kOverflow[] = "overflow";
inline constexpr char kEventsWritten[] = "events_written";
inline constexpr char kEventsLost[] = "events_lost";
inline constexpr char kThreadsRefused[] = "threads_refused";
inline constexpr char kStallTicks[] = "stall_ticks";
inline constexpr char kTimesClamped[] = "times_clamped";
inline constexpr char kWriterCpuNs[] = "writer_cpu_ns";
inline constexpr char kRunDelayBeforeNs[] = "run_delay_before_ns";
inline constexpr char kWriteError[] = "write_error";
inline constexpr char kDiskFull[] = "disk_full";

// mpi (docs/MPI.md)
inline constexpr char kRank[] = "rank";
inline constexpr char kSize[] = "size";
// mpi-run.json: ranks[] (kRank, kDir)
inline constexpr char kRanks[] = "ranks";

// objects[]
inline constexpr char kBase[] = "base";

}  // namespace tasklens::format::key
