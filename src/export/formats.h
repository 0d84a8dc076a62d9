// The converters, one per format (one .cpp file each): each is a replay pass (timeline.h for
// the three timeline formats) plus a finish step. export.cpp picks one.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "export/export.h"
#include "replay/symbolizer.h"

namespace tasklens::exports {

// Every factory: the experiment, the output path, the options, the symbolizer naming code
// addresses (nullptr: raw addresses). Errors: the output cannot be written.
using MakeExporter = Result<std::unique_ptr<Exporter>>(const format::Experiment& x,
                                                       const std::string& out,
                                                       const ExportOptions& o,
                                                       replay::Symbolizer* symbols);

// OTF2 export through the OTF2 library (Vampir, Scalasca, the Score-P tool chain read it): one
// location per thread, a region per construct and per task construct, enter/leave nested per
// location (tasks' contexts left and re-entered around suspensions, see timeline.h), the
// ThreadTaskCreate/Switch/Complete records of OTF2 1.2+, fork/join and team records, user
// parameters, and a "ready tasks" metric. Timestamps in ns (timer resolution 1e9).
//
// `out` is the archive: "dir/name.otf2" writes the anchor file there (name.def and name/ beside
// it); any other path is a directory that receives traces.otf2, traces.def and traces/.
MakeExporter make_otf2_exporter;

// Paraver export (.prv records, .pcf names, .row object names), times in ns. Two applications:
//   1. the thread view: one row per thread, its state (running a task, idle, synchronization,
//      runtime overhead, not created) and events for the innermost region, the running task's
//      construct and instance, the number of ready tasks and user parameters;
//   2. the task view (Extrae/Paraver, Servat et al., Fig. 2b/2d): one row per task instance with its state (created,
//      ready, running, suspended, detached) and the thread executing it. Above
//      ExportOptions::max_task_rows instances, rows are shared by instances that do not overlap
//      in time (the executing task is an event of each row).
// Task creation, dependences and migrations are communications (tags 1, 2, 3) in the thread
// view; creation and dependences also in the task view. Records are sorted by time through an
// external sort, so memory does not grow with the trace.
//
// `out` names the trace: "dir/name.prv" or "dir/name" writes dir/name.prv, .pcf and .row.
MakeExporter make_paraver_exporter;

// Paraver's numbers, as the .pcf names them.
namespace paraver {
enum State : uint32_t {
  kIdle = 0,
  kRunning = 1,
  kNotCreated = 2,
  kCreated = 3,  // task view: created, not ready yet (dependences, or not started undeferred)
  kReady = 4,
  kSynchronization = 5,
  kSuspended = 6,
  kOverhead = 7,
  kDetached = 8,
};
constexpr uint32_t kTypeRegion = 60000001;        // innermost open region (0: none)
constexpr uint32_t kTypeTaskConstruct = 60000002;  // construct of the running / this task
constexpr uint32_t kTypeTaskInstance = 60000003;   // the running task instance
constexpr uint32_t kTypeReadyTasks = 60000004;     // number of ready tasks
constexpr uint32_t kTypeThread = 60000005;         // task view: executing thread + 1 (0: none)
constexpr uint32_t kTypeParameter = 60000100;      // + n: the n-th user parameter's value
constexpr uint32_t kTagCreation = 1, kTagDependence = 2, kTagMigration = 3;
}  // namespace paraver

// Perfetto / Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing):
//   * process "threads": a track per thread with nested B/E slices for tasks and constructs (the
//     same nesting as the OTF2 export), and a counter track "ready tasks";
//   * one process per task construct ("tasks: task fib.c:39"): each instance is a slice from its
//     first start to its completion on one of the construct's lanes (instances that overlap in
//     time take different lanes), with nested slices while it is suspended, ready or detached;
//   * flow arrows for task creation (creator -> first start), dependences (predecessor's end ->
//     successor's start) and migrations (where a task left -> where it resumed).
// Times are in microseconds with nanosecond decimals; displayTimeUnit is ns.
MakeExporter make_perfetto_exporter;

// The task graph as Graphviz DOT. Small graphs: one node per task (its construct, id and running
// time), creation edges (parent -> child), dependence edges (predecessor -> successor) and one
// join node per taskwait (children created since the previous taskwait -> taskwait). Large
// graphs: one node per task construct and per taskwait construct, weighted by instances and
// running time, with the same edges counted. ExportOptions::graph chooses; kAuto switches to the
// collapsed graph above ExportOptions::max_graph_tasks tasks (memory stays bounded either way).
MakeExporter make_dot_exporter;

// Makes an exporter of type E and opens its output (E::open() -> Result<bool>).
template <class E, class... Args>
Result<std::unique_ptr<Exporter>> open_exporter(Args&&... args) {
  auto e = std::make_unique<E>(std::forward<Args>(args)...);
  auto opened = e->open();
  if (!opened) return opened.error();
  return std::unique_ptr<Exporter>(std::move(e));
}

}  // namespace tasklens::exports
