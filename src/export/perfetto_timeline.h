// What the two Perfetto exports show, whatever their encoding (perfetto_json_export.cpp: Chrome
// trace-event JSON; perfetto_proto_export.cpp: Perfetto's protobuf trace): the tracks, the slices
// on them, the flows between them, the ready-tasks counter and the user parameters. Both encoders
// implement the hooks below, so both formats show the same slices (docs/EXPORTS.md).
//
// Tracks are named (pid, tid) as in the JSON format:
//   * pid 1 ("`program` threads"): tid = thread + 1, one track per thread; tid 0 is the process's
//     own track (the counter);
//   * pid 10 + k: the k-th task construct met ("tasks: task fib.c:39"); tid = lane + 1. An instance
//     is a slice from its first start to its completion on a lane, instances that overlap in time
//     take different lanes, with nested slices while it is suspended, ready or detached.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/timeline_exporter.h"

namespace tasklens::exports {

constexpr uint32_t kPerfettoThreadsPid = 1;
constexpr uint32_t kPerfettoFirstConstructPid = 10;

class PerfettoTimeline : public TimelineExporter {
 protected:
  using TimelineExporter::TimelineExporter;

  // ---- What the encoders write. Calls come in time order, except flows (see flow()).
  // Before anything else; `from_ns`: the window's start (no event is earlier).
  virtual void header(uint64_t from_ns) {}
  // A process and its place among processes (0 first).
  virtual void process(uint32_t pid, const std::string& name, uint32_t sort_index) = 0;
  virtual void thread(uint32_t pid, uint32_t tid, const std::string& name) = 0;
  // A slice for region `region` (name from the region table) in `category` ("task", "openmp",
  // "user"); `task` given: the slice is that task's (its id and parent's are shown).
  virtual void begin_region(uint32_t pid, uint32_t tid, uint64_t t, uint32_t region,
                            const char* category, const TimelineTask* task) = 0;
  // A nested slice of a task instance in category "task state" ("suspended", ...).
  virtual void begin_state(uint32_t pid, uint32_t tid, uint64_t t, const char* name) = 0;
  virtual void end_slice(uint32_t pid, uint32_t tid, uint64_t t) = 0;
  // An arrow of `kind` ("create", "dependence", "migration") numbered `id` (1, 2, ...) from a point
  // on a thread track to the slice that begins next on another thread's track. Its start, at
  // `t` on `th`'s track: a creation's at the creation (in time order); a dependence's or a
  // migration's is called with its end, so `t` is earlier than the calls before it.
  virtual void flow_start(const char* kind, uint64_t id, uint32_t th, uint64_t t) = 0;
  // Its end: the slice that begins next on `th`'s track at `t` (the next begin_region there).
  virtual void flow_end(const char* kind, uint64_t id, uint32_t th, uint64_t t) = 0;
  // The number of ready tasks from t on (on pid 1's own track).
  virtual void counter(uint64_t t, uint64_t ready) = 0;
  // A user parameter's value, an instant on the thread's track.
  virtual void parameter_value(uint32_t th, uint64_t t, const std::string& name, int64_t value) = 0;
  // The encoders (perfetto_json_export.cpp, perfetto_proto_export.cpp) declare the methods above
  // with TASKLENS_PERFETTO_ENCODER_OVERRIDES (below the class): one list for both.

  // What finish() returns: the file, `records` of `unit` written, a warning above
  // --browser-events records (`viewers`: the browser tools that would struggle), the timeline's
  // notes.
  ExportSummary summary(const std::string& path, uint64_t records, const char* unit, uint64_t bytes,
                        const char* viewers) const;

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
  void task_create(uint32_t th, uint64_t t, TimelineTask& task,
                   const TimelineTask* parent) override;
  void task_switch(uint32_t th, uint64_t t, TimelineTask* task, const SwitchInfo& how) override;
  void task_state(uint64_t t, TimelineTask& task, replay::TaskState state) override;
  void task_alive_at_end(uint64_t t, TimelineTask& task) override;
  void task_forgotten(uint64_t t, TimelineTask& task) override;
  void ready_tasks(uint64_t t, uint64_t count) override;
  void parameter(uint32_t th, uint64_t t, uint64_t name, int64_t value) override;
  void end(uint64_t t) override;

  void add_flow(const char* kind, uint32_t from_th, uint64_t from_t, uint32_t to_th, uint64_t to_t);
  Construct& construct(uint32_t region);
  void open_instance(uint64_t t, TimelineTask& task);
  void close_instance(uint64_t t, TimelineTask& task);
  void flush_counter();
  // Writes the pending counter value once time has moved past it, so that the encoders see
  // calls in time order (the protobuf's delta-encoded times stay small).
  void settle_counter(uint64_t t);

  uint64_t flows_ = 0;
  std::vector<int32_t> construct_of_;  // region id -> index in constructs_, -1: none yet
  std::vector<Construct> constructs_;
  uint64_t counter_ts_ = 0, counter_value_ = 0;
  bool counter_pending_ = false;
};

// In an encoder's class: the overrides of PerfettoTimeline's encoder methods, in the order of
// their declarations there (which say what each writes).
#define TASKLENS_PERFETTO_ENCODER_OVERRIDES                                                        \
  void header(uint64_t from_ns) override;                                                          \
  void process(uint32_t pid, const std::string& name, uint32_t sort_index) override;               \
  void thread(uint32_t pid, uint32_t tid, const std::string& name) override;                       \
  void begin_region(uint32_t pid, uint32_t tid, uint64_t t, uint32_t region, const char* category, \
                    const TimelineTask* task) override;                                            \
  void begin_state(uint32_t pid, uint32_t tid, uint64_t t, const char* name) override;             \
  void end_slice(uint32_t pid, uint32_t tid, uint64_t t) override;                                 \
  void flow_start(const char* kind, uint64_t id, uint32_t th, uint64_t t) override;                \
  void flow_end(const char* kind, uint64_t id, uint32_t th, uint64_t t) override;                  \
  void counter(uint64_t t, uint64_t ready) override;                                               \
  void parameter_value(uint32_t th, uint64_t t, const std::string& name, int64_t value) override;

}  // namespace tasklens::exports
