// `tasklens export`: converts an experiment to another tool's format in one replay, without
// holding the trace in memory. One file per format (otf2_export, paraver_export,
// perfetto_proto_export, perfetto_json_export, dot_export); the mapping of each is documented in
// docs/EXPORTS.md.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/experiment.h"
#include "format/mpi_run.h"
#include "format/result.h"
#include "replay/pass.h"
#include "replay/replay.h"

namespace tasklens::symbols {
class Symbolizer;
}

namespace tasklens::exports {

// How the DOT export draws the task graph.
enum class GraphDetail { kAuto, kTasks, kConstructs };

struct ExportOptions {
  uint64_t from_ns = 0;
  uint64_t to_ns = std::numeric_limits<uint64_t>::max();
  std::vector<uint32_t> threads;  // empty: every thread
  bool symbols = true;            // source locations for code addresses (llvm-symbolizer)
  // Perfetto: above this many trace events the output is too big for a browser: warn (once: not
  // again at the end when the caller said so before writing, browser_warned).
  uint64_t browser_events = 1000000;
  bool browser_warned = false;
  // DOT: one node per task up to this many tasks and this many dependence edges between tasks
  // (kAuto), else one node per task construct. Graphviz's layout time grows steeply with
  // dependence edges across a wide graph: KaStORS sparselu's 305 took 1.7 s, 510 took 17 s, 1001
  // did not finish in 5 minutes (a tree of 1218 tasks without dependences: 1 s).
  GraphDetail graph = GraphDetail::kAuto;
  uint64_t max_graph_tasks = 2000;
  uint64_t max_graph_dependences = 300;
  // Paraver: one task-view row per task instance up to this many tasks, else rows are reused by
  // tasks that do not overlap in time.
  uint64_t max_task_rows = 20000;
  // Paraver: records sorted in memory per run before spilling to a temporary file.
  size_t sort_run_records = size_t(1) << 20;
};

struct ExportSummary {
  std::vector<std::string> files;  // what was written
  uint64_t events_in = 0;          // events replayed
  uint64_t records_out = 0;        // records written (the format's unit, see `unit`)
  std::string unit;                // "events", "records", "trace events", "nodes and edges"
  std::vector<std::string> notes;  // warnings and facts worth a line
};

// One format's converter: a replay pass, then a finish step that writes what remains.
class Exporter {
 public:
  virtual ~Exporter() = default;
  virtual replay::Pass& pass() = 0;
  virtual Result<ExportSummary> finish(const replay::ReplayStats& stats) = 0;
};

// A converter's factory: the experiment, the output path, the options, the symbolizer naming
// code addresses (nullptr: raw addresses). Errors: the output cannot be written.
using MakeExporter = Result<std::unique_ptr<Exporter>>(const format::Experiment& x,
                                                       const std::string& out,
                                                       const ExportOptions& o,
                                                       symbols::Symbolizer* symbols);

// A converter of a whole MPI run (docs/MPI.md: every rank into one output, on one time line).
using ExportRun = Result<ExportSummary>(const format::MpiRun& run, const std::string& out,
                                        const ExportOptions& o, const replay::Progress& progress);

// What `tasklens export` knows of a format. Each converter defines its own beside its code
// (otf2_export.cpp, ...); registry.cpp lists them, and the command
// line, its --help and export_experiment() read that list. A new format is a new file and a row there.
struct ExportFormat {
  std::string_view name;                       // --to NAME
  std::array<std::string_view, 2> aliases;     // other names --to accepts ("" = none)
  std::array<std::string_view, 2> extensions;  // -o PATH ending so picks the format
  bool to_stdout;                              // -o - writes to standard output
  std::string_view output;                     // what -o names (for --help)
  std::string_view help;                       // one line: what it is for
  // Bytes written per recorded event, on the high side of what fib and BOTS uts traces gave
  // (the size check before a whole-trace export); 0: the output does not grow with events.
  uint32_t bytes_per_event;
  MakeExporter* make;
  ExportRun* run;  // nullptr: the format exports one rank of an MPI run at a time
};

// Every format, in the order --help lists them.
const std::vector<const ExportFormat*>& export_formats();
// The format called `name` (or one of its aliases); nullptr if none.
const ExportFormat* find_export_format(std::string_view name);
// The format whose extension `path` ends in; nullptr if none.
const ExportFormat* export_format_for_path(std::string_view path);
// "otf2, paraver, perfetto, perfetto-json, dot" (with `separator`).
std::string export_format_names(std::string_view separator = ", ");

// Checks the options against the experiment (threads that exist, a window inside the run).
Result<bool> check_options(const format::Experiment& x, const ExportOptions& o);

// Converts `x` to `format` at `out` (a file, a base name or a directory: see docs/EXPORTS.md).
// Errors (bad options, unwritable output, unreadable trace) are one line each.
Result<ExportSummary> export_experiment(const format::Experiment& x, const ExportFormat& format,
                                        const std::string& out, const ExportOptions& o,
                                        const replay::Progress& progress = nullptr);

}  // namespace tasklens::exports
