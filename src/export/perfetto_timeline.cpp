// The Perfetto exports' layout: thread tracks, task-construct lanes, flows, counter, parameters.
#include "export/perfetto_timeline.h"

#include <fmt/format.h>

namespace tasklens::exports {

using replay::TaskState;

namespace {

// What a task-view instance shows inside its slice (TimelineTask::sink_state).
enum InstanceState : uint8_t {
  kNoInstance = 0,  // no slice open
  kRunningSlice,    // the instance's slice is open, nothing nested
  kNestedSlice,     // ... with a nested "suspended"/"ready"/"detached" slice open
};

const char* waiting_name(TaskState s) {
  switch (s) {
    case TaskState::kSuspended:
      return "suspended";
    case TaskState::kReady:
      return "ready (switched out)";
    case TaskState::kDetached:
      return "detached (waiting for fulfill)";
    default:
      return nullptr;
  }
}

}  // namespace

void PerfettoTimeline::begin(const TimelineInfo& info) {
  header(info.from_ns);
  process(kPerfettoThreadsPid, x_.program_name() + " threads", 0);
  for (uint32_t th = 0; th < info.threads; ++th) {
    if (filter_.thread(th)) thread(kPerfettoThreadsPid, th + 1, fmt::format("thread {}", th));
  }
}

void PerfettoTimeline::enter(uint32_t th, uint64_t t, uint32_t region, const TimelineTask& owner) {
  settle_counter(t);
  const Region& r = regions_.at(region);
  const char* cat = is_task(r.kind)                      ? "task"
                    : r.kind == format::Construct::kUser ? "user"
                    : r.kind == format::Construct::kMpi  ? "mpi"
                                                         : "openmp";
  begin_region(kPerfettoThreadsPid, th + 1, t, region, cat,
               region == owner.region ? &owner : nullptr);
}

void PerfettoTimeline::leave(uint32_t th, uint64_t t, uint32_t, const TimelineTask&) {
  settle_counter(t);
  end_slice(kPerfettoThreadsPid, th + 1, t);
}

void PerfettoTimeline::add_flow(const char* kind, uint32_t from_th, uint64_t from_t, uint32_t to_th,
                                uint64_t to_t) {
  ++flows_;
  flow_start(kind, flows_, from_th, from_t);
  flow_end(kind, flows_, to_th, to_t);
}

// A creation arrow starts at the creation, in time order: the protobuf then gives it a small
// delta timestamp, and the ready-tasks count that changes at the creation rides on it (no counter
// packet of its own). Its id is kept in the task (TimelineTask::parent_slot, unused otherwise
// here) until the task's first start ends it. A task that never starts in the window (or on a
// thread shown) leaves an arrow start without an end: the instant still marks the creation.
void PerfettoTimeline::task_create(uint32_t th, uint64_t t, TimelineTask& task,
                                   const TimelineTask*) {
  if (task.is_implicit()) return;
  settle_counter(t);
  task.parent_slot = ++flows_;
  flow_start("create", flows_, th, t);
}

void PerfettoTimeline::task_switch(uint32_t th, uint64_t t, TimelineTask* task,
                                   const SwitchInfo& how) {
  if (!task || how.resumed_here) return;
  settle_counter(t);
  if (how.first) {
    if (task->parent_slot) flow_end("create", task->parent_slot, th, t);
    for (const DepIn& d : task->deps_in) {
      // Just before the predecessor's end, inside its slice.
      uint64_t at = d.end_ns ? d.end_ns - 1 : 0;
      if (filter_.shows(d.thread, at)) add_flow("dependence", d.thread, at, th, t);
    }
  } else if (how.from_thread != kNoThread && how.from_thread != th) {
    uint64_t at = how.out_ns ? how.out_ns - 1 : 0;
    if (filter_.shows(how.from_thread, at)) add_flow("migration", how.from_thread, at, th, t);
  }
}

PerfettoTimeline::Construct& PerfettoTimeline::construct(uint32_t region) {
  if (region >= construct_of_.size()) construct_of_.resize(region + 1, -1);
  if (construct_of_[region] < 0) {
    construct_of_[region] = int32_t(constructs_.size());
    Construct c;
    c.pid = kPerfettoFirstConstructPid + uint32_t(constructs_.size());
    constructs_.push_back(c);
    process(c.pid, "tasks: " + regions_.at(region).name, c.pid);
  }
  return constructs_[size_t(construct_of_[region])];
}

void PerfettoTimeline::open_instance(uint64_t t, TimelineTask& task) {
  Construct& c = construct(task.region);
  uint32_t lane = 0;
  while (lane < c.busy.size() && c.busy[lane]) ++lane;
  if (lane == c.busy.size()) c.busy.push_back(false);
  c.busy[lane] = true;
  if (lane >= c.named_lanes) {
    thread(c.pid, lane + 1, fmt::format("lane {}", lane));
    c.named_lanes = lane + 1;
  }
  task.slot = lane + 1;
  task.sink_state = kRunningSlice;
  begin_region(c.pid, lane + 1, t, task.region, "task", &task);
}

void PerfettoTimeline::close_instance(uint64_t t, TimelineTask& task) {
  if (task.sink_state == kNoInstance) return;
  Construct& c = construct(task.region);
  uint32_t lane = uint32_t(task.slot - 1);
  if (task.sink_state == kNestedSlice) end_slice(c.pid, lane + 1, t);
  end_slice(c.pid, lane + 1, t);
  c.busy[lane] = false;
  task.sink_state = kNoInstance;
}

void PerfettoTimeline::task_state(uint64_t t, TimelineTask& task, TaskState state) {
  settle_counter(t);
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
    end_slice(c.pid, tid, t);
    task.sink_state = kRunningSlice;
  }
  if (const char* name = waiting_name(state)) {
    begin_state(c.pid, tid, t, name);
    task.sink_state = kNestedSlice;
  }
}

void PerfettoTimeline::task_alive_at_end(uint64_t t, TimelineTask& task) {
  settle_counter(t);
  close_instance(t, task);
}

// A task forgotten before its completion (its id reused): its instance slice ends, its lane is
// free again.
void PerfettoTimeline::task_forgotten(uint64_t t, TimelineTask& task) {
  settle_counter(t);
  close_instance(t, task);
}

void PerfettoTimeline::flush_counter() {
  if (!counter_pending_) return;
  counter(counter_ts_, counter_value_);
  counter_pending_ = false;
}

void PerfettoTimeline::settle_counter(uint64_t t) {
  if (counter_pending_ && t != counter_ts_) flush_counter();
}

void PerfettoTimeline::ready_tasks(uint64_t t, uint64_t count) {
  // Several changes at one instant: only the last value counts.
  settle_counter(t);
  counter_ts_ = t;
  counter_value_ = count;
  counter_pending_ = true;
}

void PerfettoTimeline::parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) {
  settle_counter(t);
  parameter_value(th, t, x_.string(name), value);
}

void PerfettoTimeline::end(uint64_t) {
  flush_counter();
}

ExportSummary PerfettoTimeline::summary(const std::string& path, uint64_t records, const char* unit,
                                        uint64_t bytes, const char* viewers) const {
  ExportSummary s;
  s.files.push_back(path);
  s.records_out = records;
  s.unit = unit;
  if (records > options_.browser_events && !options_.browser_warned) {
    s.notes.push_back(fmt::format(
        "warning: {} {} ({:.0f} MB): more than {} is too much for a browser ({}); narrow the "
        "export with --from/--to or --threads, or open it with trace_processor",
        records, unit, double(bytes) / 1e6, options_.browser_events, viewers));
  }
  add_timeline_notes(s);
  return s;
}

}  // namespace tasklens::exports
