// Paraver export: the timeline of an experiment written into a Paraver trace (paraver_trace.h:
// the objects, the values and the files), times in ns. Two applications:
//   1. the thread view: one row per thread, its state (running a task, idle, synchronization,
//      runtime overhead, not created) and events for the innermost region, the running task's
//      construct and instance, the number of ready tasks and user parameters;
//   2. the task view (Extrae/Paraver, Servat et al., Fig. 2b/2d): one row per task instance with
//      its state (created, ready, running, suspended, detached) and the thread executing it. Above
//      ExportOptions::max_task_rows instances, rows are shared by instances that do not overlap
//      in time (the executing task is an event of each row).
// Task creation, dependences and migrations are communications (tags 1, 2, 3) in the thread
// view; creation and dependences also in the task view.
//
// `out` names the trace: "dir/name.prv" or "dir/name" writes dir/name.prv, .pcf and .row.
#include <fmt/format.h>

#include <functional>
#include <queue>

#include "export/formats.h"
#include "export/mpi_ranks.h"
#include "export/output.h"
#include "export/paraver_mpi.h"
#include "export/paraver_trace.h"
#include "export/timeline_exporter.h"
#include "format/kinds.h"
#include "format/plural.h"

namespace tasklens::exports {
using namespace paraver;
using replay::TaskState;

namespace {

constexpr uint32_t kTaskRow = ParaverTrace::kTaskRow;
constexpr uint32_t kNoState = 0xffffffffu;
constexpr uint8_t kEnded = 0xff;  // TimelineTask::sink_state of a task whose row was given back

uint32_t state_value(ThreadState s) {
  switch (s) {
    case ThreadState::kNotCreated:
      return kNotCreated;
    case ThreadState::kIdle:
      return kIdle;
    case ThreadState::kRunning:
      return kRunning;
    case ThreadState::kSynchronization:
      return kSynchronization;
    case ThreadState::kOverhead:
      return kOverhead;
  }
  return kIdle;
}

uint32_t state_value(TaskState s) {
  switch (s) {
    case TaskState::kInitialized:
      return kCreated;
    case TaskState::kReady:
      return kReady;
    case TaskState::kRunning:
      return kRunning;
    case TaskState::kSuspended:
      return kSuspended;
    case TaskState::kDetached:
      return kDetached;
    default:
      return kNoState;  // executed (transient), completed, cancelled
  }
}

// The task a TimelineTask::slot describes: serial number (from 1) and task-view row + 1.
uint32_t slot_serial(uint64_t slot) {
  return uint32_t(slot);
}
uint32_t slot_row(uint64_t slot) {
  return uint32_t(slot >> 32);
}  // 0: no row
uint64_t make_slot(uint32_t serial, uint32_t row_plus_one) {
  return uint64_t(serial) | (uint64_t(row_plus_one) << 32);
}

// Where one experiment goes in the trace: alone, or one rank of an MPI run (a Paraver task).
struct ParaverPlace {
  std::string name;  // "rank 1" (empty alone)
  RankClock clock;   // its times on the run's time line (identity alone)
};

class ParaverExporter final : public TimelineExporter {
 public:
  // `trace` outlives the exporter; `owned` when the exporter writes it (one experiment).
  ParaverExporter(const format::Experiment& x, const ExportOptions& o, symbols::Symbolizer* symbols,
                  ParaverTrace* trace, std::unique_ptr<ParaverTrace> owned, ParaverPlace place)
      : TimelineExporter(x, o, symbols),
        trace_(trace),
        owned_(std::move(owned)),
        place_(std::move(place)),
        prefix_(trace_->keep(place_.name.empty() ? "" : plain_label(place_.name + ": "))),
        moved_(place_.clock.shift_ns != 0 || place_.clock.drift != 0) {}

  Result<bool> open() { return owned_ ? owned_->open() : Result<bool>(true); }
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  struct ThreadRow {
    bool shown = false;
    uint32_t row = 0;
    uint32_t state = kNoState;  // the state shown since `since`
    uint64_t since = 0;
    uint32_t timeline = kNoState;   // the timeline's state (shown when not in an MPI call)
    uint32_t mpi = kNoState;        // the state of the MPI call the thread is in
    std::vector<uint32_t> regions;  // open regions (values), innermost last
    // perf_event counters: the running totals at the previous sample (valid: bit i set).
    uint64_t counter_last[format::kMaxCounters] = {};
    uint32_t counter_valid = 0;
  };

  // TimelineSink
  void begin(const TimelineInfo& info) override;
  void enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) override;
  void leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) override;
  void task_create(uint32_t th, uint64_t t, TimelineTask& task,
                   const TimelineTask* parent) override;
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override;
  void wait_dependences(uint32_t th, uint64_t t, TimelineTask& task,
                        const std::vector<DepIn>& deps) override;
  // The dependences reaching `task` at t on the thread (its start, or the end of its `taskwait
  // depend`): predecessor's thread -> this thread, predecessor's row -> the task's row. Inline:
  // every task's first switch passes here.
  [[gnu::always_inline]] inline void dependence_comms(uint32_t th, uint64_t t,
                                                      const TimelineTask& task,
                                                      const std::vector<DepIn>& deps);
  void task_state(uint64_t t, TimelineTask& task, TaskState state) override;
  void task_alive_at_end(uint64_t t, TimelineTask& task) override;
  void thread_state(uint32_t th, uint64_t t, ThreadState state) override;
  void ready_tasks(uint64_t t, uint64_t count) override;
  void parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) override;
  void counter_value(uint32_t th, uint64_t t, uint32_t index, uint64_t value) override;
  void end(uint64_t t) override;

  // Per record: one flag tested, not the clock's two fields (identity for one experiment).
  uint64_t ts(uint64_t t) const { return moved_ ? place_.clock.map_moved(t) : t; }
  void event(uint32_t row, uint64_t t, uint32_t type, int64_t value) {
    trace_->event(row, ts(t), type, value);
  }
  void state(uint32_t row, uint64_t begin, uint64_t end, uint32_t value) {
    trace_->state(row, ts(begin), ts(end), value);
  }
  void comm(uint32_t from_row, uint64_t from_t, uint32_t to_row, uint64_t to_t, uint32_t tag) {
    trace_->comm(from_row, ts(from_t), to_row, ts(to_t), tag);
  }
  // The trace's value of region `id` of this experiment's table (regions are numbered in the
  // table's order, so one experiment alone keeps the table's ids).
  uint32_t value(uint32_t id);
  // Gives the task its serial number (and its task-view row if the view shows it), once: most
  // calls find it numbered, inline.
  [[gnu::always_inline]] void number(TimelineTask& task) {
    if (!task.slot) assign_number(task);
  }
  [[gnu::noinline]] void assign_number(TimelineTask& task);
  // The task's label parts: the place's prefix, then its region's name (kept by the trace).
  const std::string* region_label(const TimelineTask& task);
  void close_task_state(uint64_t t, TimelineTask& task);
  // The row's state from t: the MPI call's if the thread is in one, else the timeline's.
  void show_state(ThreadRow& r, uint64_t t);
  // An MPI call's region entered (its Extrae event and state) or left.
  void mpi_region(ThreadRow& r, uint64_t t, uint32_t region, bool entered);

  ParaverTrace* trace_;
  std::unique_ptr<ParaverTrace> owned_;
  ParaverPlace place_;
  std::vector<ThreadRow> threads_;
  std::vector<uint32_t> values_;  // region id - 1 -> the trace's value
  uint32_t ready_row_ = kNoThread;
  bool per_instance_ = true;
  uint32_t first_task_row_ = 0;  // the trace's row of this experiment's first task row
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> free_rows_;
  std::vector<uint32_t> counters_;          // metadata counter -> the trace's index
  replay::IdMap<uint32_t> param_index_;     // user string id -> the trace's index + 1
  const std::string* prefix_;               // the place's prefix of task labels (kept by the trace)
  // region id - 1 -> its name as plain_label() leaves it (kept by the trace); [0]: none
  std::vector<const std::string*> region_labels_;
  bool moved_;                              // place_.clock is not the identity
};

void ParaverExporter::begin(const TimelineInfo& info) {
  trace_->add_process(place_.name, x_.program_name(), x_.metadata.host, x_.metadata.start_unix_ns);
  trace_->window(ts(info.from_ns), ts(info.to_ns));
  trace_->threads_seen(info.threads);
  threads_.assign(info.threads, ThreadRow{});
  for (uint32_t th = 0; th < info.threads; ++th) {
    if (!filter_.thread(th)) continue;
    threads_[th].shown = true;
    threads_[th].row = trace_->add_thread_row(th);
    if (ready_row_ == kNoThread) ready_row_ = threads_[th].row;
  }
  first_task_row_ = trace_->task_rows();
  // One row per task instance when the run has few enough tasks (the recorder counted them).
  const format::Metadata& m = x_.metadata;
  uint64_t tasks = m.count(format::layout(format::Kind::kTaskCreate).name.data()) +
                   m.count(format::layout(format::Kind::kImplicitTask).name.data()) / 2;
  per_instance_ = m.counts && tasks <= options_.max_task_rows;
  trace_->set_per_instance(per_instance_);
  for (uint32_t i = 0; i < m.counters.size() && i < format::kMaxCounters; ++i) {
    counters_.push_back(trace_->counter_index(m.counters[i]));
  }
}

uint32_t ParaverExporter::value(uint32_t id) {
  if (id == 0) return 0;
  while (values_.size() < id && values_.size() < regions_.size()) {
    values_.push_back(trace_->region_value(regions_.at(uint32_t(values_.size()) + 1)));
  }
  return id <= values_.size() ? values_[id - 1] : 0;
}

const std::string* ParaverExporter::region_label(const TimelineTask& task) {
  if (region_labels_.empty()) region_labels_.push_back(trace_->keep(""));
  while (region_labels_.size() <= regions_.size()) {
    region_labels_.push_back(
        trace_->keep(plain_text(regions_.at(uint32_t(region_labels_.size())).name)));
  }
  return region_labels_[task.region < region_labels_.size() ? task.region : 0];
}

void ParaverExporter::assign_number(TimelineTask& task) {
  const std::string* region = region_label(task);
  uint32_t serial = trace_->task_serial(prefix_, task.id, region);
  uint32_t row = 0;
  if (filter_.thread(task.creator_thread)) {
    if (per_instance_) {
      std::string label;
      ParaverTrace::task_label(label, *prefix_, task.id, *region);
      row = trace_->add_task_row(fmt::format("task {}: {}", serial, label));
    } else if (!free_rows_.empty()) {
      row = free_rows_.top();
      free_rows_.pop();
    } else {
      row = trace_->add_task_row(
          fmt::format("task row {}", trace_->task_rows() - first_task_row_ + 1));
    }
    task.slot = make_slot(serial, row + 1);
  } else {
    task.slot = make_slot(serial, 0);
  }
}

void ParaverExporter::enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) {
  ThreadRow& r = threads_[th];
  r.regions.push_back(value(region));
  event(r.row, t, kTypeRegion, r.regions.back());
  mpi_region(r, t, region, true);
  if (region == owner.region && slot_row(owner.slot)) {
    event((slot_row(owner.slot) - 1) | kTaskRow, t, kTypeThread, th + 1);
  }
}

void ParaverExporter::leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) {
  ThreadRow& r = threads_[th];
  if (!r.regions.empty()) r.regions.pop_back();
  event(r.row, t, kTypeRegion, r.regions.empty() ? 0 : r.regions.back());
  mpi_region(r, t, region, false);
  if (region == owner.region && slot_row(owner.slot)) {
    event((slot_row(owner.slot) - 1) | kTaskRow, t, kTypeThread, 0);
  }
}

void ParaverExporter::task_create(uint32_t th, uint64_t t, TimelineTask& task,
                                  const TimelineTask* parent) {
  number(task);
  if (parent) task.parent_slot = parent->slot;
}

void ParaverExporter::task_switch(uint32_t th, uint64_t t, TimelineTask* task,
                                  const SwitchInfo& how) {
  uint32_t row = threads_[th].row;
  if (task) number(*task);
  event(row, t, kTypeTaskConstruct, task ? value(task->region) : 0);
  event(row, t, kTypeTaskInstance, task ? slot_serial(task->slot) : 0);
  if (!task || how.resumed_here) return;
  uint32_t task_row = slot_row(task->slot);  // + 1
  if (how.first) {
    // Creation: creator thread -> this thread; parent's row -> the task's row.
    if (!task->is_implicit() && filter_.shows(task->creator_thread, task->created_ns)) {
      comm(threads_[task->creator_thread].row, task->created_ns, row, t, kTagCreation);
      if (task_row && slot_row(task->parent_slot)) {
        comm((slot_row(task->parent_slot) - 1) | kTaskRow, task->created_ns,
             (task_row - 1) | kTaskRow, t, kTagCreation);
      }
    }
    dependence_comms(th, t, *task, task->deps_in);
  } else if (how.from_thread != kNoThread && how.from_thread != th &&
             filter_.shows(how.from_thread, how.out_ns)) {
    comm(threads_[how.from_thread].row, how.out_ns, row, t, kTagMigration);
  }
}

void ParaverExporter::dependence_comms(uint32_t th, uint64_t t, const TimelineTask& task,
                                       const std::vector<DepIn>& deps) {
  uint32_t row = threads_[th].row;
  uint32_t task_row = slot_row(task.slot);  // + 1
  for (const DepIn& d : deps) {
    if (!filter_.shows(d.thread, d.end_ns)) continue;
    comm(threads_[d.thread].row, d.end_ns, row, t, kTagDependence);
    if (task_row && slot_row(d.slot)) {
      comm((slot_row(d.slot) - 1) | kTaskRow, d.end_ns, (task_row - 1) | kTaskRow, t,
           kTagDependence);
    }
  }
}

// Communications are points on rows: a dependence reaches a `taskwait depend` where the wait
// ends, on the waiting thread's row and the waiting task's, as DOT joins it to the taskwait.
void ParaverExporter::wait_dependences(uint32_t th, uint64_t t, TimelineTask& task,
                                       const std::vector<DepIn>& deps) {
  number(task);
  dependence_comms(th, t, task, deps);
}

void ParaverExporter::close_task_state(uint64_t t, TimelineTask& task) {
  uint32_t row = slot_row(task.slot);
  if (!row || !task.sink_state || task.sink_state == kEnded) return;
  state((row - 1) | kTaskRow, task.sink_since, t, task.sink_state - 1u);
  task.sink_state = 0;
}

void ParaverExporter::task_state(uint64_t t, TimelineTask& task, TaskState s) {
  number(task);
  uint32_t row = slot_row(task.slot);
  // A cancelled task ends twice (cancelled, then completed): its row is given back once, or two
  // later tasks would share it. (The slot stays: a dependence's arrow starts from its row.)
  if (!row || task.sink_state == kEnded) return;
  uint32_t task_row = (row - 1) | kTaskRow;
  if (s == TaskState::kCompleted || s == TaskState::kCancelled) {
    close_task_state(t, task);
    event(task_row, t, kTypeTaskConstruct, 0);
    if (!per_instance_) free_rows_.push(row - 1);
    task.sink_state = kEnded;
    return;
  }
  uint32_t v = state_value(s);
  if (v == kNoState) return;
  if (task.sink_state == 0) {
    event(task_row, t, kTypeTaskConstruct, value(task.region));
  } else if (task.sink_state - 1u == v) {
    return;
  } else {
    state(task_row, task.sink_since, t, task.sink_state - 1u);
  }
  task.sink_state = uint8_t(v + 1);
  task.sink_since = t;
}

void ParaverExporter::task_alive_at_end(uint64_t t, TimelineTask& task) {
  close_task_state(t, task);
}

void ParaverExporter::thread_state(uint32_t th, uint64_t t, ThreadState s) {
  ThreadRow& r = threads_[th];
  r.timeline = state_value(s);
  show_state(r, t);
}

void ParaverExporter::show_state(ThreadRow& r, uint64_t t) {
  uint32_t v = r.mpi != kNoState ? r.mpi : r.timeline;
  if (r.state == v) return;
  if (r.state != kNoState) state(r.row, r.since, t, r.state);
  r.state = v;
  r.since = t;
}

void ParaverExporter::mpi_region(ThreadRow& r, uint64_t t, uint32_t region, bool entered) {
  const Region& reg = regions_.at(region);
  if (reg.kind != Construct::kMpi) return;
  uint16_t op = uint16_t(std::min<uint64_t>(reg.key, 0xffff));
  MpiCallPrv c = mpi_call_prv(op);
  trace_->mpi_call(op);
  if (c.value) event(r.row, t, c.type, entered ? c.value : 0);
  r.mpi = entered ? c.state : kNoState;
  show_state(r, t);
}

void ParaverExporter::ready_tasks(uint64_t t, uint64_t count) {
  if (ready_row_ == kNoThread) return;
  event(ready_row_, t, kTypeReadyTasks, int64_t(count));
  trace_->ready_tasks(count);
}

void ParaverExporter::parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) {
  uint32_t& index = param_index_[name ? name : ~uint64_t(0)];
  if (index == 0) index = trace_->parameter_index(x_.string(name)) + 1;
  if (!trace_->parameter_value(index - 1, value)) return;  // the .pcf could not name it
  event(threads_[th].row, t, kTypeParameter + index - 1, value);
}

// As Extrae writes hardware counters: the count since the thread's previous reading, here the
// previous task switch (the first reading of a thread only sets the base; a running total that
// goes down, damage, too).
void ParaverExporter::counter_value(uint32_t th, uint64_t t, uint32_t index, uint64_t value) {
  ThreadRow& r = threads_[th];
  uint32_t bit = 1u << index;
  if ((r.counter_valid & bit) && value >= r.counter_last[index] && index < counters_.size()) {
    event(r.row, t, kTypeCounter + counters_[index], int64_t(value - r.counter_last[index]));
  }
  r.counter_last[index] = value;
  r.counter_valid |= bit;
}

void ParaverExporter::end(uint64_t t) {
  for (ThreadRow& r : threads_) {
    if (r.shown && r.state != kNoState) state(r.row, r.since, t, r.state);
    r.state = kNoState;
  }
}

// The trace's rows and relations, and the parameter values left out.
std::vector<std::string> summary_notes(const ParaverTrace& t) {
  std::vector<std::string> notes;
  notes.push_back(fmt::format(
      "{}, {} ({}), {}", format::plural(t.thread_rows(), "thread row"),
      format::plural(t.task_rows(), "task row"),
      t.per_instance() ? "one per task instance" : "shared by tasks that do not overlap",
      format::plural(t.comms(), "communication")));
  if (t.parameters_capped()) {
    notes.push_back(
        fmt::format("user parameters took more than {} distinct values: the rest "
                    "were left out",
                    ParaverTrace::kMaxParameterValues));
  }
  return notes;
}

Result<ExportSummary> ParaverExporter::finish(const replay::ReplayStats& stats) {
  value(regions_.size());  // every region of the table is named in the .pcf
  ExportSummary s;
  s.unit = "records";
  if (owned_) {
    auto written = owned_->write();
    if (!written) return written.error();
    s.records_out = owned_->records();
    s.files = {owned_->path().join(".prv"), owned_->path().join(".pcf"),
               owned_->path().join(".row")};
    s.notes = summary_notes(*owned_);
  }
  add_timeline_notes(s);
  return s;
}

Result<std::unique_ptr<Exporter>> make_paraver_exporter(const format::Experiment& x,
                                                        const std::string& out,
                                                        const ExportOptions& o,
                                                        symbols::Symbolizer* symbols) {
  auto trace = std::make_unique<ParaverTrace>(split_output(out, ".prv"), o.sort_run_records);
  ParaverTrace* t = trace.get();
  return open_exporter<ParaverExporter>(x, o, symbols, t, std::move(trace), ParaverPlace{});
}

// An MPI run: every rank replayed in turn into one trace, a Paraver task each.
Result<ExportSummary> export_paraver_run(const format::MpiRun& run, const std::string& out,
                                         const ExportOptions& o, const replay::Progress& progress) {
  auto ranks = open_run_ranks(run, o);
  if (!ranks) return ranks.error();
  ParaverTrace trace(split_output(out, ".prv"), o.sort_run_records);
  auto opened = trace.open();
  if (!opened) return opened.error();
  ExportSummary all;
  all.unit = "records";
  auto done = export_ranks(
      *ranks, o, progress,
      [&](RunRank& r, symbols::Symbolizer* symbols) {
        return std::make_unique<ParaverExporter>(r.x, o, symbols, &trace, nullptr,
                                                 ParaverPlace{r.label(), r.clock});
      },
      all);
  if (!done) return done.error();
  auto written = trace.write();
  if (!written) return written.error();
  all.records_out = trace.records();
  all.files = {trace.path().join(".prv"), trace.path().join(".pcf"), trace.path().join(".row")};
  std::vector<std::string> notes = summary_notes(trace);
  all.notes.insert(all.notes.begin(), notes.begin(), notes.end());
  return all;
}

}  // namespace

extern const ExportFormat kParaverFormat;
const ExportFormat kParaverFormat = {"paraver",
                                     {"prv"},
                                     {".prv"},
                                     false,
                                     "a base name: name.prv, .pcf and .row",
                                     "Paraver (thread and task views)",
                                     145,  // .prv and .pcf: fib 30 (2 threads) 144.4
                                     make_paraver_exporter,
                                     export_paraver_run};

}  // namespace tasklens::exports
