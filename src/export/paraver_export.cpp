// Paraver export: the timeline as .prv records (sorted on disk when needed), .pcf and .row.
//
// Paraver export (.prv records, .pcf names, .row object names), times in ns. Two applications:
//   1. the thread view: one row per thread, its state (running a task, idle, synchronization,
//      runtime overhead, not created) and events for the innermost region, the running task's
//      construct and instance, the number of ready tasks and user parameters;
//   2. the task view (Extrae/Paraver, Servat et al., Fig. 2b/2d): one row per task instance with
//      its state (created, ready, running, suspended, detached) and the thread executing it. Above
//      ExportOptions::max_task_rows instances, rows are shared by instances that do not overlap
//      in time (the executing task is an event of each row).
// Task creation, dependences and migrations are communications (tags 1, 2, 3) in the thread
// view; creation and dependences also in the task view. Records are sorted by time through an
// external sort, so memory does not grow with the trace.
//
// `out` names the trace: "dir/name.prv" or "dir/name" writes dir/name.prv, .pcf and .row.
#include "export/formats.h"

#include <fmt/format.h>
#include <time.h>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <queue>
#include <set>

#include "export/external_sort.h"
#include "export/output.h"
#include "export/prv_record.h"
#include "export/timeline_exporter.h"
#include "format/kinds.h"
#include "format/plural.h"

namespace tasklens::exports {
namespace fs = std::filesystem;
using namespace paraver;
using replay::TaskState;

namespace {

constexpr uint32_t kTaskRow = 0x80000000u;
constexpr uint32_t kNoState = 0xffffffffu;
constexpr uint8_t kEnded = 0xff;  // TimelineTask::sink_state of a task whose row was given back
constexpr size_t kMaxParameterValues = 100000;

uint32_t state_value(ThreadState s) {
  switch (s) {
    case ThreadState::kNotCreated: return kNotCreated;
    case ThreadState::kIdle: return kIdle;
    case ThreadState::kRunning: return kRunning;
    case ThreadState::kSynchronization: return kSynchronization;
    case ThreadState::kOverhead: return kOverhead;
  }
  return kIdle;
}

uint32_t state_value(TaskState s) {
  switch (s) {
    case TaskState::kInitialized: return kCreated;
    case TaskState::kReady: return kReady;
    case TaskState::kRunning: return kRunning;
    case TaskState::kSuspended: return kSuspended;
    case TaskState::kDetached: return kDetached;
    default: return kNoState;  // executed (transient), completed, cancelled
  }
}

struct StateName {
  uint32_t value;
  const char* name;
  const char* color;
};
constexpr StateName kStates[] = {
    {kIdle, "Idle", "{117,195,255}"},
    {kRunning, "Running", "{0,0,255}"},
    {kNotCreated, "Not created", "{255,255,255}"},
    {kCreated, "Created, not ready (dependences)", "{255,180,80}"},
    {kReady, "Ready", "{255,230,0}"},
    {kSynchronization, "Synchronization", "{255,0,0}"},
    {kSuspended, "Suspended", "{180,0,180}"},
    {kOverhead, "Runtime overhead", "{0,160,0}"},
    {kDetached, "Detached (waiting for fulfill)", "{120,120,120}"},
};

// The task a TimelineTask::slot describes: serial number (from 1) and task-view row + 1.
uint32_t slot_serial(uint64_t slot) { return uint32_t(slot); }
uint32_t slot_row(uint64_t slot) { return uint32_t(slot >> 32); }  // 0: no row
uint64_t make_slot(uint32_t serial, uint32_t row_plus_one) {
  return uint64_t(serial) | (uint64_t(row_plus_one) << 32);
}

class ParaverExporter final : public TimelineExporter {
 public:
  ParaverExporter(const format::Experiment& x, const ExportOptions& o,
                  symbols::Symbolizer* symbols, OutputPath path)
      : TimelineExporter(x, o, symbols), path_(std::move(path)) {}
  ~ParaverExporter() override {
    sorter_.reset();
    std::error_code ec;
    if (!tmp_dir_.empty()) fs::remove_all(tmp_dir_, ec);
  }

  Result<bool> open();
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  struct ThreadRow {
    bool shown = false;
    uint32_t row = 0;
    uint32_t state = kNoState;
    uint64_t since = 0;
    std::vector<uint32_t> regions;  // open regions, innermost last
    // perf_event counters: the running totals at the previous sample (valid: bit i set).
    uint64_t counter_last[format::kMaxCounters] = {};
    uint32_t counter_valid = 0;
  };

  // TimelineSink
  void begin(const TimelineInfo& info) override;
  void enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) override;
  void leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) override;
  void task_create(uint32_t th, uint64_t t, TimelineTask& task, const TimelineTask* parent) override;
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override;
  void task_state(uint64_t t, TimelineTask& task, TaskState state) override;
  void task_alive_at_end(uint64_t t, TimelineTask& task) override;
  void thread_state(uint32_t th, uint64_t t, ThreadState state) override;
  void ready_tasks(uint64_t t, uint64_t count) override;
  void parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) override;
  void counter_value(uint32_t th, uint64_t t, uint32_t index, uint64_t value) override;
  void end(uint64_t t) override;

  uint64_t rel(uint64_t t) const { return t - from_; }
  void event(uint32_t row, uint64_t t, uint32_t type, int64_t value) {
    sorter_->add(PrvRecord{rel(t), 0, value, type, row, 0, 2});
  }
  void state(uint32_t row, uint64_t begin, uint64_t end, uint32_t value) {
    if (end > begin) sorter_->add(PrvRecord{rel(begin), rel(end), value, 0, row, 0, 1});
  }
  void comm(uint32_t from_row, uint64_t from_t, uint32_t to_row, uint64_t to_t, uint32_t tag) {
    sorter_->add(PrvRecord{rel(from_t), rel(to_t), tag, 0, from_row, to_row, 3});
    ++comms_;
  }
  // Gives the task its serial number (and its task-view row if the view shows it).
  void number(TimelineTask& task);
  void close_task_state(uint64_t t, TimelineTask& task);

  Result<bool> write_prv();
  Result<bool> write_pcf();
  Result<bool> write_row();

  OutputPath path_;
  std::string tmp_dir_;
  TextOut prv_, pcf_, row_;
  TextOut values_;     // serial <TAB> label, one line per task, in serial order
  TextOut row_names_;  // task-view row names in row order (one row per instance)
  std::unique_ptr<ExternalSorter<PrvRecord, PrvCodec>> sorter_;
  std::vector<ThreadRow> threads_;
  uint32_t thread_rows_ = 0;
  uint32_t ready_row_ = kNoThread;
  bool per_instance_ = true;
  uint32_t serials_ = 0;
  uint32_t task_rows_ = 0;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> free_rows_;
  uint64_t from_ = 0, to_ = 0;
  uint64_t max_ready_ = 0;
  uint64_t comms_ = 0;
  std::vector<uint64_t> param_names_;
  replay::IdMap<uint32_t> param_index_;  // user string id -> index + 1
  std::vector<std::set<int64_t>> param_values_;
  size_t param_value_count_ = 0;
  bool params_capped_ = false;
};

Result<bool> ParaverExporter::open() {
  for (auto [out, suffix] : {std::pair{&prv_, ".prv"}, {&pcf_, ".pcf"}, {&row_, ".row"}}) {
    auto r = out->open(path_.join(suffix));
    if (!r) return r.error();
  }
  tmp_dir_ = path_.join(".prv-tmp");
  std::error_code ec;
  fs::remove_all(tmp_dir_, ec);
  fs::create_directories(tmp_dir_, ec);
  if (ec) return Error{"cannot create " + tmp_dir_ + ": " + ec.message()};
  for (auto [out, name] : {std::pair{&values_, "/values.txt"}, {&row_names_, "/rows.txt"}}) {
    auto r = out->open(tmp_dir_ + name);
    if (!r) return r.error();
  }
  sorter_ = std::make_unique<ExternalSorter<PrvRecord, PrvCodec>>(tmp_dir_, options_.sort_run_records);
  return true;
}

void ParaverExporter::begin(const TimelineInfo& info) {
  from_ = info.from_ns;
  to_ = info.to_ns;
  threads_.assign(info.threads, ThreadRow{});
  for (uint32_t th = 0; th < info.threads; ++th) {
    if (!filter_.thread(th)) continue;
    threads_[th].shown = true;
    threads_[th].row = thread_rows_++;
    if (ready_row_ == kNoThread) ready_row_ = threads_[th].row;
  }
  // One row per task instance when the run has few enough tasks (the recorder counted them).
  const format::Metadata& m = x_.metadata;
  uint64_t tasks = m.count(format::layout(format::Kind::kTaskCreate).name.data()) +
                   m.count(format::layout(format::Kind::kImplicitTask).name.data()) / 2;
  per_instance_ = m.counts && tasks <= options_.max_task_rows;
}

void ParaverExporter::number(TimelineTask& task) {
  if (task.slot) return;
  uint32_t serial = ++serials_;
  std::string label = id_text(task.id) + " " + regions_.at(task.region).name;
  values_.print("{}\t{}\n", serial, plain_label(label));
  uint32_t row = 0;
  if (filter_.thread(task.creator_thread)) {
    if (per_instance_) {
      row = task_rows_++;
      row_names_.print("task {}: {}\n", serial, plain_label(label));
    } else if (!free_rows_.empty()) {
      row = free_rows_.top();
      free_rows_.pop();
    } else {
      row = task_rows_++;
    }
    task.slot = make_slot(serial, row + 1);
  } else {
    task.slot = make_slot(serial, 0);
  }
}

void ParaverExporter::enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) {
  ThreadRow& r = threads_[th];
  r.regions.push_back(region);
  event(r.row, t, kTypeRegion, region);
  if (region == owner.region && slot_row(owner.slot)) {
    event((slot_row(owner.slot) - 1) | kTaskRow, t, kTypeThread, th + 1);
  }
}

void ParaverExporter::leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) {
  ThreadRow& r = threads_[th];
  if (!r.regions.empty()) r.regions.pop_back();
  event(r.row, t, kTypeRegion, r.regions.empty() ? 0 : r.regions.back());
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
  event(row, t, kTypeTaskConstruct, task ? task->region : 0);
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
    for (const DepIn& d : task->deps_in) {
      if (!filter_.shows(d.thread, d.end_ns)) continue;
      comm(threads_[d.thread].row, d.end_ns, row, t, kTagDependence);
      if (task_row && slot_row(d.slot)) {
        comm((slot_row(d.slot) - 1) | kTaskRow, d.end_ns, (task_row - 1) | kTaskRow, t,
             kTagDependence);
      }
    }
  } else if (how.from_thread != kNoThread && how.from_thread != th &&
             filter_.shows(how.from_thread, how.out_ns)) {
    comm(threads_[how.from_thread].row, how.out_ns, row, t, kTagMigration);
  }
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
    event(task_row, t, kTypeTaskConstruct, task.region);
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
  uint32_t v = state_value(s);
  if (r.state == v) return;
  if (r.state != kNoState) state(r.row, r.since, t, r.state);
  r.state = v;
  r.since = t;
}

void ParaverExporter::ready_tasks(uint64_t t, uint64_t count) {
  if (ready_row_ == kNoThread) return;
  event(ready_row_, t, kTypeReadyTasks, int64_t(count));
  max_ready_ = std::max(max_ready_, count);
}

void ParaverExporter::parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) {
  uint32_t& index = param_index_[name ? name : ~uint64_t(0)];
  if (index == 0) {
    param_names_.push_back(name);
    param_values_.emplace_back();
    index = uint32_t(param_names_.size());
  }
  auto& values = param_values_[index - 1];
  if (!values.count(value)) {
    if (param_value_count_ >= kMaxParameterValues) {
      params_capped_ = true;
      return;  // the .pcf could not name it: not written
    }
    values.insert(value);
    ++param_value_count_;
  }
  event(threads_[th].row, t, kTypeParameter + index - 1, value);
}

// As Extrae writes hardware counters: the count since the thread's previous reading, here the
// previous task switch (the first reading of a thread only sets the base; a running total that
// goes down, damage, too).
void ParaverExporter::counter_value(uint32_t th, uint64_t t, uint32_t index, uint64_t value) {
  ThreadRow& r = threads_[th];
  uint32_t bit = 1u << index;
  if ((r.counter_valid & bit) && value >= r.counter_last[index]) {
    event(r.row, t, kTypeCounter + index, int64_t(value - r.counter_last[index]));
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

char* put(char* p, uint64_t v) { return std::to_chars(p, p + 20, v).ptr; }
char* put(char* p, int64_t v) { return std::to_chars(p, p + 20, v).ptr; }
char* put(char* p, const char* s, size_t n) {
  std::memcpy(p, s, n);
  return p + n;
}

// The record's object fields, cpu:appl:task:thread.
char* put_object(char* p, uint32_t row) {
  if (row & kTaskRow) {
    p = put(p, "0:2:1:", 6);
    return put(p, uint64_t((row & ~kTaskRow) + 1));
  }
  p = put(p, uint64_t(row + 1));
  p = put(p, ":1:1:", 5);
  return put(p, uint64_t(row + 1));
}

Result<bool> ParaverExporter::write_prv() {
  uint64_t start_unix = x_.metadata.start_unix_ns;
  time_t when = time_t(start_unix / 1000000000ull);
  tm local{};
  localtime_r(&when, &local);
  char date[32];
  strftime(date, sizeof date, "%d/%m/%y at %H:%M", &local);
  prv_.print("#Paraver ({}):{}_ns:1({}):{}:1({}:1)", date, to_ - from_, thread_rows_,
             task_rows_ ? 2 : 1, thread_rows_);
  if (task_rows_) prv_.print(":1({}:1)", task_rows_);

  // Events of one object at one time share a line: a line ends when the next record starts.
  // Formatted straight into the output buffer: the longest record is under 200 bytes.
  PrvRecord r, last{};
  bool event_line = false;
  while (sorter_->next(r)) {
    char* p = prv_.reserve(256);
    if (r.kind == 2 && event_line && last.time == r.time && last.row == r.row) {
      *p++ = ':';
    } else {
      *p++ = '\n';
      *p++ = char('0' + r.kind);
      *p++ = ':';
      p = put_object(p, r.row);
      *p++ = ':';
      p = put(p, r.time);
      *p++ = ':';
    }
    event_line = r.kind == 2;
    last = r;
    switch (r.kind) {
      case 1:  // state: begin:end:state
        p = put(p, r.time2);
        *p++ = ':';
        p = put(p, r.value);
        break;
      case 2:  // event: time:type:value
        p = put(p, uint64_t(r.type));
        *p++ = ':';
        p = put(p, r.value);
        break;
      default:  // communication: lsend:psend:receiver:lrecv:precv:size:tag
        p = put(p, r.time);
        *p++ = ':';
        p = put_object(p, r.row2);
        *p++ = ':';
        p = put(p, r.time2);
        *p++ = ':';
        p = put(p, r.time2);
        p = put(p, ":0:", 3);
        p = put(p, r.value);
        break;
    }
    prv_.commit(p);
  }
  prv_.write("\n");
  return prv_.close();
}

Result<bool> ParaverExporter::write_pcf() {
  pcf_.write(
      "DEFAULT_OPTIONS\n\n"
      "LEVEL               THREAD\n"
      "UNITS               NANOSEC\n"
      "LOOK_BACK           100\n"
      "SPEED               1\n"
      "FLAG_ICONS          ENABLED\n"
      "NUM_OF_STATE_COLORS 1000\n"
      "YMAX_SCALE          37\n\n\n"
      "DEFAULT_SEMANTIC\n\n"
      "THREAD_FUNC          State As Is\n\n\n"
      "STATES\n");
  for (const StateName& s : kStates) pcf_.print("{:<4} {}\n", s.value, s.name);
  pcf_.write("\n\nSTATES_COLOR\n");
  for (const StateName& s : kStates) pcf_.print("{:<4} {}\n", s.value, s.color);

  auto type = [&](uint32_t id, const std::string& name) {
    pcf_.print("\n\nEVENT_TYPE\n0    {}    {}\nVALUES\n", id, plain_label(name));
  };
  type(kTypeRegion, "Region (innermost open region on the thread)");
  pcf_.write("0      End\n");
  for (uint32_t id = 1; id <= regions_.size(); ++id) {
    pcf_.print("{:<6} {}\n", id, plain_label(regions_.at(id).name));
  }
  type(kTypeTaskConstruct, "Task construct (running on the thread / of the task)");
  pcf_.write("0      End\n");
  for (uint32_t id = 1; id <= regions_.size(); ++id) {
    if (is_task(regions_.at(id).kind)) {
      pcf_.print("{:<6} {}\n", id, plain_label(regions_.at(id).name));
    }
  }
  type(kTypeTaskInstance, "Task instance (running on the thread)");
  pcf_.write("0      End\n");
  auto closed = values_.close();
  if (!closed) return closed.error();
  {
    std::ifstream in(tmp_dir_ + "/values.txt");
    std::string line;
    while (std::getline(in, line)) {
      size_t tab = line.find('\t');
      if (tab == std::string::npos) continue;
      pcf_.print("{:<6} {}\n", line.substr(0, tab), line.substr(tab + 1));
    }
  }
  type(kTypeReadyTasks, "Ready tasks");
  for (uint64_t v = 0; v <= max_ready_; ++v) pcf_.print("{:<6} {}\n", v, v);
  type(kTypeThread, "Executing thread (task view)");
  pcf_.write("0      None\n");
  for (uint32_t th = 0; th < threads_.size(); ++th) pcf_.print("{:<6} thread {}\n", th + 1, th);
  const std::vector<std::string>& counters = x_.metadata.counters;
  for (uint32_t i = 0; i < counters.size() && i < format::kMaxCounters; ++i) {
    pcf_.print("\n\nEVENT_TYPE\n0    {}    {}\n", kTypeCounter + i,
               plain_label(counters[i] + " (perf_event, since the thread's previous task switch" +
                           (counters[i] == "task-clock" ? ", ns)" : ")")));
  }
  for (size_t i = 0; i < param_names_.size(); ++i) {
    type(kTypeParameter + uint32_t(i), "Parameter " + x_.string(param_names_[i]));
    for (int64_t v : param_values_[i]) pcf_.print("{:<6} {}\n", v, v);
  }
  return pcf_.close();
}

Result<bool> ParaverExporter::write_row() {
  row_.print("LEVEL CPU SIZE {}\n", thread_rows_);
  for (uint32_t th = 0; th < threads_.size(); ++th) {
    if (threads_[th].shown) row_.print("CPU of thread {}\n", th);
  }
  row_.print("\nLEVEL NODE SIZE 1\n{}\n",
             plain_label(x_.metadata.host.empty() ? std::string("node") : x_.metadata.host));
  uint32_t apps = task_rows_ ? 2 : 1;
  row_.print("\nLEVEL APPL SIZE {}\n{} (threads)\n", apps, x_.program_name());
  if (task_rows_) row_.print("{} (tasks)\n", x_.program_name());
  row_.print("\nLEVEL TASK SIZE {}\nthreads\n", apps);
  if (task_rows_) row_.write("tasks\n");
  row_.print("\nLEVEL THREAD SIZE {}\n", thread_rows_ + task_rows_);
  for (uint32_t th = 0; th < threads_.size(); ++th) {
    if (threads_[th].shown) row_.print("thread {}\n", th);
  }
  auto closed = row_names_.close();
  if (!closed) return closed.error();
  if (per_instance_) {
    std::ifstream in(tmp_dir_ + "/rows.txt");
    std::string line;
    while (std::getline(in, line)) row_.print("{}\n", line);
  } else {
    for (uint32_t k = 0; k < task_rows_; ++k) row_.print("task row {}\n", k + 1);
  }
  return row_.close();
}

Result<ExportSummary> ParaverExporter::finish(const replay::ReplayStats& stats) {
  auto sealed = sorter_->seal();
  if (!sealed) return sealed.error();
  ExportSummary s;
  s.unit = "records";
  s.records_out = sorter_->count();
  for (auto step : {&ParaverExporter::write_prv, &ParaverExporter::write_pcf,
                    &ParaverExporter::write_row}) {
    auto r = (this->*step)();
    if (!r) return r.error();
  }
  s.files = {path_.join(".prv"), path_.join(".pcf"), path_.join(".row")};
  s.notes.push_back(fmt::format("{}, {} ({}), {}", format::plural(thread_rows_, "thread row"),
                                format::plural(task_rows_, "task row"),
                                per_instance_ ? "one per task instance"
                                              : "shared by tasks that do not overlap",
                                format::plural(comms_, "communication")));
  if (params_capped_) {
    s.notes.push_back(fmt::format("user parameters took more than {} distinct values: the rest "
                                  "were left out",
                                  kMaxParameterValues));
  }
  add_timeline_notes(s);
  return s;
}

Result<std::unique_ptr<Exporter>> make_paraver_exporter(const format::Experiment& x,
                                                        const std::string& out,
                                                        const ExportOptions& o,
                                                        symbols::Symbolizer* symbols) {
  return open_exporter<ParaverExporter>(x, o, symbols, split_output(out, ".prv"));
}

}  // namespace

extern const ExportFormat kParaverFormat;
const ExportFormat kParaverFormat = {
    "paraver", {"prv"}, {".prv"}, false,
    "a base name: name.prv, .pcf and .row",
    "Paraver (thread and task views)",
    150,  // measured 130-140 (.prv and .pcf)
    make_paraver_exporter,
    nullptr};

}  // namespace tasklens::exports
