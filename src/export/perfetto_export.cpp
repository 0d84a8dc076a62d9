// Perfetto export: the timeline as Chrome/Perfetto JSON (thread and task tracks, flows).
//
// Perfetto / Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing):
//   * process "threads": a track per thread with nested B/E slices for tasks and constructs (the
//     same nesting as the OTF2 export), and a counter track "ready tasks";
//   * one process per task construct ("tasks: task fib.c:39"): each instance is a slice from its
//     first start to its completion on one of the construct's lanes (instances that overlap in
//     time take different lanes), with nested slices while it is suspended, ready or detached;
//   * flow arrows for task creation (creator -> first start), dependences (predecessor's end ->
//     successor's start) and migrations (where a task left -> where it resumed).
// Times are in microseconds with nanosecond decimals; displayTimeUnit is ns.
#include "export/formats.h"

#include <fmt/format.h>

#include "export/output.h"
#include "export/timeline_exporter.h"

namespace tasklens::exports {

using replay::TaskState;

namespace {

constexpr uint32_t kThreadsPid = 1;
constexpr uint32_t kFirstConstructPid = 10;

// What a task-view instance shows inside its slice (TimelineTask::sink_state).
enum InstanceState : uint8_t {
  kNoInstance = 0,  // no slice open
  kRunningSlice,    // the instance's slice is open, nothing nested
  kNestedSlice,     // ... with a nested "suspended"/"ready"/"detached" slice open
};

const char* waiting_name(TaskState s) {
  switch (s) {
    case TaskState::kSuspended: return "suspended";
    case TaskState::kReady: return "ready (switched out)";
    case TaskState::kDetached: return "detached (waiting for fulfill)";
    default: return nullptr;
  }
}

class PerfettoExporter final : public TimelineExporter {
 public:
  PerfettoExporter(const format::Experiment& x, const ExportOptions& o,
                   replay::Symbolizer* symbols, std::string path)
      : TimelineExporter(x, o, symbols), path_(std::move(path)) {}

  Result<bool> open() { return out_.open(path_); }
  Result<ExportSummary> finish(const replay::ReplayStats& stats) override;

 private:
  struct Construct {
    uint32_t pid = 0;
    std::vector<bool> busy;  // lanes in use
    uint32_t named_lanes = 0;
  };

  // TimelineSink
  void begin(const TimelineInfo& info) override;
  void enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) override;
  void leave(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) override;
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override;
  void task_state(uint64_t t, TimelineTask& task, TaskState state) override;
  void task_alive_at_end(uint64_t t, TimelineTask& task) override;
  void ready_tasks(uint64_t t, uint64_t count) override;
  void parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) override;
  void end(uint64_t t) override;

  // One trace event: `{"ph":"B","pid":1,"tid":2,"ts":1.234` (the caller closes the object).
  void head(char ph, uint32_t pid, uint32_t tid, uint64_t ts);
  void flow(const char* cat, uint64_t id, uint32_t from_th, uint64_t from_t, uint32_t to_th,
            uint64_t to_t);
  void metadata(const char* what, uint32_t pid, uint32_t tid, const std::string& name);
  const std::string& quoted_name(uint32_t region);
  Construct& construct(uint32_t region);
  void open_instance(uint64_t t, TimelineTask& task);
  void close_instance(uint64_t t, TimelineTask& task);
  void flush_counter();

  std::string path_;
  TextOut out_;
  uint64_t events_ = 0;
  uint64_t flows_ = 0;
  std::vector<std::string> names_;       // region id -> JSON-quoted name
  std::vector<int32_t> construct_of_;    // region id -> index in constructs_, -1: none yet
  std::vector<Construct> constructs_;
  uint64_t counter_ts_ = 0, counter_value_ = 0;
  bool counter_pending_ = false;
};

void PerfettoExporter::head(char ph, uint32_t pid, uint32_t tid, uint64_t ts) {
  out_.piece(events_ ? ",\n{\"ph\":\"" : "{\"ph\":\"");
  out_.piece(ph);
  out_.piece("\",\"pid\":");
  out_.piece(uint64_t(pid));
  out_.piece(",\"tid\":");
  out_.piece(uint64_t(tid));
  out_.piece(",\"ts\":");
  out_.piece(ts / 1000);
  char frac[5] = {'.', char('0' + ts % 1000 / 100), char('0' + ts % 100 / 10), char('0' + ts % 10), 0};
  out_.piece(std::string_view(frac, 4));
  out_.end_piece();
  ++events_;
}

void PerfettoExporter::metadata(const char* what, uint32_t pid, uint32_t tid,
                                const std::string& name) {
  out_.print("{}{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"{}\",\"args\":{{\"name\":{}}}}}",
             events_ ? ",\n" : "", pid, tid, what, json_quote(name));
  ++events_;
}

const std::string& PerfettoExporter::quoted_name(uint32_t region) {
  if (region >= names_.size()) names_.resize(region + 1);
  if (names_[region].empty()) names_[region] = json_quote(regions_.at(region).name);
  return names_[region];
}

void PerfettoExporter::begin(const TimelineInfo& info) {
  out_.write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  metadata("process_name", kThreadsPid, 0, x_.program_name() + " threads");
  out_.print(",\n{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_sort_index\","
             "\"args\":{{\"sort_index\":0}}}}",
             kThreadsPid);
  ++events_;
  for (uint32_t th = 0; th < info.threads; ++th) {
    if (filter_.thread(th)) metadata("thread_name", kThreadsPid, th + 1, fmt::format("thread {}", th));
  }
}

void PerfettoExporter::enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) {
  head('B', kThreadsPid, th + 1, t);
  const Region& r = regions_.at(region);
  const char* cat = is_task(r.kind) ? "task" : r.kind == format::Construct::kUser ? "user" : "openmp";
  out_.piece(",\"cat\":\"");
  out_.piece(cat);
  out_.piece("\",\"name\":");
  out_.piece(quoted_name(region));
  if (region == owner.region) {
    out_.print(",\"args\":{{\"task\":\"{}\",\"parent\":\"{}\"}}}}", id_text(owner.id),
               id_text(owner.parent));
  } else {
    out_.write("}");
  }
}

void PerfettoExporter::leave(uint32_t th, uint64_t t, uint32_t, const TimelineTask&) {
  head('E', kThreadsPid, th + 1, t);
  out_.write("}");
}

void PerfettoExporter::flow(const char* cat, uint64_t id, uint32_t from_th, uint64_t from_t,
                            uint32_t to_th, uint64_t to_t) {
  // The start binds to the slice enclosing it, the end to the next slice on its track (the task
  // slice that begins there).
  head('s', kThreadsPid, from_th + 1, from_t);
  out_.print(",\"cat\":\"{}\",\"name\":\"{}\",\"id\":{}}}", cat, cat, id);
  head('f', kThreadsPid, to_th + 1, to_t);
  out_.print(",\"cat\":\"{}\",\"name\":\"{}\",\"id\":{}}}", cat, cat, id);
  ++flows_;
}

void PerfettoExporter::task_switch(uint32_t th, uint64_t t, TimelineTask* task,
                                   const SwitchInfo& how) {
  if (!task || how.resumed_here) return;
  if (how.first) {
    if (!task->is_implicit() && filter_.shows(task->creator_thread, task->created_ns)) {
      flow("create", flows_ + 1, task->creator_thread, task->created_ns, th, t);
    }
    for (const DepIn& d : task->deps_in) {
      // Just before the predecessor's end, inside its slice.
      uint64_t at = d.end_ns ? d.end_ns - 1 : 0;
      if (filter_.shows(d.thread, at)) flow("dependence", flows_ + 1, d.thread, at, th, t);
    }
  } else if (how.from_thread != kNoThread && how.from_thread != th) {
    uint64_t at = how.out_ns ? how.out_ns - 1 : 0;
    if (filter_.shows(how.from_thread, at)) flow("migration", flows_ + 1, how.from_thread, at, th, t);
  }
}

PerfettoExporter::Construct& PerfettoExporter::construct(uint32_t region) {
  if (region >= construct_of_.size()) construct_of_.resize(region + 1, -1);
  if (construct_of_[region] < 0) {
    construct_of_[region] = int32_t(constructs_.size());
    Construct c;
    c.pid = kFirstConstructPid + uint32_t(constructs_.size());
    constructs_.push_back(c);
    metadata("process_name", c.pid, 0, "tasks: " + regions_.at(region).name);
    out_.print(",\n{{\"ph\":\"M\",\"pid\":{},\"tid\":0,\"name\":\"process_sort_index\","
               "\"args\":{{\"sort_index\":{}}}}}",
               c.pid, c.pid);
    ++events_;
  }
  return constructs_[size_t(construct_of_[region])];
}

void PerfettoExporter::open_instance(uint64_t t, TimelineTask& task) {
  Construct& c = construct(task.region);
  uint32_t lane = 0;
  while (lane < c.busy.size() && c.busy[lane]) ++lane;
  if (lane == c.busy.size()) c.busy.push_back(false);
  c.busy[lane] = true;
  if (lane >= c.named_lanes) {
    metadata("thread_name", c.pid, lane + 1, fmt::format("lane {}", lane));
    c.named_lanes = lane + 1;
  }
  task.slot = lane + 1;
  task.sink_state = kRunningSlice;
  head('B', c.pid, lane + 1, t);
  out_.print(",\"cat\":\"task\",\"name\":{},\"args\":{{\"task\":\"{}\",\"parent\":\"{}\"}}}}",
             quoted_name(task.region), id_text(task.id), id_text(task.parent));
}

void PerfettoExporter::close_instance(uint64_t t, TimelineTask& task) {
  if (task.sink_state == kNoInstance) return;
  Construct& c = construct(task.region);
  uint32_t lane = uint32_t(task.slot - 1);
  if (task.sink_state == kNestedSlice) {
    head('E', c.pid, lane + 1, t);
    out_.write("}");
  }
  head('E', c.pid, lane + 1, t);
  out_.write("}");
  c.busy[lane] = false;
  task.sink_state = kNoInstance;
}

void PerfettoExporter::task_state(uint64_t t, TimelineTask& task, TaskState state) {
  if (state == TaskState::kCompleted || state == TaskState::kCancelled) {
    close_instance(t, task);
    return;
  }
  if (state == TaskState::kExecuted || state == TaskState::kInitialized) return;
  // Only tasks that ran have an instance slice: until then the creation arrow shows the wait.
  if (task.sink_state == kNoInstance) {
    if (!task.started) return;
    open_instance(t, task);
  }
  Construct& c = construct(task.region);
  uint32_t tid = uint32_t(task.slot);
  if (task.sink_state == kNestedSlice) {
    head('E', c.pid, tid, t);
    out_.write("}");
    task.sink_state = kRunningSlice;
  }
  if (const char* name = waiting_name(state)) {
    head('B', c.pid, tid, t);
    out_.print(",\"cat\":\"task state\",\"name\":\"{}\"}}", name);
    task.sink_state = kNestedSlice;
  }
}

void PerfettoExporter::task_alive_at_end(uint64_t t, TimelineTask& task) { close_instance(t, task); }

void PerfettoExporter::flush_counter() {
  if (!counter_pending_) return;
  head('C', kThreadsPid, 0, counter_ts_);
  out_.print(",\"name\":\"ready tasks\",\"args\":{{\"ready\":{}}}}}", counter_value_);
  counter_pending_ = false;
}

void PerfettoExporter::ready_tasks(uint64_t t, uint64_t count) {
  // Several changes at one instant: only the last value counts.
  if (counter_pending_ && t != counter_ts_) flush_counter();
  counter_ts_ = t;
  counter_value_ = count;
  counter_pending_ = true;
}

void PerfettoExporter::parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) {
  head('i', kThreadsPid, th + 1, t);
  out_.print(",\"s\":\"t\",\"cat\":\"parameter\",\"name\":{},\"args\":{{\"value\":{}}}}}",
             json_quote(x_.string(name)), value);
}

void PerfettoExporter::end(uint64_t t) { flush_counter(); }

Result<ExportSummary> PerfettoExporter::finish(const replay::ReplayStats& stats) {
  out_.write("\n]}\n");
  auto closed = out_.close();
  if (!closed) return closed.error();
  ExportSummary s;
  s.files.push_back(path_);
  s.records_out = events_;
  s.unit = "trace events";
  if (events_ > options_.browser_events) {
    s.notes.push_back(fmt::format(
        "warning: {} trace events ({:.0f} MB): more than {} is too much for a browser "
        "(ui.perfetto.dev, chrome://tracing); narrow the export with --from/--to or --threads, "
        "or open it with trace_processor",
        events_, double(out_.bytes()) / 1e6, options_.browser_events));
  }
  add_timeline_notes(s);
  return s;
}

Result<std::unique_ptr<Exporter>> make_perfetto_exporter(const format::Experiment& x,
                                                         const std::string& out,
                                                         const ExportOptions& o,
                                                         replay::Symbolizer* symbols) {
  return open_exporter<PerfettoExporter>(x, o, symbols, out);
}

}  // namespace

extern const ExportFormat kPerfettoFormat;
const ExportFormat kPerfettoFormat = {
    "perfetto", {"chrome", "json"}, {".json"}, true,
    "a JSON file",
    "Chrome/Perfetto trace-event JSON (ui.perfetto.dev)",
    make_perfetto_exporter};

}  // namespace tasklens::exports
